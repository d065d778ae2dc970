/// Markdown for a pull-request comment or a job summary: a headline with the counts, then a table
/// of findings. With a byte limit, rows stop before it and a last line says how many were left out.
public struct MarkdownReporter: Reporter {
    public static let identifier = "markdown"
    public static let summary = "a summary and a findings table, for pull-request comments and job summaries"
    public static let defaultFileName = "iap-report.md"

    public var byteLimit: Int?

    public init() {}

    public init(byteLimit: Int?) {
        self.byteLimit = byteLimit
    }

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var out = "## \(result.tool.name) \(result.command): \(result.severityCounts)\n\n"
        out += "\(plural(result.files.count, "file")) checked"
        if let baseline = result.baseline {
            out += "; \(plural(baseline.suppressed, "finding")) held back by the baseline `\(baseline.path)`, \(baseline.fixed) of its findings fixed"
        }
        out += ".\n"
        guard !result.findings.isEmpty else { return out + "\nNo findings.\n" }
        out += "\n| severity | location | rule | message |\n|---|---|---|---|\n"
        var bytes = out.utf8.count
        for (i, finding) in result.findings.enumerated() {
            var message = Markup.markdownCell(finding.message)
            if let fix = finding.fix { message += "<br>fix: " + Markup.markdownCell(fix.message) }
            let row = "| \(finding.severity.rawValue) | \(Markup.codeSpan(finding.location.description)) | \(Markup.codeSpan(finding.ruleID)) | \(message) |\n"
            if let byteLimit, bytes + row.utf8.count + 200 > byteLimit {
                out += "\n… and \(plural(result.findings.count - i, "more finding")), left out to stay under \(byteLimit) bytes; the other reports hold them all.\n"
                return out
            }
            bytes += row.utf8.count
            out += row
        }
        return out
    }
}
