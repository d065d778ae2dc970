import AppStoreConnect
import Foundation
import Diagnostics
import IAPCatalog

/// A readiness rule: its description, and its check over the catalog, the code's requests and
/// the snapshot side by side. `Readiness` runs each rule `ReadinessRules.rules` lists.
protocol ReadinessRule: Rule {
    static func check(_ join: ReadinessJoin, into found: inout FindingCollector)
    /// Whether `iap check` runs it: not when lint, in the same run, reports the same place.
    static var runsInCheck: Bool { get }
}

extension ReadinessRule {
    static var runsInCheck: Bool { true }
}

/// The catalog, the product IDs the code asks for and the snapshot, side by side: what every
/// readiness rule reads, and the verdicts.
struct ReadinessJoin: Sendable {
    let catalog: Catalog
    let drift: DriftCheck
    let requests: [CodeRequest]
    /// The storefronts the App Store verdicts are for (none: the App Store anywhere).
    let storefronts: [String]
    let catalogByID: [String: Product]
    /// The product IDs of the StoreKit configurations Xcode runs the app with: the `.storekit`
    /// files a shared scheme names, else all the catalog's; nil when it has none.
    let storeKitIDs: Set<String>?
    /// Why a product is not in them, naming the scheme's file when a scheme names one.
    private let notInStoreKit: String
    /// Every product ID: the catalog's in its order, then those only the code asks for.
    let ids: [String]
    let remoteByID: [String: RemoteProduct]
    /// Each verdict's words, made once: a table of 10,000 products by 175 storefronts holds
    /// 1.75 million verdicts, which share these instead of a string each.
    private let words: Words

    private struct Words {
        let availabilityNotPulled = "availability not pulled (iap asc pull --availability)"
        let pricesElsewhere: String
        let nowhere = "for sale in no territory"
        var notAvailable: [String: String] = [:]
        var noPrice: [String: String] = [:]

        init(_ snapshot: ASCSnapshot, storefronts: [String]) {
            pricesElsewhere = snapshot.storefront.map { "prices pulled for \($0) only (iap asc pull --all-storefronts)" }
                ?? "no prices pulled (iap asc pull --all-storefronts)"
            for storefront in storefronts {
                notAvailable[storefront] = "not available in \(storefront)"
                noPrice[storefront] = "no price in \(storefront)"
            }
        }
    }

    /// A product as App Store Connect holds it, with what readiness reads.
    struct RemoteProduct: Sendable {
        var state: String?
        var localizations: [ASCSnapshot.Localization]
        var price: ASCSnapshot.Price?
        /// The price in each territory that has one; nil when not pulled (`--all-storefronts`).
        var prices: [String: ASCSnapshot.Price]?
        var review: ASCSnapshot.Review?
        /// The availability's territories as a set (a verdict per storefront asks each of 175).
        var territories: Set<String>?
        /// For a subscription: its group's name, its localizations, and whether another
        /// subscription of the group is approved (a group's first one ships with an app version).
        var group: (name: String?, localizations: [ASCSnapshot.GroupLocalization]?, approved: Bool)?
    }

    /// The states in which the sandbox serves a product the App Store does not yet: it waits for
    /// App Review, or for the developer to submit or release it.
    static let awaitingReview: Set<String> = ["READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL"]

    init(catalog: Catalog, drift: DriftCheck, requests: [CodeRequest], storefronts: [String]) {
        self.catalog = catalog
        self.drift = drift
        self.requests = requests
        self.storefronts = storefronts
        var byID: [String: Product] = [:]
        for product in catalog.products where byID[product.id] == nil { byID[product.id] = product }
        catalogByID = byID
        let storeKitFiles = catalog.files.filter { if case .storeKit = $0.content { true } else { false } }
        // The configuration a shared scheme runs with, when one names it; else every `.storekit` file.
        let run = storeKitFiles.filter { !$0.runBySchemes.isEmpty }
        let configurations = Set((run.isEmpty ? storeKitFiles : run).map(\.path))
        storeKitIDs = storeKitFiles.isEmpty ? nil : Set(catalog.products.filter {
            $0.occurrences.contains { $0.role == .storeKit && configurations.contains($0.location.path) }
        }.map(\.id))
        notInStoreKit = run.isEmpty ? "not in the StoreKit configuration"
            : "not in the StoreKit configuration the scheme runs (\(run.map { ($0.path as NSString).lastPathComponent }.joined(separator: ", ")))"
        var seen = Set(catalog.products.map(\.id))
        var ids = catalog.products.map(\.id)
        for request in requests where seen.insert(request.id).inserted { ids.append(request.id) }
        self.ids = ids
        let snapshot = drift.snapshot
        var remotes: [String: RemoteProduct] = [:]
        for p in snapshot.inAppPurchases where remotes[p.productId] == nil {
            remotes[p.productId] = RemoteProduct(state: p.state, localizations: p.localizations, price: p.price, prices: p.prices?.byTerritory, review: p.review,
                                                 territories: p.review?.availability?.territories.map(Set.init))
        }
        for g in snapshot.subscriptionGroups {
            let approved = g.subscriptions.contains { $0.state == "APPROVED" }
            for s in g.subscriptions where remotes[s.productId] == nil {
                remotes[s.productId] = RemoteProduct(state: s.state, localizations: s.localizations, price: s.price, prices: s.prices?.byTerritory, review: s.review,
                                                     territories: s.review?.availability?.territories.map(Set.init),
                                                     group: (g.referenceName, g.localizations, approved))
            }
        }
        remoteByID = remotes
        words = Words(snapshot, storefronts: storefronts)
    }

