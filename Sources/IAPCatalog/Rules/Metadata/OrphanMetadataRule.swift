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

    public func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        guard catalog.hasProductList else { return [] }
        return catalog.products.filter { !$0.isListed }.map {
            finding("\(Quote.bounded($0.id)) has metadata but no product list of this catalog holds it: the app never requests it",
                    at: $0.location)
        }
    }
}
