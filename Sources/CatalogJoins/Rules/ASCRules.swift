import Diagnostics

/// The drift rules, in the order `iap rules` lists them and `DriftCheck` runs them.
public enum ASCRules {
    static let rules: [any DriftRule.Type] = [ASCMissingProductRule.self, ASCProductNotReadyRule.self, ASCDriftRule.self, ASCUnpricedTerritoryRule.self, ASCExtraProductRule.self]

    public static let all: [RuleDescription] = rules.map { $0.description }
}
