import Diagnostics

public struct SubscriptionWithoutGroupRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "subscription-without-group", name: "Subscription without a group", severity: .error,
        rationale: "Every auto-renewable subscription belongs to a subscription group in App Store Connect; without one it cannot be created.",
        triggering: [.metadata("\t\t↓<key>com.acme.app.monthly</key>\n\t\t<dict><key>kind</key><string>auto-renewable</string><key>subscriptionPeriod</key><string>P1M</string></dict>")],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>"))])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products where product.kind == .autoRenewable && product.hasMetadataSource && product.metadata.subscriptionGroup == nil {
            found.add(at: product.location) {
                finding("auto-renewable subscription \(Quote.bounded(product.id)) has no subscription group", at: product.location,
                        fix: SuggestedFix("add subscriptionGroup to its metadata"))
            }
        }
    }
}
