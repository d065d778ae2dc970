import Diagnostics

public struct SubscriptionWithoutGroupRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "subscription-without-group", name: "Subscription without a group", severity: .error,
        rationale: "Every auto-renewable subscription belongs to a subscription group in App Store Connect; without one it cannot be created.",
        triggering: [.metadata("\t\t↓<key>com.acme.app.monthly</key>\n\t\t<dict><key>kind</key><string>auto-renewable</string><key>subscriptionPeriod</key><string>P1M</string></dict>")],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>"))])

    public func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.filter { $0.kind == .autoRenewable && $0.hasMetadataSource && $0.metadata.subscriptionGroup == nil }.map {
            finding("auto-renewable subscription \(Quote.bounded($0.id)) has no subscription group", at: $0.location,
                    fix: SuggestedFix("add subscriptionGroup to its metadata"))
        }
    }
}
