import Support

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
        var json = JSONWriter(capacity: result.findings.count * 420 + 16)
        json.openArray()
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            let n = seen[fingerprint, default: 0] + 1
            seen[fingerprint] = n
            let unique = n == 1 ? fingerprint : Fingerprint(rule: fingerprint, path: "", subject: String(n)).hash
            json.openObject()
            json.key("categories"); json.openArray(); json.string("Bug Risk"); json.closeArray()
            json.key("check_name"); json.string(finding.ruleID)
            json.key("description"); json.string(finding.message)
            json.key("fingerprint"); json.string(unique)
            json.key("location")
            json.openObject()
            json.key("lines"); json.openObject(); json.key("begin"); json.int(max(finding.location.line, 1)); json.closeObject()
            json.key("path"); json.string(Self.repositoryPath(finding.location.path))
            json.closeObject()
            json.key("severity"); json.string(Self.severity(finding.severity))
            json.key("type"); json.string("issue")
            json.closeObject()
        }
        json.closeArray()
        return json.finish()
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
