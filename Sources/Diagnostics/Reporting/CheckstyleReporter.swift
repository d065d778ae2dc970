import Support

/// Checkstyle XML, which Jenkins' warnings plugin, reviewdog and Danger read: a `<file>` per file
/// with findings, an `<error>` per finding, its rule as `source`.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"
    public static let summary = "Checkstyle XML for Jenkins, reviewdog and Danger"
    public static let defaultFileName = "iap-checkstyle.xml"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var out = OutputBuffer(capacity: result.findings.count * 300 + 128)
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n")
        var current: String?
        for finding in result.findings {
            if finding.location.path != current {
                if current != nil { out.raw("  </file>\n") }
                current = finding.location.path
                out.raw("  <file name=\"")
                out.xml(finding.location.path)
                out.raw("\">\n")
            }
            out.raw("    <error line=\"")
            out.write(finding.location.line)
            out.raw("\" column=\"")
            out.write(finding.location.column)
            out.raw("\" severity=\"")
            out.write(finding.severity.rawValue)
            out.raw("\" message=\"")
            out.xml(finding.message)
            out.raw("\" source=\"iap.")
            out.xml(finding.ruleID)
            out.raw("\"/>\n")
        }
        if current != nil { out.raw("  </file>\n") }
        out.raw("</checkstyle>\n")
        return out.string
    }
}
