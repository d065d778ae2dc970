import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog

/// `price-far-from-equalization`: a storefront's own price far from what Apple's equalization of
/// the product's base price gives there.
public enum PriceFarFromEqualizationRule: PricePointRule {
    public static let description = RuleDescription(
        id: "price-far-from-equalization", name: "Storefront price far from Apple's equalization", severity: .warning, defaultLimit: 25,
        rationale: "App Store Connect equalizes a base price into every other territory, by exchange rates and taxes. A price set by hand in one storefront that is far from that equalization (by more than the limit, 25% unless iap.yml's rules.price-far-from-equalization.limit says another percentage) is often a stale price or a currency mix-up (a GBP price written where EUR was meant); a deliberate purchasing-power price can be baselined. Needs the equalization of the base price in the price-points file (the pull takes one for each price in its storefront).",
        triggering: [PriceExample.priced("com.acme.app.pro", "<key>kind</key><string>non-consumable</string>",
                                         "<key>price</key><string>4.99</string>", "<key>currency</key><string>USD</string>",
                                         "<key>prices</key><dict>↓<key>JPN</key><string>150</string></dict>")],
        nonTriggering: [PriceExample.priced("com.acme.app.pro", "<key>kind</key><string>non-consumable</string>",
                                            "<key>price</key><string>4.99</string>", "<key>currency</key><string>USD</string>",
                                            "<key>prices</key><dict><key>JPN</key><string>750</string></dict>")])

    static func check(_ join: PriceJoin, into found: inout FindingCollector) {
        let limit = Decimal(join.limits[description.id] ?? description.defaultLimit ?? 25)
        for declared in join.declared {
            guard let base = declared.base,
                  let equalization = join.points.equalization(declared.kind, territory: base.territory, price: base.price),
                  let equalized = equalization.prices[declared.territory], equalized > 0 else { continue }
            let amount = declared.price.value.amount
            var off = (amount - equalized) / equalized * 100
            if off < 0 { off = -off }
            guard off > limit else { continue }
            var rounded = Decimal()
            NSDecimalRound(&rounded, &off, 0, .plain)
            let location = declared.price.location
            let direction = amount > equalized ? "above" : "below"
            found.add(at: location) {
                description.finding(
                    "\(Quote.bounded(declared.product.id)) costs \(join.shown(amount, in: declared.territory)) in \(declared.territory), \(rounded)% \(direction) "
                        + "\(join.shown(equalized, in: declared.territory)), Apple's equalization of its base price "
                        + "\(join.shown(base.price, in: base.territory)) in \(base.territory) (\(join.path))",
                    at: location, fix: SuggestedFix("use \(join.shown(equalized, in: declared.territory)), or keep the price and baseline this finding if it is meant"))
            }
        }
    }
}
