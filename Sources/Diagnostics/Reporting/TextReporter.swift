import Support
/// Renders diagnostics as `path:line:col: severity: message [rule-id]`, the form Xcode,
/// editors and CI log parsers understand, with related locations as `note:` lines.
public struct TextReporter: Reporter {
    public static let identifier = "text"
    public static let summary = "path:line:col: severity: message [rule], the form Xcode, editors and CI logs read (the default)"
    public static let defaultFileName = "iap-report.txt"

    /// Whether to add ANSI colours. The CLI decides (a terminal, and `NO_COLOR` unset).
    public var useColor: Bool

    public init() {
        self.useColor = false
    }

    public init(useColor: Bool) {
        self.useColor = useColor
    }

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var out = ""
        let reporter = TextReporter(useColor: options.useColor)
        for finding in result.findings { out += reporter.render(finding) }
        return out
    }

    /// One diagnostic, its notes and its fix, each on its own line, with a trailing newline. A
    /// line break inside a message (quoted from a file) is written `\n`, so each finding stays one
    /// line for the editors and log parsers that read this form.
    public func render(_ diagnostic: Diagnostic) -> String {
        var out = "\(diagnostic.location): \(colored(diagnostic.severity)): \(Escape.oneLine(diagnostic.message)) [\(diagnostic.ruleID)]\n"
        for related in diagnostic.related {
            out += "\(related.location): \(paint("note", code: "36")): \(Escape.oneLine(related.message))\n"
        }
        if let fix = diagnostic.fix {
            out += "\(diagnostic.location): \(paint("note", code: "36")): fix: \(Escape.oneLine(fix.message))\n"
        }
        return out
    }

    /// All diagnostics in stable order.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.sortedForOutput().map(render).joined()
    }

    /// "2 errors, 1 warning, 0 notes" style summary line (without newline).
    public func summary(_ diagnostics: [Diagnostic], files: Int) -> String {
        "\(plural(files, "file")) checked: \(diagnostics.severityCounts)"
    }

    private func colored(_ severity: Severity) -> String {
        switch severity {
        case .error: paint("error", code: "1;31")
        case .warning: paint("warning", code: "1;33")
        case .info: paint("info", code: "1;34")
        }
    }

    private func paint(_ text: String, code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
