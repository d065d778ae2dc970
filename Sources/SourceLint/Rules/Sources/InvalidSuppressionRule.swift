import Diagnostics

/// `invalid-suppression`. Found by `SourceLinter.lint(source:path:)` from the `// iap:` comments each
/// walk collects (`Suppressions`).
public enum InvalidSuppressionRule: Rule {
    public static let description = RuleDescription(
        id: "invalid-suppression", name: "Unknown rule in a suppression", severity: .warning,
        rationale: "A suppression naming a rule that does not exist suppresses nothing; it is usually a typo. Only a // comment that starts with iap: is a suppression.",
        triggering: [.init("↓// iap:disable:next hardcoded-prize\nlet x = 1")],
        nonTriggering: [.init("// iap:disable:next hardcoded-price - marketing copy\nlet x = \"$0.99\""),
                        .init("/// Silence one line with `// iap:disable:next RULE`, e.g. hardcoded-prize.\nlet x = 1"),
                        .init("let hint = \"// iap:disable hardcoded-prize\""),
                        .init("// see iap: the tool's README\nlet x = 1")])

    /// One finding per rule name a suppression comment gives that no lint rule has.
    static func findings(_ suppressions: Suppressions, path: String) -> [Diagnostic] {
        suppressions.unknown.map { line, column, name in
            description.finding("unknown rule \(Quote.bounded(name)) in a suppression comment; see iap lint --rules",
                                at: SourceLocation(path: path, line: line, column: column))
        }
    }
}
