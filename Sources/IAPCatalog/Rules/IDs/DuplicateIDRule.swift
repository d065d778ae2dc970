import Diagnostics

/// The same ID twice in one file, or in two product-list files. (An ID in a product list and in a
/// `.storekit` file is one product described twice, not a duplicate; per-storefront `.storekit`
/// files repeat IDs by design.)
public struct DuplicateIDRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "duplicate-id", name: "Duplicate product ID", severity: .error,
        rationale: "A product listed twice is requested twice and counted twice; usually one of the two was meant to be another ID.",
        triggering: [
            .ids("com.acme.app.coins", "↓com.acme.app.coins"),
            RuleExample([
                ExampleFile("A_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
                ExampleFile("B_ProductIDs.plist", RuleExample.idList(["com.acme.app.gems", "↓com.acme.app.coins"])),
            ]),
        ],
        nonTriggering: [
            .ids("com.acme.app.coins", "com.acme.app.gems"),
            RuleExample([
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
                ExampleFile("Metadata.plist", RuleExample.metadataPlist("\t\t<key>com.acme.app.coins</key>\n\t\t<dict/>")),
            ]),
        ])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products where product.occurrenceCount > 1 {
            let lists = product.occurrences.filter { $0.role == .productList }
            var repeated: [ProductOccurrence] = lists.count > 1 ? lists : []
            let byFile = Dictionary(grouping: product.occurrences.filter { $0.role != .productList }, by: \.location.path)
            for path in byFile.keys.sorted() where byFile[path]!.count > 1 { repeated += byFile[path]! }
            guard repeated.count > 1 else { continue }
            let sorted = repeated.sorted { $0.location < $1.location }
            found.add(at: sorted[1].location) {
                let places = sorted.map(\.location.description).joined(separator: ", ")
                return finding(
                    "product ID \(Quote.bounded(product.id)) is listed \(sorted.count) times: \(places)",
                    at: sorted[1].location,
                    related: sorted.enumerated().filter { $0.offset != 1 }.map { RelatedLocation($0.element.location, "also listed here") },
                    fix: SuggestedFix("remove the repeated entry, or give it the ID it was meant to have"))
            }
        }
    }
}
