/// The findings as JSON for tools (`docs/ci.md` documents the schema):
/// `{"version": 1, "tool": {…}, "command": …, "summary": {…}, "baseline": {…}?, "findings": [{"ruleID", "severity",
/// "message", "location": {"path", "line", "column"}, "related": [...], "fix"?: {...}, "fingerprint"}]}`,
/// keys sorted and findings in stable order, so output is byte-identical between runs.
public struct JSONReporter: Reporter {
    public static let identifier = "json"
    public static let summary = "a JSON document with a version field, for tools (schema in docs/ci.md)"
    public static let defaultFileName = "iap-report.json"
    /// The schema's version; raised when a field changes meaning or goes away.
    public static let schemaVersion = 1

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var findings: [JSONValue] = []
        findings.reserveCapacity(result.findings.count)
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            var members: [(String, JSONValue)] = [
                ("ruleID", .string(finding.ruleID)),
                ("severity", .string(finding.severity.rawValue)),
                ("message", .string(finding.message)),
                ("location", Self.location(finding.location)),
                ("related", .array(finding.related.map { .object([("location", Self.location($0.location)), ("message", .string($0.message))]) })),
                ("fingerprint", .string(fingerprint)),
            ]
            if let fix = finding.fix {
                var fixMembers: [(String, JSONValue)] = [("message", .string(fix.message))]
                if let replacement = fix.replacement { fixMembers.append(("replacement", .string(replacement))) }
                members.append(("fix", .object(fixMembers)))
            }
            findings.append(.object(members))
        }
        var document: [(String, JSONValue)] = [
            ("version", .int(Self.schemaVersion)),
            ("tool", .object([("name", .string(result.tool.name)), ("version", .string(result.tool.version))])),
            ("command", .string(result.command)),
            ("summary", .object([
                ("files", .int(result.files.count)),
                ("errors", .int(result.findings.count(of: .error))),
                ("warnings", .int(result.findings.count(of: .warning))),
                ("infos", .int(result.findings.count(of: .info))),
            ])),
            ("findings", .array(findings)),
        ]
        if let baseline = result.baseline {
            document.append(("baseline", .object([("path", .string(baseline.path)), ("suppressed", .int(baseline.suppressed)),
                                                  ("fixed", .int(baseline.fixed))])))
        }
        return JSONValue.object(document).rendered()
    }

    static func location(_ location: SourceLocation) -> JSONValue {
        .object([("path", .string(location.path)), ("line", .int(location.line)), ("column", .int(location.column))])
    }
}
