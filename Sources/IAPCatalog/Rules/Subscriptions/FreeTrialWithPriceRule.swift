import Diagnostics

public struct FreeTrialWithPriceRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "free-trial-with-price", name: "Free trial with a price", severity: .warning,
        rationale: "A free trial costs nothing; a price left on it (Xcode keeps the last one typed) is shown in tests and reports as if it were charged.",
        triggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string><key>price</key><string>0.99</string></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key><dict><key>paymentMode</key><string>pay-as-you-go</string><key>period</key><string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>0.99</string></dict>"))])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            guard let offer = product.metadata.introductoryOffer, offer.paymentMode == .freeTrial,
                  let price = offer.price, price != 0 else { continue }
            found.add(at: offer.location) {
                finding("free-trial offer of \(Quote.bounded(product.id)) carries a price (\(price)); a free trial is free", at: offer.location,
                        fix: SuggestedFix("remove the price, or make it a pay-as-you-go or pay-up-front offer"))
            }
        }
    }
}
