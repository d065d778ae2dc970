import IAPCatalog

/// The name a typo most likely meant ("did you mean 'validate'?"): the nearest by edit distance,
/// when it is at most two edits away, or a third of the typo's length for a long one: the rule
/// `iap.yml`'s unknown keys are suggested by, and `iap`'s mistyped commands.
public enum NearestName {
    /// The nearest of `names` (the first of equally near ones), or nil when none is near enough.
    public static func to(_ typo: String, among names: [String]) -> String? {
        guard let nearest = names.min(by: { EditDistance.between($0, typo) < EditDistance.between($1, typo) }) else { return nil }
        return EditDistance.between(nearest, typo) <= max(2, typo.count / 3) ? nearest : nil
    }
}
