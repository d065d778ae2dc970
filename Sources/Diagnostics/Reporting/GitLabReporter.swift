/// GitLab Code Quality JSON (`artifacts:reports:codequality`): an array of issues, each with a
/// description, check name, fingerprint, severity and location. GitLab compares fingerprints
/// between branches, so a repeated finding gets its occurrence number folded into its own.
public struct GitLabReporter: Reporter {
    public static let identifier = "gitlab"
    public static let summary = "GitLab Code Quality JSON for merge-request widgets"
    public static let defaultFileName = "gl-code-quality-report.json"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var seen: [String: Int] = [:]
        var issues: [JSONValue] = []
        issues.reserveCapacity(result.findings.count)
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            let n = seen[fingerprint, default: 0] + 1
            seen[fingerprint] = n
            let unique = n == 1 ? fingerprint : Fingerprint(rule: fingerprint, path: "", subject: String(n)).hash
            issues.append(.object([
                ("type", .string("issue")),
                ("check_name", .string(finding.ruleID)),
                ("description", .string(finding.message)),
                ("categories", .array([.string("Bug Risk")])),
                ("fingerprint", .string(unique)),
                ("severity", .string(Self.severity(finding.severity))),
                ("location", .object([
                    ("path", .string(Self.repositoryPath(finding.location.path))),
                    ("lines", .object([("begin", .int(max(finding.location.line, 1)))])),
                ])),
            ]))
        }
        return JSONValue.array(issues).rendered()
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: "critical"
        case .warning: "minor"
        case .info: "info"
        }
    }

    /// GitLab wants the path as in the repository: relative, without a leading `./`.
    static func repositoryPath(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return String(p)
    }
}
