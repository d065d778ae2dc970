import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog

/// `asc-missing-product`: a product of the catalog that App Store Connect does not have.
public struct ASCMissingProductRule: Rule {
    public static let description = RuleDescription(
        id: "asc-missing-product", name: "Product missing from App Store Connect", severity: .error,
        rationale: "StoreKit answers a product request only with products App Store Connect has: an ID the app asks for that App Store Connect lacks is left out of the response without an error, and the paywall shows nothing — often at App Review.",
        triggering: [ASCExample.drift(ids: ["↓com.acme.app.coins", "com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])])
}

/// `asc-product-not-ready`: App Store Connect has the product in a state StoreKit does not serve.
public struct ASCProductNotReadyRule: Rule {
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
}

/// `asc-drift`: the catalog and App Store Connect describe a product differently.
public struct ASCDriftRule: Rule {
    public static let description = RuleDescription(
        id: "asc-drift", name: "Catalog differs from App Store Connect", severity: .warning,
        rationale: "What App Store Connect holds is what StoreKit serves: a kind, subscription period, group, level, family-sharing flag or localized text that differs from the catalog means the paywall, the generated constants or the StoreKit test configuration describe a product the store does not sell. The message names the field and both places.",
        triggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro", marked: true),
                                      remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_YEAR")])],
        nonTriggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro"),
                                         remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_MONTH")])])
}

/// `asc-extra-product`: App Store Connect has a product no catalog file lists.
public struct ASCExtraProductRule: Rule {
    public static let description = RuleDescription(
        id: "asc-extra-product", name: "Product only in App Store Connect", severity: .info,
        rationale: "A product App Store Connect sells that the catalog does not list is one the app never asks for: a retired product (list it in RetiredProductIDs.plist), or one the catalog forgot.",
        triggering: [ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"),
                                                                          .purchase("com.acme.app.coins", type: "CONSUMABLE", marked: true)])],
        nonTriggering: [ASCExample.drift(ids: ["com.acme.app.pro", "com.acme.app.coins"],
                                         remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE"), .purchase("com.acme.app.coins", type: "CONSUMABLE")])])
}

/// The drift rules, in the order `iap rules` lists them.
public enum ASCRules {
    public static let all: [RuleDescription] = [
        ASCMissingProductRule.description, ASCProductNotReadyRule.description, ASCDriftRule.description, ASCExtraProductRule.description,
    ]
}

/// Examples of the drift rules: catalog files and the snapshot they are compared with, in a file
/// named `snapshotName`.
public enum ASCExample {
    public static let snapshotName = "asc-snapshot.json"

    public enum Remote {
        case purchase(String, type: String, state: String = "APPROVED", marked: Bool = false)
        case subscription(String, group: String, period: String, level: Int = 1, state: String = "APPROVED")
    }

    static func drift(ids: [String] = [], metadata: String? = nil, remote: [Remote]) -> RuleExample {
        var files: [ExampleFile] = []
        if !ids.isEmpty { files.append(ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(ids))) }
        if let metadata { files.append(ExampleFile("Metadata.plist", RuleExample.metadataPlist(metadata))) }
        var purchases: [ASCSnapshot.InAppPurchase] = []
        var groups: [String: [ASCSnapshot.Subscription]] = [:]
        var marked: String?
        for (n, item) in remote.enumerated() {
            switch item {
            case .purchase(let id, let type, let state, let mark):
                purchases.append(ASCSnapshot.InAppPurchase(productId: id, id: "\(6_450_000_000 + n)", name: id.split(separator: ".").last.map(String.init),
                                                           type: type, state: state, familySharable: false, localizations: []))
                if mark { marked = id }
            case .subscription(let id, let group, let period, let level, let state):
                groups[group, default: []].append(ASCSnapshot.Subscription(
                    productId: id, id: "\(6_450_000_000 + n)", name: id.split(separator: ".").last.map(String.init), state: state, period: period,
                    groupLevel: level, familySharable: false, localizations: []))
            }
        }
        let snapshot = ASCSnapshot(app: ASCSnapshot.App(id: "6450000000", bundleId: "com.acme.app", name: "Acme"), inAppPurchases: purchases,
                                   subscriptionGroups: groups.sorted { $0.key < $1.key }.enumerated().map {
                                       ASCSnapshot.SubscriptionGroup(id: "2100000\($0.offset)", referenceName: $0.element.key, subscriptions: $0.element.value)
                                   })
        var text = snapshot.encoded()
        if let marked, let range = text.range(of: "\"productId\" : \"\(marked)\"") {
            text.insert("↓", at: range.lowerBound)
        }
        files.append(ExampleFile(snapshotName, text))
        return RuleExample(files, bundleID: "com.acme.app")
    }

    static func product(_ id: String, kind: String, period: String, group: String, marked: Bool = false) -> String {
        "\t\t\(marked ? "↓" : "")<key>\(id)</key>\n\t\t<dict>\n\t\t\t<key>kind</key><string>\(kind)</string>\n"
            + "\t\t\t<key>subscriptionPeriod</key><string>\(period)</string>\n\t\t\t<key>subscriptionGroup</key><string>\(group)</string>\n\t\t</dict>"
    }
}
