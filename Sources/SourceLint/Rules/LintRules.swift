import Diagnostics

/// The registry of lint rules, in the order `iap rules` lists them. Examples run against a
/// catalog with the IDs `com.acme.app.coins`, `com.acme.app.pro` (bundle `com.acme.app`), the
/// title "Bag of Coins", and an app named "Acme" that is also a product's name.
public enum LintRules {
    /// Every lint rule, in the order `iap rules` lists them.
    static let rules: [any Rule.Type] = [
        HardcodedPriceRule.self, HardcodedTitleRule.self, HardcodedProductIDRule.self, UnknownProductIDRule.self,
        PriceFloatConversionRule.self, CurrencyFormatterLocaleRule.self, HardcodedSharedSecretRule.self,
        InvalidSuppressionRule.self, UnreadableSourceRule.self, UnparsedSourceRule.self,
    ]

    public static let all: [RuleDescription] = rules.map { $0.description }

    /// The rules the Swift walk runs (`SwiftLintVisitor`).
    static let swift: [any SwiftLintRule.Type] = rules.compactMap { $0 as? any SwiftLintRule.Type }

    /// The rules the Objective-C pass runs (`ObjCLinter.run`).
    static let objc: [any ObjCLintRule.Type] = rules.compactMap { $0 as? any ObjCLintRule.Type }

    /// Every rule's ID.
    public static let ids = Set(all.map(\.id))
}
