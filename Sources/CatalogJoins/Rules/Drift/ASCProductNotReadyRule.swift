import Diagnostics
import IAPCatalog

/// `asc-product-not-ready`: App Store Connect has the product in a state StoreKit does not serve.
public enum ASCProductNotReadyRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-product-not-ready", name: "Product not ready in App Store Connect", severity: .warning,
        rationale: "A product whose metadata is missing, that needs developer action, was rejected, or was removed from sale is not returned by a product request (in the sandbox too), so the app sees an empty or partial list.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE", state: "MISSING_METADATA")])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE", state: "READY_TO_SUBMIT")])])

    /// It says why App Store Connect withholds a product: `iap asc ready` reports it.
    static let saysWhyNotServed = true

    /// What a product App Store Connect holds as missing metadata lacks, as far as the snapshot
    /// shows (a snapshot pulled by an older `iap` shows only the localizations); empty when it
    /// shows nothing missing.
    static func missingPieces(_ remote: DriftCheck.Remote, storefront: String?) -> [String] {
        var pieces: [String] = []
        if remote.localizations.isEmpty { pieces.append("no localization") }
        if remote.review?.screenshot == false { pieces.append("no App Store review screenshot") }
        if let review = remote.review, review.availability == nil { pieces.append("no availability") }
        if remote.prices?.isEmpty == true {
            pieces.append("no price in any territory")
        } else if let storefront, remote.price == nil {
            pieces.append("no price in \(storefront)")
        }
        if remote.groupLocalizations?.isEmpty == true { pieces.append("its group \(Quote.bounded(remote.group ?? "?")) has no localization") }
        return pieces
    }

    /// Each product of the catalog that the snapshot holds in a state of `notServed`.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        for product in join.catalog.products {
            guard let remote = join.byID[product.id], let state = remote.state, var why = DriftCheck.notServed[state] else { continue }
            let pieces = state == "MISSING_METADATA" ? missingPieces(remote, storefront: join.snapshot.storefront) : []
            if !pieces.isEmpty { why = "its metadata is incomplete: " + pieces.joined(separator: ", ") }
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
