import Diagnostics

/// `unreadable-source`. Found by `SourceLinter.lintFile` before a file is parsed.
public enum UnreadableSourceRule: Rule {
    public static let description = RuleDescription(
        id: "unreadable-source", name: "Unreadable source file", severity: .error,
        rationale: "A source file that cannot be read is not linted; a run that skipped it silently would pass code nobody checked.",
        triggering: [], nonTriggering: [])
}
