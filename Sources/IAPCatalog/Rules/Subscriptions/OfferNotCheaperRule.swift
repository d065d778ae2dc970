import Diagnostics
import Foundation
import PriceFormatting

/// `offer-not-cheaper`: an introductory or promotional offer that costs as much as the
/// subscription's regular price for the same time, or more.
public struct OfferNotCheaperRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "offer-not-cheaper", name: "Offer not cheaper than the regular price", severity: .warning,
        rationale: "An introductory or promotional offer exists to cost less than the subscription: one that costs the regular price or more for the same time (a pay-as-you-go month at 2.99 on a 2.99 monthly subscription, three months paid up front at 9.99 on a 2.99 monthly one) is a typo or a price left from an earlier plan, and App Store Connect takes it. Compared when the offer's time is a whole number of the subscription's periods, in the product's currency.",
        triggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>price</key><string>2.99</string>", "<key>currency</key><string>USD</string>", "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>pay-up-front</string><key>period</key><string>P3M</string><key>price</key><string>9.99</string></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>price</key><string>2.99</string>", "<key>currency</key><string>USD</string>", "<key>introductoryOffer</key><dict><key>paymentMode</key><string>pay-up-front</string><key>period</key><string>P3M</string><key>price</key><string>6.99</string></dict>"))])

    /// How many of `period` the offer's time `span` is, when a whole number (P3M of P1M: 3; P1W of P1M: nil).
    static func count(_ span: SubscriptionPeriod, of period: SubscriptionPeriod) -> Int? {
        func days(_ p: SubscriptionPeriod) -> Int? { p.unit == .day ? p.value : (p.unit == .week ? p.value * 7 : nil) }
        if let a = span.months, let b = period.months, b > 0, a % b == 0 { return a / b }
        if let a = days(span), let b = days(period), b > 0, a % b == 0 { return a / b }
        return nil
    }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            let metadata = product.metadata
            guard let regular = metadata.price?.value, let period = metadata.subscriptionPeriod?.value else { continue }
            var offers: [(what: String, mode: PaymentMode, period: SubscriptionPeriod, periods: Int, price: Decimal?, location: SourceLocation)] = []
            if let intro = metadata.introductoryOffer {
                offers.append(("introductory offer", intro.paymentMode, intro.period, intro.numberOfPeriods, intro.price, intro.location))
            }
            for promo in metadata.promotionalOffers {
                offers.append(("promotional offer \(Quote.bounded(promo.id))", promo.paymentMode, promo.period, promo.numberOfPeriods, promo.price, promo.location))
            }
            for offer in offers {
                guard let price = offer.price, offer.mode != .freeTrial else { continue }
                // Pay as you go: each offer period; paid up front: the whole offer.
                let span = offer.mode == .payUpFront ? offer.period.times(offer.periods) : offer.period
                guard let span, let count = Self.count(span, of: period), count > 0 else { continue }
                let same = regular.amount * Decimal(count)
                guard price >= same else { continue }
                let each = offer.mode == .payUpFront ? "for \(span)" : "each \(span)"
                let regularText = count == 1 ? "\(regular.amountText) every \(period)" : "\(count) × \(regular.amountText) = \(same) for \(span)"
                found.add(at: offer.location) {
                    finding("the \(offer.what) of \(Quote.bounded(product.id)) costs \(price) \(each), not less than the regular price (\(regularText))",
                            at: offer.location, fix: SuggestedFix("lower the offer's price, or make it a free trial"))
                }
            }
        }
    }
}
