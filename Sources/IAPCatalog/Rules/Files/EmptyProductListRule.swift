import Diagnostics

/// `empty-product-list`: a finding about a file, made while loading it: CatalogFileReader when a
/// product list holds no ID, in the loader's one pass over the file; `LoadTimeRule` hands it to the
/// validator.
public enum EmptyProductListRule: Rule {
    public static let description = RuleDescription(
        id: "empty-product-list", name: "Empty product list", severity: .warning,
        rationale: "An empty list makes the app request no products: the store screen stays empty.",
        triggering: [RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("↓<array/>"))])],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])
}
