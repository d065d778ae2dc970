import Support
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
        var buffer = OutputBuffer(capacity: result.findings.count * 220 + out.utf8.count)
        buffer.write(out)
        for (i, finding) in result.findings.enumerated() {
            let before = buffer.bytes.count
            buffer.raw("| ")
            buffer.write(finding.severity.rawValue)
            buffer.raw(" | ")
            Self.codeSpan(finding.location.description, &buffer)
            buffer.raw(" | ")
            Self.codeSpan(finding.ruleID, &buffer)
            buffer.raw(" | ")
            buffer.write(finding.message, escaping: Escape.markdownCellTable)
            if let fix = finding.fix {
                buffer.raw("<br>fix: ")
                buffer.write(fix.message, escaping: Escape.markdownCellTable)
            }
            buffer.raw(" |\n")
            if let byteLimit, buffer.bytes.count + 200 > byteLimit {
                buffer.truncate(to: before)
                buffer.write("\n… and \(plural(result.findings.count - i, "more finding")), left out to stay under \(byteLimit) bytes; the other reports hold them all.\n")
                return buffer.string
            }
        }
        return buffer.string
    }

    /// A code span: backticks cannot close it early, pipes cannot end the cell.
    static func codeSpan(_ text: String, _ out: inout OutputBuffer) {
        let fence = text.utf8.contains(0x60)
        out.raw(fence ? "`` " : "`")
        out.write(text, escaping: Escape.markdownCodeSpanTable)
        out.raw(fence ? " ``" : "`")
    }
}
