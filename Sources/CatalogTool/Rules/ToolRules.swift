import Diagnostics

/// Rules of the tool itself, over what `check` runs besides the catalog and lint rules: one file
/// each under `Rules/<Family>/`, listed here in the order `iap rules` prints them.
public enum ToolRules {
    public static let all = [
        StaleGeneratedFileRule.description, InvalidPlistRule.description, StoreKitMissingFieldRule.description, StoreKitCannotHoldRule.description,
    ]

    /// The rules of writing a StoreKit configuration (`iap storekit`, `convert`, `check`'s `storekit` entries).
    public static let storeKit = [StoreKitMissingFieldRule.description, StoreKitCannotHoldRule.description]
}
