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
        var out = ""
        for severity in [Severity.error, .warning, .info] {
            for finding in result.findings where finding.severity == severity {
                out += "::" + Self.command(severity) + " " + Self.properties(finding) + "::" + Self.escapeData(Self.message(finding)) + "\n"
            }
        }
        return out
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    static func properties(_ finding: Diagnostic) -> String {
        var parts = ["file=" + escapeProperty(finding.location.path)]
        if finding.location.line > 0 { parts.append("line=\(finding.location.line)") }
        if finding.location.column > 0 { parts.append("col=\(finding.location.column)") }
        parts.append("title=" + escapeProperty("iap " + finding.ruleID))
        return parts.joined(separator: ",")
    }

    /// The message, then its notes and fix on their own lines.
    static func message(_ finding: Diagnostic) -> String {
        var text = finding.message + " [" + finding.ruleID + "]"
        for related in finding.related { text += "\n\(related.location): \(related.message)" }
        if let fix = finding.fix { text += "\nfix: " + fix.message }
        return text
    }

    /// `%` → `%25`, CR → `%0D`, LF → `%0A`.
    public static func escapeData(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x25 || $0 == 0x0D || $0 == 0x0A }) else { return text }
        var out = ""
        for ch in text.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// Data escaping, and also `:` → `%3A` and `,` → `%2C`.
    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
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
