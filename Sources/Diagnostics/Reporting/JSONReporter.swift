import Support

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
        var json = JSONWriter(capacity: result.findings.count * 480 + 512)
        json.openObject()
        if let baseline = result.baseline {
            json.key("baseline")
            json.openObject()
            json.key("fixed"); json.int(baseline.fixed)
            json.key("path"); json.string(baseline.path)
            json.key("suppressed"); json.int(baseline.suppressed)
            json.closeObject()
        }
        json.key("command"); json.string(result.command)
        json.key("findings")
        json.openArray()
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            json.openObject()
            json.key("fingerprint"); json.string(fingerprint)
            if let fix = finding.fix {
                json.key("fix")
                json.openObject()
                json.key("message"); json.string(fix.message)
                if let replacement = fix.replacement { json.key("replacement"); json.string(replacement) }
                json.closeObject()
            }
            json.key("location"); Self.location(finding.location, &json)
            json.key("message"); json.string(finding.message)
            json.key("related")
            json.openArray()
            for related in finding.related {
                json.openObject()
                json.key("location"); Self.location(related.location, &json)
                json.key("message"); json.string(related.message)
                json.closeObject()
            }
            json.closeArray()
            json.key("ruleID"); json.string(finding.ruleID)
            json.key("severity"); json.string(finding.severity.rawValue)
            json.closeObject()
        }
        json.closeArray()
        json.key("summary")
        json.openObject()
        json.key("errors"); json.int(result.findings.count(of: .error))
        json.key("files"); json.int(result.files.count)
        json.key("infos"); json.int(result.findings.count(of: .info))
        json.key("warnings"); json.int(result.findings.count(of: .warning))
        json.closeObject()
        json.key("tool")
        json.openObject()
        json.key("name"); json.string(result.tool.name)
        json.key("version"); json.string(result.tool.version)
        json.closeObject()
        json.key("version"); json.int(Self.schemaVersion)
        json.closeObject()
        return json.finish()
    }

    static func location(_ location: SourceLocation, _ json: inout JSONWriter) {
        json.openObject()
        json.key("column"); json.int(location.column)
        json.key("line"); json.int(location.line)
        json.key("path"); json.string(location.path)
        json.closeObject()
    }
}
