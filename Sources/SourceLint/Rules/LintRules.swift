import Diagnostics

/// The registry of lint rules, in the order `iap rules` lists them. Examples run against a
/// catalog with the IDs `com.acme.app.coins`, `com.acme.app.pro` (bundle `com.acme.app`), the
/// title "Bag of Coins", and an app named "Acme" that is also a product's name.
public enum LintRules {
    public static let all: [RuleDescription] = [HardcodedPriceRule.description, HardcodedTitleRule.description,
                                                HardcodedProductIDRule.description, UnknownProductIDRule.description,
                                                PriceFloatConversionRule.description, CurrencyFormatterLocaleRule.description,
                                                HardcodedSharedSecretRule.description,
                                                InvalidSuppressionRule.description, UnreadableSourceRule.description,
                                                UnparsedSourceRule.description]

    /// Every rule's ID.
    public static let ids = Set(all.map(\.id))
}