    var snapshot: ASCSnapshot { drift.snapshot }
    var appName: String { drift.appName }

    /// Each ID the code asks for, at the first place it does, with how many other places ask.
    var firstRequests: [(request: CodeRequest, more: Int)] {
        var index: [String: Int] = [:]
        var out: [(request: CodeRequest, more: Int)] = []
        for request in requests {
            if let at = index[request.id] { out[at].more += 1 } else {
                index[request.id] = out.count
                out.append((request, 0))
            }
        }
        return out
    }

    /// Where the app asks for `id`: the first code request, else the product list that lists it.
    func askedBy(_ id: String) -> SourceLocation? {
        if let request = requests.first(where: { $0.id == id }) { return request.location }
        return catalogByID[id]?.occurrences.first { $0.role == .productList }?.location
    }

    /// Where a finding about `id` goes: the catalog's line, else the first code line asking for it.
    func location(of id: String) -> SourceLocation {
        catalogByID[id]?.location ?? requests.first { $0.id == id }?.location ?? drift.location(of: id)
    }

    /// The ID App Store Connect has that differs from `id` only by the app's bundle prefix
    /// (`coins` for `com.acme.app.coins`, or the other way round).
    func prefixVariant(of id: String) -> String? {
        DriftCheck.bundlePrefixVariant(of: id, bundle: snapshot.app.bundleId ?? catalog.bundleID?.value).flatMap { remoteByID[$0] != nil ? $0 : nil }
    }

    func verdict(_ id: String, at place: Readiness.Place) -> Readiness.Verdict {
        switch place {
        case .storeKit:
            return storeKitIDs?.contains(id) == true ? .served : .notServed(notInStoreKit)
        case .sandbox:
            return sandboxVerdict(id)
        case .appStore(let storefront):
            let sandbox = sandboxVerdict(id)
            guard case .served = sandbox, let remote = remoteByID[id], let state = remote.state else { return sandbox }
            guard state == "APPROVED" else { return .notServed("\(state): not approved") }
            return storefrontVerdict(remote, storefront)
        }
    }

    private func sandboxVerdict(_ id: String) -> Readiness.Verdict {
        guard let remote = remoteByID[id] else {
            return .notServed(prefixVariant(of: id).map { "not in App Store Connect, which has \(Quote.bounded($0))" } ?? "not in App Store Connect")
        }
        guard let state = remote.state else { return .unknown("the snapshot gives no state") }
        if DriftCheck.notServed[state] != nil { return .notServed(state) }
        return state == "APPROVED" || Self.awaitingReview.contains(state) ? .served : .unknown("state \(state)")
    }

    /// An approved product in a storefront: for sale there, with a price there.
    func storefrontVerdict(_ remote: RemoteProduct, _ storefront: String?) -> Readiness.Verdict {
        if let review = remote.review, review.availability == nil { return .notServed(words.nowhere) }
        guard let storefront else { return .served }
        if let territories = remote.territories, !territories.contains(storefront) {
            return .notServed(words.notAvailable[storefront] ?? "not available in \(storefront)")
        }
        switch priced(remote, in: storefront) {
        case false?: return .notServed(words.noPrice[storefront] ?? "no price in \(storefront)")
        case true?: return remote.territories == nil ? .unknown(words.availabilityNotPulled) : .served
        case nil: return .unknown(remote.territories == nil ? words.availabilityNotPulled : words.pricesElsewhere)
        }
    }

    /// Whether the product has a price in `storefront`, as far as the snapshot tells: from its
    /// prices in every territory, else from the price in the snapshot's storefront; nil when the
    /// snapshot holds neither for it.
    func priced(_ remote: RemoteProduct, in storefront: String) -> Bool? {
        if let prices = remote.prices { return prices[storefront] != nil }
        if snapshot.storefront == storefront { return remote.price != nil }
        return nil
    }

    /// Every territory the snapshot names for a product — in an availability or with a price —
    /// sorted: the App Store columns of `--storefront all`.
    static func everyTerritory(in snapshot: ASCSnapshot) -> [String] {
        var found: Set<String> = []
        func add(_ review: ASCSnapshot.Review?, _ prices: ASCSnapshot.TerritoryPrices?) {
            found.formUnion(review?.availability?.territories ?? [])
            if let priced = prices?.byTerritory.keys { found.formUnion(priced) }
        }
        for p in snapshot.inAppPurchases { add(p.review, p.prices) }
        for g in snapshot.subscriptionGroups { for s in g.subscriptions { add(s.review, s.prices) } }
        return found.sorted()
    }
}
