import Diagnostics

/// The drift rules, in the order `iap rules` lists them.
public enum ASCRules {
    public static let all: [RuleDescription] = [
        ASCMissingProductRule.description, ASCProductNotReadyRule.description, ASCDriftRule.description, ASCExtraProductRule.description,
    ]
}
