import Diagnostics

public struct CaseDuplicateIDRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "case-duplicate-id", name: "IDs equal ignoring case", severity: .warning,
        rationale: "App Store Connect treats product IDs as case-sensitive, people do not: two IDs that differ only in case are a typo waiting to happen.",
        triggering: [.ids("com.acme.app.Coins", "↓com.acme.app.coins")],
        nonTriggering: [.ids("com.acme.app.coins", "com.acme.app.gems")])

    /// Among the slowest rules on a large catalog: started second (`CatalogRule.schedulingRank`).
    public var schedulingRank: Int? { 1 }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let products = catalog.products
        IDKeys.forEachRepeat(products.lazy.map(\.id), hashes: products.lazy.map { UInt64($0.lowerHash) << 32 }, .lower) { first, later in
            let earlier = products[first], product = products[later]
            found.add(at: product.location) {
                finding(
                    "product ID \(Quote.bounded(product.id)) differs from \(Quote.bounded(earlier.id)) only in case",
                    at: product.location, related: [RelatedLocation(earlier.location, "\(Quote.bounded(earlier.id)) is here")],
                    fix: SuggestedFix("use one spelling for both"))
            }
        }
    }
}
