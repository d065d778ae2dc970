import Diagnostics

public struct RetiredIDRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "retired-id", name: "Retired ID reused", severity: .error,
        rationale: "App Store Connect never lets a deleted product ID be used again in the same app; reusing one fails at submission.",
        triggering: [
            .ids("com.acme.app.coins", "↓com.acme.app.old_pro", retired: ["com.acme.app.old_pro"]),
            RuleExample([
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.old_pro"])),
                ExampleFile("RetiredProductIDs.plist", RuleExample.idList(["com.acme.app.old_pro"])),
            ]),
        ],
        nonTriggering: [.ids("com.acme.app.coins", retired: ["com.acme.app.old_pro"])])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            guard let retired = options.retiredIDs[product.id] ?? catalog.retiredIDs[product.id] else { continue }
            found.add(at: product.location) {
                finding("product ID \(Quote.bounded(product.id)) was retired and cannot be used again in this app", at: product.location,
                        related: [RelatedLocation(retired, "listed as retired here")],
                        fix: SuggestedFix("choose a new product ID"))
            }
        }
    }
}
