import Diagnostics
import IAPCatalog

/// `asc-extra-product`: App Store Connect has a product no catalog file lists.
public enum ASCExtraProductRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-extra-product", name: "Product only in App Store Connect", severity: .info,
        rationale: "A product App Store Connect sells that the catalog does not list is one the app never asks for: a retired product (list it in RetiredProductIDs.plist), or one the catalog forgot.",
        triggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"),
                                                                          .purchase("com.acme.app.coins", type: "CONSUMABLE", marked: true)])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro", "com.acme.app.coins"],
                                         remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"), .purchase("com.acme.app.coins", type: "CONSUMABLE")])])

    /// Each product of the snapshot in no catalog file and not retired, once, at its snapshot line.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        var listed = Set(join.catalog.products.map(\.id))
        for (id, _) in join.remotes where !listed.contains(id) && join.catalog.retiredIDs[id] == nil {
            listed.insert(id)
            let there = join.location(of: id)
            found.add(at: there) {
                description.finding(
                    "\(Quote.escaped(id)) is in App Store Connect (app \(join.appName)) but in no catalog file: the app never asks for it",
                    at: there, fix: SuggestedFix("add it to the catalog, or list it in RetiredProductIDs.plist if it is retired"))
            }
        }
    }
}
