import Diagnostics

public struct UnknownSubscriptionPeriodRule: CatalogRule, Rule {
    /// Billing periods App Store Connect offers for auto-renewable subscriptions.
    static let billingPeriods: Set<String> = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    /// Durations App Store Connect offers for introductory offers.
    static let offerPeriods: Set<String> = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    public static let description = RuleDescription(
        id: "unknown-subscription-period", name: "Unknown subscription period", severity: .error,
        rationale: "App Store Connect offers billing periods P1W, P1M, P2M, P3M, P6M and P1Y, and offer durations from P3D to P1Y; anything else cannot be configured.",
        triggering: [
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P5W</string>")),
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P10D</string></dict>")),
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>promotionalOffers</key><array>↓<dict><key>id</key><string>winback</string><key>paymentMode</key><string>pay-up-front</string><key>period</key><string>P4M</string><key>price</key><string>4.99</string></dict></array>")),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key><dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string></dict>"))])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            if let period = product.metadata.subscriptionPeriod, !Self.billingPeriods.contains(period.value.description) {
                found.add(at: period.location) {
                    finding("subscription period '\(period.value)' of \(Quote.bounded(product.id)) is not one App Store Connect offers (\(Self.billingPeriods.sorted().joined(separator: ", ")))",
                            at: period.location)
                }
            }
            if let offer = product.metadata.introductoryOffer, !Self.offerPeriods.contains(offer.period.description) {
                found.add(at: offer.location) {
                    finding("introductory offer period '\(offer.period)' of \(Quote.bounded(product.id)) is not one App Store Connect offers",
                            at: offer.location)
                }
            }
            for offer in product.metadata.promotionalOffers where !Self.offerPeriods.contains(offer.period.description) {
                found.add(at: offer.location) {
                    finding("promotional offer \(Quote.bounded(offer.id)) of \(Quote.bounded(product.id)) has period '\(offer.period)', not one App Store Connect offers",
                            at: offer.location)
                }
            }
        }
    }
}
