import Diagnostics

/// `asc-missing-product`: a product of the catalog that App Store Connect does not have.
public enum ASCMissingProductRule: Rule {
    public static let description = RuleDescription(
        id: "asc-missing-product", name: "Product missing from App Store Connect", severity: .error,
        rationale: "StoreKit answers a product request only with products App Store Connect has: an ID the app asks for that App Store Connect lacks is left out of the response without an error, and the paywall shows nothing — often at App Review.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.coins", "com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])])
}
