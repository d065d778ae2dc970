import Diagnostics
import Foundation

public struct DuplicateReferenceNameRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "duplicate-reference-name", name: "Duplicate reference name", severity: .error,
        rationale: "Reference names must be unique within an app in App Store Connect.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>") + "\n"
                               + RuleExample.product("com.acme.app.coins2", "<key>referenceName</key>↓<string>coins</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>") + "\n"
                                  + RuleExample.product("com.acme.app.gems", "<key>referenceName</key><string>Gems</string>"))])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let named = catalog.describedProducts.compactMap { p in p.metadata.referenceName.map { (p, $0) } }
        // Compared ignoring ASCII case and surrounding spaces (trimmed only where there are any).
        let keys = named.map { _, name -> String in
            let v = name.value
            return v.utf8.first == 0x20 || v.utf8.last == 0x20 ? v.trimmingCharacters(in: .whitespaces) : v
        }
        IDKeys.forEachRepeat(keys, .lower) { first, later in
            let (earlier, earlierName) = named[first], (product, name) = named[later]
            found.add(at: name.location) {
                finding("reference name \(Quote.bounded(name.value)) of \(Quote.bounded(product.id)) is already used by \(Quote.bounded(earlier.id))",
                        at: name.location, related: [RelatedLocation(earlierName.location, "first used here")])
            }
        }
    }
}
