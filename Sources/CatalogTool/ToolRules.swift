import Diagnostics

/// Rules of the tool itself, over what `check` runs besides the catalog and lint rules.
public enum ToolRules {
    public static let staleGeneratedFile = RuleDescription(
        id: "stale-generated-file", name: "Stale generated file", severity: .error,
        rationale: "A generated file that no longer matches its catalog (or is missing) lets code use IDs the catalog dropped and miss the ones it added; regenerate it with iap gen.",
        triggering: [], nonTriggering: [])

    public static let invalidPlist = RuleDescription(
        id: "invalid-plist", name: "Invalid property list", severity: .error,
        rationale: "A property list that does not parse fails in Xcode and at run time; iap plist lint says where, the way plutil -lint does on a Mac.",
        triggering: [], nonTriggering: [])

    public static let storeKitMissingField = RuleDescription(
        id: "storekit-missing-field", name: "StoreKit configuration needs a missing fact", severity: .error,
        rationale: "A StoreKit configuration needs a price in its storefront, a kind, and a group and period for every auto-renewable subscription; iap storekit writes no product it would have to invent them for, and says which.",
        triggering: [], nonTriggering: [])

    public static let storeKitCannotHold = RuleDescription(
        id: "storekit-cannot-hold", name: "StoreKit configuration cannot hold a fact", severity: .warning,
        rationale: "A fact of the catalog that a StoreKit configuration has no place for (a period, group or offer on a product that is not an auto-renewable subscription) would be dropped from the generated file; iap storekit says so instead of dropping it silently.",
        triggering: [], nonTriggering: [])

    public static let all = [staleGeneratedFile, invalidPlist, storeKitMissingField, storeKitCannotHold]
}
