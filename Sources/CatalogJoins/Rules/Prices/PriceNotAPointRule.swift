import AppStoreConnect
import Diagnostics
import IAPCatalog

/// `price-not-a-point`: a declared price App Store Connect cannot hold in its territory.
public enum PriceNotAPointRule: PricePointRule {
    public static let description = RuleDescription(
        id: "price-not-a-point", name: "Price that is not an App Store Connect price point", severity: .error,
        rationale: "App Store Connect sets prices only at its price points, about 800 per territory, each currency rounded its own way: a price between two points (4.95 USD, ¥155) cannot be entered, and a catalog, a paywall or a StoreKit configuration that shows it shows a price no customer is charged. Checked against the price-points file `iap asc pull --price-points` writes, for each price the catalog declares in a territory: a metadata plist's price (USD is the USA's) and its per-storefront prices, a .storekit file's prices in its storefront, and the prices of introductory and promotional offers (in the product's territory).",
        triggering: [PriceExample.priced("com.acme.app.pro", "<key>kind</key><string>non-consumable</string>",
                                         "<key>price</key>↓<string>4.95</string>", "<key>currency</key><string>USD</string>")],
        nonTriggering: [PriceExample.priced("com.acme.app.pro", "<key>kind</key><string>non-consumable</string>",
                                            "<key>price</key><string>4.99</string>", "<key>currency</key><string>USD</string>")])

    static func check(_ join: PriceJoin, into found: inout FindingCollector) {
        for declared in join.declared {
            guard let ladder = join.points.ladders[declared.kind]?[declared.territory] else { continue }
            let amount = declared.price.value.amount
            guard ladder.point(amount) == nil else { continue }
            let kind = declared.kind == .subscriptions ? "subscription" : "in-app purchase"
            let location = declared.price.location
            found.add(at: location) {
                // Built only for a finding that is kept (most of a million are only counted).
                let (below, above) = ladder.neighbours(of: amount)
                let nearest = [below, above].compactMap { $0 }.map { join.shown($0.price, in: declared.territory) }
                return
                description.finding(
                    "\(declared.isOffer ? "an offer of " : "")\(Quote.bounded(declared.product.id)) costs \(join.shown(amount, in: declared.territory)) in \(declared.territory), which is not an "
                        + "App Store Connect \(kind) price point there (\(join.path))"
                        + (nearest.isEmpty ? "" : "; the nearest are \(nearest.joined(separator: " and "))"),
                    at: location, fix: SuggestedFix(nearest.isEmpty ? "choose a price App Store Connect has in \(declared.territory)"
                                                    : "choose \(nearest.joined(separator: " or "))"))
            }
        }
    }
}
