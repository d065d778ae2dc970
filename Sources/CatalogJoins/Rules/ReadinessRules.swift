import Diagnostics

/// The readiness rules, in the order `iap rules` lists them and `Readiness` runs them.
public enum ReadinessRules {
    static let rules: [any ReadinessRule.Type] = [ReadyUnknownProductRule.self, ReadyBundlePrefixRule.self, ReadyNotApprovedRule.self,
                                                  ReadyStorefrontRule.self]

    public static let all: [RuleDescription] = rules.map { $0.description }
}
