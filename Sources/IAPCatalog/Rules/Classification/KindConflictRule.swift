import Diagnostics

public struct KindConflictRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "kind-conflict", name: "Sources disagree on the kind", severity: .error,
        rationale: "A product is one kind in App Store Connect; two files that say otherwise mean one of them is wrong.",
        triggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
            ExampleFile("Products.plist", RuleExample.plist("<array>\n\t<dict>\n\t\t<key>ProductId</key>\n\t\t<string>com.acme.app.coins</string>\n\t\t<key>Type</key>\n\t\t↓<string>Non-Consumable</string>\n\t</dict>\n</array>")),
        ])],
        nonTriggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
            ExampleFile("Products.plist", RuleExample.plist("<array>\n\t<dict>\n\t\t<key>ProductId</key>\n\t\t<string>com.acme.app.coins</string>\n\t\t<key>Type</key>\n\t\t<string>Consumable</string>\n\t</dict>\n</array>")),
        ])])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            guard product.occurrenceCount > 1, let kind = product.kind, case .declared(let location, let words) = product.kindReason else { continue }
            let others = product.occurrences.filter { ($0.declaredKind?.value).map { $0 != kind } ?? false }
            guard let other = others.first, let otherKind = other.declaredKind else { continue }
            found.add(at: otherKind.location) {
                finding(
                    "\(Quote.bounded(product.id)) is declared \(otherKind.value.displayName) here (\(other.declaredBy ?? "")) but \(kind.displayName) in \(location) (\(words))",
                    at: otherKind.location, related: [RelatedLocation(location, "declared \(kind.displayName) here")])
            }
        }
    }
}
