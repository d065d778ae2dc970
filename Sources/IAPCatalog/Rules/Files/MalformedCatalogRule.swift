import Diagnostics

/// `malformed-catalog`: a finding about a file, made while loading it: CatalogFileReader and
/// CatalogLoader when a file does not parse, StoreKitFile when a `.storekit` file is not a
/// configuration, in the loader's one pass over the file; `LoadTimeRule` hands it to the validator.
public enum MalformedCatalogRule: Rule {
    public static let description = RuleDescription(
        id: "malformed-catalog", name: "Malformed catalog file", severity: .error,
        rationale: "A catalog file that does not parse ships no products; Xcode and StoreKit fail on it at run time.",
        triggering: [
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("<array>\n\t<string>com.acme.app.coins</strin>↓\n</array>"))]),
            RuleExample([ExampleFile("Products.storekit", "{ \"products\" : [ ↓}")]),
            RuleExample([ExampleFile("Empty.storekit", "↓")]),
        ],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])
}
