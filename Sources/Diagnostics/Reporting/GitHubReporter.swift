/// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`), which
/// annotate the pull request's diff. Escaped as GitHub's toolkit escapes them: `%`, CR and LF in
/// messages, and also `:` and `,` in properties. GitHub shows only ten annotations per severity
/// per step, so the most severe come first; the full list goes to the step summary
/// (`GitHubStepSummary`).
public struct GitHubReporter: Reporter {
    public static let identifier = "github"
    public static let summary = "GitHub Actions annotations (workflow commands); the full list also goes to $GITHUB_STEP_SUMMARY"
    public static let defaultFileName = "iap-github.txt"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var out = OutputBuffer(capacity: result.findings.count * 260)
        for severity in [Severity.error, .warning, .info] {
            for finding in result.findings where finding.severity == severity {
                out.raw("::")
                out.write(Self.command(severity))
                out.raw(" file=")
                out.write(finding.location.path, escaping: Self.propertyEscape)
                if finding.location.line > 0 { out.raw(",line="); out.write(finding.location.line) }
                if finding.location.column > 0 { out.raw(",col="); out.write(finding.location.column) }
                out.raw(",title=iap ")
                out.write(finding.ruleID, escaping: Self.propertyEscape)
                out.raw("::")
                out.write(finding.message, escaping: Self.dataEscape)
                out.raw(" [")
                out.write(finding.ruleID, escaping: Self.dataEscape)
                out.byte(0x5D)
                for related in finding.related {
                    out.raw("%0A")
                    out.write(related.location.description, escaping: Self.dataEscape)
                    out.raw(": ")
                    out.write(related.message, escaping: Self.dataEscape)
                }
                if let fix = finding.fix {
                    out.raw("%0Afix: ")
                    out.write(fix.message, escaping: Self.dataEscape)
                }
                out.byte(0x0A)
            }
        }
        return out.string
    }

    static func dataEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x25: "%25"
        case 0x0D: "%0D"
        case 0x0A: "%0A"
        default: nil
        }
    }

    static func propertyEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x3A: "%3A"
        case 0x2C: "%2C"
        default: dataEscape(byte)
        }
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// `%` → `%25`, CR → `%0D`, LF → `%0A`.
    public static func escapeData(_ text: String) -> String {
        var out = OutputBuffer(capacity: text.utf8.count + 8)
        out.write(text, escaping: dataEscape)
        return out.string
    }

    /// Data escaping, and also `:` → `%3A` and `,` → `%2C`.
    public static func escapeProperty(_ text: String) -> String {
        var out = OutputBuffer(capacity: text.utf8.count + 8)
        out.write(text, escaping: propertyEscape)
        return out.string
    }
}

/// The Markdown GitHub shows on a run's summary page (`$GITHUB_STEP_SUMMARY`), with every finding,
/// kept under GitHub's 1 MiB cap per step.
public enum GitHubStepSummary {
    /// GitHub's limit on a step's summary.
    public static let byteLimit = 1_048_576

    public static func markdown(_ result: RunResult) -> String {
        MarkdownReporter(byteLimit: byteLimit - 1024).report(result, options: ReportOptions())
    }
}
