import Diagnostics

/// `asc-extra-product`: App Store Connect has a product no catalog file lists.
public enum ASCExtraProductRule: Rule {
    public static let description = RuleDescription(
        id: "asc-extra-product", name: "Product only in App Store Connect", severity: .info,
        rationale: "A product App Store Connect sells that the catalog does not list is one the app never asks for: a retired product (list it in RetiredProductIDs.plist), or one the catalog forgot.",
        triggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"),
                                                                          .purchase("com.acme.app.coins", type: "CONSUMABLE", marked: true)])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro", "com.acme.app.coins"],
                                         remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"), .purchase("com.acme.app.coins", type: "CONSUMABLE")])])
}
