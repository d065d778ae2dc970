import Diagnostics
import IAPCatalog

/// `asc-missing-product`: a product of the catalog that App Store Connect does not have.
public enum ASCMissingProductRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-missing-product", name: "Product missing from App Store Connect", severity: .error,
        rationale: "StoreKit answers a product request only with products App Store Connect has: an ID the app asks for that App Store Connect lacks is left out of the response without an error, and the paywall shows nothing — often at App Review.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.coins", "com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])])

    /// It says why App Store Connect has no such product: `iap asc ready` reports it.
    static let saysWhyNotServed = true

    /// Each product of the catalog that the snapshot lacks, at its catalog line.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        let bundle = join.snapshot.app.bundleId ?? join.catalog.bundleID?.value
        for product in join.catalog.products where join.byID[product.id] == nil {
            let here = product.location
            // The same product under the app's bundle prefix, or without it: the likelier mistake.
            if let other = DriftCheck.bundlePrefixVariant(of: product.id, bundle: bundle), join.byID[other] != nil {
                let with = other.count > product.id.count ? "with" : "without"
                found.add(at: here) {
                    description.finding(
                        "\(Quote.bounded(product.id)) is not in App Store Connect (app \(join.appName)), which has \(Quote.bounded(other)), \(with) the app's "
                            + "bundle prefix (\(join.location(of: other))): a product request for \(Quote.bounded(product.id)) returns nothing",
                        at: here, related: [RelatedLocation(join.location(of: other), "in App Store Connect")],
                        fix: SuggestedFix("write \(Quote.bounded(other)) in the catalog and the code, the ID App Store Connect has"))
                }
                continue
            }
            found.add(at: here) {
                description.finding(
                    "\(Quote.bounded(product.id)) is not in App Store Connect (app \(join.appName), \(join.path)): a product request for it returns nothing",
                    at: here, fix: SuggestedFix("create it in App Store Connect, or remove it from the catalog"))
            }
        }
    }
}
