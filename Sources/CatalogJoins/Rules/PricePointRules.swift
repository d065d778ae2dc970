import Diagnostics

/// The price-points rules, in the order `iap rules` lists them and `PricePointCheck` runs them.
public enum PricePointRules {
    static let rules: [any PricePointRule.Type] = [PriceNotAPointRule.self, PriceFarFromEqualizationRule.self]

    public static let all: [RuleDescription] = rules.map { $0.description }
}
