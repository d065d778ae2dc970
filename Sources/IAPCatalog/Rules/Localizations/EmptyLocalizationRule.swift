import Diagnostics

public struct EmptyLocalizationRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "empty-localization", name: "Empty display name or description", severity: .warning,
        rationale: "App Store Connect needs a display name and a description in every localization, and a store screen that shows product.displayName shows nothing for an empty one.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: ""),
                     storeKitLocalization("com.acme.app.coins", displayName: " ", description: "A bag of coins")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "A bag of coins", marked: false)])

    /// Above this many products with empty texts in one file, one finding for the file.
    static let summaryThreshold = 3

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        var byFile: [String: [(Product, Localization, [String])]] = [:]
        for product in catalog.describedProducts {
            for l in product.metadata.localizations where l.locale != "default" {
                let empty = l.texts.filter { $0.text.map { $0.allSatisfy(\.isWhitespace) } ?? false }.map(\.field)
                if !empty.isEmpty { byFile[l.location.path, default: []].append((product, l, empty)) }
            }
        }
        let fix = SuggestedFix("write the text customers see in the store")
        for path in byFile.keys.sorted() {
            let inFile = byFile[path]!
            if Set(inFile.map(\.0.id)).count > Self.summaryThreshold {
                let first = inFile.prefix(3).map { "\(Quote.bounded($0.0.id))" }.joined(separator: ", ")
                found.add(finding("\(inFile.count) localizations in this file have an empty display name or description (first \(first))",
                                  at: inFile[0].1.location, fix: fix))
                continue
            }
            for (product, l, empty) in inFile {
                found.add(at: l.location) {
                    finding("the \(empty.joined(separator: " and ")) of \(Quote.bounded(product.id)) (\(l.locale)) \(empty.count > 1 ? "are" : "is") empty",
                            at: l.location, fix: fix)
                }
            }
        }
    }
}
