import Diagnostics
import IAPCatalog

/// `asc-unpriced-territory`: App Store Connect has the product for sale in territories where it
/// has no price, so the App Store there does not return it.
public enum ASCUnpricedTerritoryRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-unpriced-territory", name: "For sale where it has no price", severity: .warning,
        rationale: "A product is sold in a territory only with a price there. Its availability can list territories its prices leave out — a subscription whose prices were set for some territories, a territory added to the availability afterwards — and the App Store in those territories returns nothing for it, without an error. Needs a snapshot pulled with --availability and --all-storefronts; a product App Store Connect withholds anyway (missing metadata, rejected, removed from sale) is asc-product-not-ready's.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.pro"], remote: [.forSale("com.acme.app.pro", territories: ["CAN", "GBR", "USA"], price: "4.99", pricedIn: ["CAN", "USA"])])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.forSale("com.acme.app.pro", territories: ["CAN", "GBR", "USA"], price: "4.99", pricedIn: ["CAN", "GBR", "USA"])])])

    /// Each catalog product App Store Connect serves or is reviewing, whose availability's
    /// territories its prices leave out.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        for product in join.catalog.products {
            guard let remote = join.byID[product.id], let state = remote.state, DriftCheck.notServed[state] == nil,
                  let territories = remote.review?.availability?.territories, let prices = remote.prices else { continue }
            let unpriced = territories.filter { prices[$0] == nil }.sorted()
            guard !unpriced.isEmpty else { continue }
            let here = product.location
            let there = join.location(of: product.id)
            let them = unpriced.count == 1 ? unpriced[0] : "them"
            found.add(at: here) {
                description.finding(
                    "\(Quote.bounded(product.id)) is for sale in \(DriftCheck.sentence(unpriced)) with no price there in App Store Connect (\(there)), "
                        + "so the App Store there does not return it (\(unpriced.count) of the \(territories.count) territories of its availability)",
                    at: here, related: [RelatedLocation(there, "in App Store Connect")],
                    fix: SuggestedFix("give it a price in \(them) in App Store Connect (its prices, or its price schedule's base territory), or take \(them) out of its availability; then pull again"))
            }
        }
    }
}
