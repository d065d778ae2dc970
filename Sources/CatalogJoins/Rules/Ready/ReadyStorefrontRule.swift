import Diagnostics
import IAPCatalog

/// `ready-storefront`: App Store Connect would serve the product, but not in a storefront asked
/// about: it is not for sale there, or has no price there.
public enum ReadyStorefrontRule: ReadinessRule {
    public static let description = RuleDescription(
        id: "ready-storefront", name: "Product not for sale in a storefront", severity: .warning,
        rationale: "The App Store returns a product only where it is for sale: in a territory of its availability, with a price there. A product with no availability at all is for sale nowhere. The territories are in a snapshot pulled with --availability, the prices in one pulled with --all-storefronts (or --storefront, for that storefront); a product App Store Connect withholds altogether is asc-product-not-ready instead.",
        triggering: [ASCExample.ready(ids: ["↓com.acme.app.pro"], remote: [.forSale("com.acme.app.pro", territories: ["CAN", "GBR"], price: "4.99")])],
        nonTriggering: [ASCExample.ready(ids: ["com.acme.app.pro"], remote: [.forSale("com.acme.app.pro", territories: ["CAN", "USA"], price: "4.99")])])

    static func check(_ join: ReadinessJoin, into found: inout FindingCollector) {
        for id in join.ids {
            guard let remote = join.remoteByID[id], let state = remote.state,
                  state == "APPROVED" || ReadinessJoin.awaitingReview.contains(state) else { continue }
            let here = join.location(of: id)
            let there = join.drift.location(of: id)
            var causes: [(String, String)] = []
            if let review = remote.review, review.availability == nil {
                causes.append(("is for sale in no territory in App Store Connect (\(there)): it has no availability, so no App Store returns it",
                               "set its availability (Availability, in the product's page) in App Store Connect, then pull again"))
            } else {
                var notForSale: [String] = []
                var unpriced: [String] = []
                for storefront in join.storefronts {
                    if let territories = remote.territories, !territories.contains(storefront) {
                        notForSale.append(storefront)
                    } else if join.priced(remote, in: storefront) == false {
                        unpriced.append(storefront)
                    }
                }
                if !notForSale.isEmpty {
                    let them = notForSale.count == 1 ? notForSale[0] : "them"
                    causes.append(("is not for sale in \(DriftCheck.sentence(notForSale)) in App Store Connect (\(there)): its availability leaves \(them) out, so the App Store there does not return it",
                                   "add \(them) to its availability in App Store Connect, or leave \(them) out of the storefronts asked about"))
                }
                if !unpriced.isEmpty {
                    causes.append(("has no price in \(DriftCheck.sentence(unpriced)) in App Store Connect (\(there)), so the App Store there does not return it",
                                   "give it a price in \(unpriced.count == 1 ? unpriced[0] : "them") in App Store Connect, then pull again"))
                }
            }
            for (why, fix) in causes {
                found.add(at: here) {
                    description.finding("\(Quote.bounded(id)) \(why)", at: here, related: [RelatedLocation(there, "in App Store Connect")], fix: SuggestedFix(fix))
                }
            }
        }
    }

}
