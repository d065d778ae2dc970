import Diagnostics

/// `iap rules` and `iap lint --rules` in their three forms.
public enum RuleListing {
    /// One aligned line per rule: ID, default severity, rationale.
    public static func text(_ rules: [RuleDescription]) -> String {
        let width = rules.map(\.id.count).max() ?? 0
        return rules.map { rule in
            rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + rule.rationale + "\n"
        }.joined()
    }

    /// The README's table.
    public static func markdown(_ rules: [RuleDescription]) -> String {
        "| rule | kind | severity | why |\n|---|---|---|---|\n"
            + rules.map { "| `\($0.id)` | \(RuleRegistry.family(of: $0.id)) | \($0.severity.rawValue) | \($0.rationale) |\n" }.joined()
    }

    /// `{"version": 1, "rules": [{"id", "name", "kind", "defaultSeverity", "rationale", "helpUri"}]}`.
    public static func json(_ rules: [RuleDescription]) -> String {
        let items: [JSONValue] = rules.map { rule in
            .object([
                ("defaultSeverity", .string(rule.severity.rawValue)),
                ("helpUri", .string(rule.helpURI)),
                ("id", .string(rule.id)),
                ("kind", .string(RuleRegistry.family(of: rule.id))),
                ("name", .string(rule.name)),
                ("rationale", .string(rule.rationale)),
            ])
        }
        return JSONValue.object([("rules", .array(items)), ("version", .int(1))]).rendered()
    }
}
