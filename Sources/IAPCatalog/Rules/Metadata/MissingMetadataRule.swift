import Diagnostics

public struct MissingMetadataRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "missing-metadata", name: "Product without metadata", severity: .warning,
        rationale: "When a catalog has metadata, a listed product that none describes has no kind, name or price to check or generate.",
        triggering: [RuleExample([
            ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins", "↓com.acme.app.gems"])),
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
        ])],
        nonTriggering: [.ids("com.acme.app.coins", "com.acme.app.gems")])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        guard catalog.hasMetadataSource else { return }
        for product in catalog.products where !product.hasMetadataSource {
            found.add(at: product.location) {
                finding("\(Quote.bounded(product.id)) has no metadata: no metadata plist or .storekit file of this catalog describes it", at: product.location)
            }
        }
    }
}
