import Diagnostics
import PriceFormatting

public struct PriceInLocalizationRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "price-in-localization", name: "Price in a name or description", severity: .warning,
        rationale: "A price written into a display name or description is wrong in every other storefront and after every price change; StoreKit shows the real price beside it.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins for $0.99", description: "A bag of coins"),
                     storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "Only 0,99 € today")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "100 Coins", description: "Save 50% on coins", marked: false)])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        textFindings(catalog, into: &found) { text in
            PricePattern.firstMatch(in: text).map { ("shows a price (\(Quote.bounded($0)))", SuggestedFix("remove the price: the App Store shows each storefront's own")) }
        }
    }
}
