import Support
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
                out.write(finding.location.path, escaping: Escape.githubPropertyTable)
                if finding.location.line > 0 { out.raw(",line="); out.write(finding.location.line) }
                if finding.location.column > 0 { out.raw(",col="); out.write(finding.location.column) }
                out.raw(",title=iap ")
                out.write(finding.ruleID, escaping: Escape.githubPropertyTable)
                out.raw("::")
                out.write(finding.message, escaping: Escape.githubDataTable)
                out.raw(" [")
                out.write(finding.ruleID, escaping: Escape.githubDataTable)
                out.byte(0x5D)
                for related in finding.related {
                    out.raw("%0A")
                    out.write(related.location.description, escaping: Escape.githubDataTable)
                    out.raw(": ")
                    out.write(related.message, escaping: Escape.githubDataTable)
                }
                if let fix = finding.fix {
                    out.raw("%0Afix: ")
                    out.write(fix.message, escaping: Escape.githubDataTable)
                }
                out.byte(0x0A)
            }
        }
        return out.string
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
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
