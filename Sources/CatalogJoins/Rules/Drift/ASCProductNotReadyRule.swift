import Diagnostics
import IAPCatalog

/// `asc-product-not-ready`: App Store Connect has the product in a state StoreKit does not serve.
public enum ASCProductNotReadyRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-product-not-ready", name: "Product not ready in App Store Connect", severity: .warning,
        rationale: "A product whose metadata is missing, that needs developer action, was rejected, or was removed from sale is not returned by a product request (in the sandbox too), so the app sees an empty or partial list.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE", state: "MISSING_METADATA")])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE", state: "READY_TO_SUBMIT")])])

    /// The states in which App Store Connect holds a product StoreKit does not return.
    public static let notServed: [String: String] = [
        "MISSING_METADATA": "its metadata is incomplete (a localization, a price or the review screenshot is missing)",
        "WAITING_FOR_UPLOAD": "its hosted content is not uploaded",
        "DEVELOPER_ACTION_NEEDED": "App Review asked for a change",
        "REJECTED": "App Review rejected it",
        "DEVELOPER_REMOVED_FROM_SALE": "it was removed from sale",
        "REMOVED_FROM_SALE": "it was removed from sale",
    ]

    /// Each product of the catalog that the snapshot holds in a state of `notServed`.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        for product in join.catalog.products {
            guard let remote = join.byID[product.id], let state = remote.state, let why = notServed[state] else { continue }
            let here = product.location
            let there = join.location(of: product.id)
            found.add(at: here) {
                description.finding(
                    "\(Quote.bounded(product.id)) is \(state) in App Store Connect (\(there)): \(why), so StoreKit does not return it",
                    at: here, related: [RelatedLocation(there, "App Store Connect's state")],
                    fix: SuggestedFix("complete or resubmit the product in App Store Connect, then pull the snapshot again"))
            }
        }
    }
}
