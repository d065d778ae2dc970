import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

/// Examples of the drift rules: catalog files and the snapshot they are compared with, in a file
/// named `snapshotName`.
public enum ASCExample {
    public static let snapshotName = "asc-snapshot.json"

    public static let codeName = "Store.swift"

    public enum Remote {
        case purchase(String, type: String, state: String = "APPROVED", marked: Bool = false)
        case subscription(String, group: String, period: String, level: Int = 1, state: String = "APPROVED")
        /// An in-app purchase for sale in `territories` (nil: none pulled) with a price (or none) in
        /// the snapshot's storefront, USA, and (`pricedIn`, nil: not pulled) 4.99 in each of those
        /// territories, in its currency.
        case forSale(String, state: String = "APPROVED", territories: [String]?, price: String?, pricedIn: [String]? = nil, marked: Bool = false)
    }

    /// A readiness example: `code` (Swift, the app's `Store.swift`) beside the catalog and the
    /// snapshot, whose storefront is USA when a product has a price.
    public static func ready(code: String? = nil, ids: [String] = [], remote: [Remote]) -> RuleExample {
        var example = drift(ids: ids, remote: remote)
        if let code { example.files.insert(ExampleFile(codeName, code), at: 0) }
        return example
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
            case .forSale(let id, let state, let territories, let price, let pricedIn, let mark):
                let review = ASCSnapshot.Review(screenshot: true, availability: ASCSnapshot.Availability(
                    id: "\(7_450_000_000 + n)", availableInNewTerritories: true, territories: territories))
                purchases.append(ASCSnapshot.InAppPurchase(productId: id, id: "\(6_450_000_000 + n)", name: id.split(separator: ".").last.map(String.init),
                                                           type: "NON_CONSUMABLE", state: state, familySharable: false,
                                                           localizations: [ASCSnapshot.Localization(locale: "en-US", name: "Pro", description: "All of it", state: state)],
                                                           price: price.map { ASCSnapshot.Price(amount: $0, currency: "USD") },
                                                           prices: pricedIn.map { territories in
                                                               ASCSnapshot.TerritoryPrices(Dictionary(uniqueKeysWithValues: territories.map {
                                                                   ($0, ASCSnapshot.Price(amount: "4.99", currency: (try? Storefronts.find($0).currency) ?? "USD"))
                                                               }))
                                                           }, review: review))
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
        var priced = snapshot
        if remote.contains(where: { if case .forSale = $0 { true } else { false } }) { priced.storefront = "USA" }
        var text = priced.encoded()
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
