import Diagnostics

public struct OrphanMetadataRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "orphan-metadata", name: "Metadata for an unlisted product", severity: .warning,
        rationale: "Metadata for an ID no product list holds describes a product the app never requests: a leftover or a typo.",
        triggering: [RuleExample([
            ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(
                RuleExample.product("com.acme.app.coins", kindField("consumable")) + "\n\t\t↓<key>com.acme.app.old</key>\n\t\t<dict/>")),
        ])],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", kindField("consumable")))])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        guard catalog.hasProductList else { return }
        for product in catalog.products where !product.isListed {
            found.add(at: product.location) {
                finding("\(Quote.bounded(product.id)) has metadata but no product list of this catalog holds it: the app never requests it",
                        at: product.location)
            }
        }
    }
}
