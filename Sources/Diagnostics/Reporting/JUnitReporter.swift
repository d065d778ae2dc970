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
        let name = Markup.xml("\(result.tool.name) \(result.command)")
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(failing)\" errors=\"0\">\n"
        out += "  <testsuite name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n"
        for file in files {
            let findings = byFile[file] ?? []
            out += "    <testcase classname=\"\(Markup.xml(result.tool.name))\" name=\"\(Markup.xml(file))\""
            if findings.isEmpty { out += "/>\n"; continue }
            out += ">\n"
            var infos: [String] = []
            for finding in findings {
                let line = "\(finding.location): \(finding.severity.rawValue): \(finding.message) [\(finding.ruleID)]"
                if finding.severity == .info { infos.append(line); continue }
                out += "      <failure type=\"\(finding.ruleID)\" message=\"\(Markup.xml(finding.message))\">"
                    + Markup.xml(line) + "</failure>\n"
            }
            if !infos.isEmpty { out += "      <system-out>" + Markup.xml(infos.joined(separator: "\n")) + "</system-out>\n" }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }
}
