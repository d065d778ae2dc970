import Support

/// JUnit XML, which GitLab, Jenkins, Azure and CircleCI show as test results: one test suite,
/// one test case per file checked. A file's errors and warnings are failures of its case (one
/// `<failure>` each); infos go to its `<system-out>`.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static let summary = "JUnit XML, one test case per file checked; errors and warnings fail it"
    public static let defaultFileName = "iap-junit.xml"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var byFile: [String: [Diagnostic]] = [:]
        for finding in result.findings { byFile[finding.location.path, default: []].append(finding) }
        let files = Array(Set(result.files).union(byFile.keys)).sorted()
        let failing = files.filter { byFile[$0]?.contains { $0.severity != .info } ?? false }.count
        var out = OutputBuffer(capacity: result.findings.count * 400 + files.count * 80 + 512)
        func header(_ tag: StaticString, _ extra: StaticString) {
            out.raw(tag)
            out.raw(" name=\"")
            out.xml(result.tool.name)
            out.byte(0x20)
            out.xml(result.command)
            out.raw("\" tests=\"")
            out.write(files.count)
            out.raw("\" failures=\"")
            out.write(failing)
            out.raw(extra)
        }
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        header("<testsuites", "\" errors=\"0\">\n")
        header("  <testsuite", "\" errors=\"0\" skipped=\"0\">\n")
        for file in files {
            let findings = byFile[file] ?? []
            out.raw("    <testcase classname=\"")
            out.xml(result.tool.name)
            out.raw("\" name=\"")
            out.xml(file)
            if findings.isEmpty { out.raw("\"/>\n"); continue }
            out.raw("\">\n")
            var infos: [Diagnostic] = []
            for finding in findings {
                if finding.severity == .info { infos.append(finding); continue }
                out.raw("      <failure type=\"")
                out.xml(finding.ruleID)
                out.raw("\" message=\"")
                out.xml(finding.message)
                out.raw("\">")
                Self.line(finding, &out)
                out.raw("</failure>\n")
            }
            if !infos.isEmpty {
                out.raw("      <system-out>")
                for (i, info) in infos.enumerated() {
                    if i > 0 { out.raw("&#10;") }
                    Self.line(info, &out)
                }
                out.raw("</system-out>\n")
            }
            out.raw("    </testcase>\n")
        }
        out.raw("  </testsuite>\n</testsuites>\n")
        return out.string
    }

    /// `path:line:col: severity: message [rule]`, XML-escaped.
    static func line(_ finding: Diagnostic, _ out: inout OutputBuffer) {
        out.xml(finding.location.description)
        out.raw(": ")
        out.write(finding.severity.rawValue)
        out.raw(": ")
        out.xml(finding.message)
        out.raw(" [")
        out.xml(finding.ruleID)
        out.byte(0x5D)
    }
}
