/// Checkstyle XML, which Jenkins' warnings plugin, reviewdog and Danger read: a `<file>` per file
/// with findings, an `<error>` per finding, its rule as `source`.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"
    public static let summary = "Checkstyle XML for Jenkins, reviewdog and Danger"
    public static let defaultFileName = "iap-checkstyle.xml"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        var current: String?
        for finding in result.findings {
            if finding.location.path != current {
                if current != nil { out += "  </file>\n" }
                current = finding.location.path
                out += "  <file name=\"\(Markup.xml(finding.location.path))\">\n"
            }
            out += "    <error line=\"\(finding.location.line)\" column=\"\(finding.location.column)\" severity=\"\(finding.severity.rawValue)\" message=\"\(Markup.xml(finding.message))\" source=\"iap.\(finding.ruleID)\"/>\n"
        }
        if current != nil { out += "  </file>\n" }
        out += "</checkstyle>\n"
        return out
    }
}
