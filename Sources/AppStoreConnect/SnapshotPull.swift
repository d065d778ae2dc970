import Foundation

/// Pulls an app's in-app purchases, subscription groups, subscriptions and their localizations
/// from App Store Connect in as few requests as its pagination allows: 200 resources a page, the
/// localizations included with their products (50 each; a product with more has them fetched).
public struct SnapshotPull {
    public static let pageSize = 200
    static let includedPerResource = 50

    /// The storefront (alpha-3 territory, `USA`) whose prices and introductory offers are pulled;
    /// nil pulls none (and saves the requests they take: two or three per product).
    public var storefront: String?
    /// The day whose prices count (a price scheduled to start later is not yet the price).
    public var today: String

    public init(storefront: String? = nil, today: Date = Date()) {
        self.storefront = storefront
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: today)
        self.today = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// `app`: a bundle ID (`com.acme.app`) or an Apple ID (all digits).
    public func pull(app: String, client: inout ASCClient) throws(ASCError) -> ASCSnapshot {
        let found = try findApp(app, client: &client)
        var inAppPurchases: [ASCSnapshot.InAppPurchase] = []
        // Products whose localizations were not all included: fetched on their own afterwards.
        var incomplete: [Int] = []
        try client.getAllPages("/v1/apps/\(found.id)/inAppPurchasesV2", query: [
            ("limit", "\(Self.pageSize)"), ("include", "inAppPurchaseLocalizations"),
            ("limit[inAppPurchaseLocalizations]", "\(Self.includedPerResource)"),
        ]) { (body) throws(ASCError) -> URL? in
            let page: Page<PurchaseAttributes> = try decode(body, "/v1/apps/\(found.id)/inAppPurchasesV2")
            for resource in page.data {
                guard let productID = resource.attributes?.productId else { continue }
                let included = page.localizations(of: resource, relationship: "inAppPurchaseLocalizations")
                if included == nil { incomplete.append(inAppPurchases.count) }
                inAppPurchases.append(ASCSnapshot.InAppPurchase(
                    productId: productID, id: resource.id, name: resource.attributes?.name, type: resource.attributes?.inAppPurchaseType,
                    state: resource.attributes?.state, familySharable: resource.attributes?.familySharable,
                    localizations: included ?? []))
            }
            return page.next
        }
        for index in incomplete {
            inAppPurchases[index].localizations = try localizations("/v2/inAppPurchases/\(inAppPurchases[index].id)/inAppPurchaseLocalizations", &client)
        }
        if let storefront {
            for index in inAppPurchases.indices {
                inAppPurchases[index].price = try purchasePrice(inAppPurchases[index].id, storefront, &client)
            }
        }

        var groups: [ASCSnapshot.SubscriptionGroup] = []
        try client.getAllPages("/v1/apps/\(found.id)/subscriptionGroups", query: [("limit", "\(Self.pageSize)")]) { (body) throws(ASCError) -> URL? in
            let page: Page<GroupAttributes> = try decode(body, "/v1/apps/\(found.id)/subscriptionGroups")
            groups += page.data.map { ASCSnapshot.SubscriptionGroup(id: $0.id, referenceName: $0.attributes?.referenceName, subscriptions: []) }
            return page.next
        }
        for g in groups.indices {
            let path = "/v1/subscriptionGroups/\(groups[g].id)/subscriptions"
            var subscriptions: [ASCSnapshot.Subscription] = []
            var incomplete: [Int] = []
            try client.getAllPages(path, query: [
                ("limit", "\(Self.pageSize)"), ("include", "subscriptionLocalizations"),
                ("limit[subscriptionLocalizations]", "\(Self.includedPerResource)"),
            ]) { (body) throws(ASCError) -> URL? in
                let page: Page<SubscriptionAttributes> = try decode(body, path)
                for resource in page.data {
                    guard let productID = resource.attributes?.productId else { continue }
                    let a = resource.attributes
                    let included = page.localizations(of: resource, relationship: "subscriptionLocalizations")
                    if included == nil { incomplete.append(subscriptions.count) }
                    subscriptions.append(ASCSnapshot.Subscription(
                        productId: productID, id: resource.id, name: a?.name, state: a?.state, period: a?.subscriptionPeriod,
                        groupLevel: a?.groupLevel, familySharable: a?.familySharable, localizations: included ?? []))
                }
                return page.next
            }
            for s in incomplete {
                subscriptions[s].localizations = try localizations("/v1/subscriptions/\(subscriptions[s].id)/subscriptionLocalizations", &client)
            }
            if let storefront {
                for s in subscriptions.indices {
                    subscriptions[s].price = try subscriptionPrice(subscriptions[s].id, storefront, &client)
                    subscriptions[s].introductoryOffer = try introductoryOffer(subscriptions[s].id, storefront, &client)
                }
            }
            groups[g].subscriptions = subscriptions
        }
        var snapshot = ASCSnapshot(app: found, inAppPurchases: inAppPurchases, subscriptionGroups: groups)
        snapshot.storefront = storefront
        snapshot.sort()
        return snapshot
    }

    private func localizations(_ path: String, _ client: inout ASCClient) throws(ASCError) -> [ASCSnapshot.Localization] {
        var all: [ASCSnapshot.Localization] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)")]) { (body) throws(ASCError) -> URL? in
            let page: Page<IncludedAttributes> = try decode(body, path)
            all += page.data.compactMap { $0.attributes?.localization }
            return page.next
        }
        return all
    }

    // MARK: Prices

    /// The price or offer in effect today among `items` (each with its start and end day, nil for
    /// open): the one that started last.
    private func current<Value>(_ items: [(start: String?, end: String?, value: Value)]) -> Value? {
        items.filter { ($0.start ?? "") <= today && ($0.end.map { $0 > today } ?? true) }
            .max { ($0.start ?? "") < ($1.start ?? "") }?.value
    }

    private func price(_ resource: Resource<PriceAttributes>, _ included: [String: IncludedAttributes], pointRelationship: String) -> ASCSnapshot.Price? {
        guard let point = resource.relationships?[pointRelationship]?.one?.id,
              let amount = included[point]?.customerPrice else { return nil }
        let territory = resource.relationships?["territory"]?.one?.id
        return ASCSnapshot.Price(amount: amount, currency: territory.flatMap { included[$0]?.currency })
    }

    private func priceList(_ path: String, _ query: [(String, String)], point: String, _ client: inout ASCClient)
        throws(ASCError) -> [(start: String?, end: String?, value: ASCSnapshot.Price?)] {
        var found: [(start: String?, end: String?, value: ASCSnapshot.Price?)] = []
        try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
            let page: Page<PriceAttributes> = try decode(body, path)
            let included = page.includedByID
            for resource in page.data {
                found.append((resource.attributes?.startDate, resource.attributes?.endDate, price(resource, included, pointRelationship: point)))
            }
            return page.next
        }
        return found
    }

    /// An in-app purchase's price: its schedule's manual price for the storefront, else the
    /// automatic (equalized) one.
    private func purchasePrice(_ id: String, _ storefront: String, _ client: inout ASCClient) throws(ASCError) -> ASCSnapshot.Price? {
        let schedulePath = "/v2/inAppPurchases/\(id)/iapPriceSchedule"
        let schedule: Single<PriceAttributes> = try decode(try client.get(schedulePath), schedulePath)
        let query = [("filter[territory]", storefront), ("include", "inAppPurchasePricePoint,territory"), ("limit", "\(Self.pageSize)")]
        let manual = try priceList("/v1/inAppPurchasePriceSchedules/\(schedule.data.id)/manualPrices", query, point: "inAppPurchasePricePoint", &client)
        if let price = current(manual) ?? nil { return price }
        let automatic = try priceList("/v1/inAppPurchasePriceSchedules/\(schedule.data.id)/automaticPrices", query, point: "inAppPurchasePricePoint", &client)
        return current(automatic) ?? nil
    }

    private func subscriptionPrice(_ id: String, _ storefront: String, _ client: inout ASCClient) throws(ASCError) -> ASCSnapshot.Price? {
        current(try priceList("/v1/subscriptions/\(id)/prices", [
            ("filter[territory]", storefront), ("include", "subscriptionPricePoint,territory"), ("limit", "\(Self.pageSize)"),
        ], point: "subscriptionPricePoint", &client)) ?? nil
    }

    private func introductoryOffer(_ id: String, _ storefront: String, _ client: inout ASCClient) throws(ASCError) -> ASCSnapshot.IntroductoryOffer? {
        let path = "/v1/subscriptions/\(id)/introductoryOffers"
        var offers: [(start: String?, end: String?, value: ASCSnapshot.IntroductoryOffer)] = []
        try client.getAllPages(path, query: [
            ("filter[territory]", storefront), ("include", "subscriptionPricePoint,territory"), ("limit", "\(Self.pageSize)"),
        ]) { (body) throws(ASCError) -> URL? in
            let page: Page<PriceAttributes> = try decode(body, path)
            let included = page.includedByID
            for resource in page.data {
                guard let mode = resource.attributes?.offerMode else { continue }
                let price = mode == "FREE_TRIAL" ? nil : self.price(resource, included, pointRelationship: "subscriptionPricePoint")
                offers.append((resource.attributes?.startDate, resource.attributes?.endDate,
                               ASCSnapshot.IntroductoryOffer(mode: mode, duration: resource.attributes?.duration,
                                                             periods: resource.attributes?.numberOfPeriods, price: price)))
            }
            return page.next
        }
        return current(offers)
    }

    private func findApp(_ app: String, client: inout ASCClient) throws(ASCError) -> ASCSnapshot.App {
        let isAppleID = !app.isEmpty && app.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isAppleID {
            let body = try client.get("/v1/apps/\(app)")
            let single: Single<AppAttributes> = try decode(body, "/v1/apps/\(app)")
            return ASCSnapshot.App(id: single.data.id, bundleId: single.data.attributes?.bundleId, name: single.data.attributes?.name)
        }
        let body = try client.get("/v1/apps", query: [("filter[bundleId]", app), ("limit", "\(Self.pageSize)")])
        let page: Page<AppAttributes> = try decode(body, "/v1/apps")
        // The filter is not an exact match on every server: the bundle ID is compared here.
        guard let match = page.data.first(where: { $0.attributes?.bundleId == app }) else {
            throw .notFound("App Store Connect has no app with the bundle ID \(app) that this key can see: check the bundle ID "
                            + "(or pass the app's Apple ID, the number in its App Store Connect address) and the key's team")
        }
        return ASCSnapshot.App(id: match.id, bundleId: match.attributes?.bundleId, name: match.attributes?.name)
    }
}

// MARK: - JSON:API documents, as far as the pull reads them

private func decode<T: Decodable>(_ body: Data, _ operation: String) throws(ASCError) -> T {
    do {
        return try JSONDecoder().decode(T.self, from: body)
    } catch let error as DecodingError {
        let why: String = switch error {
        case .dataCorrupted: "the body is not valid JSON (\(body.count) bytes)"
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has an unexpected type"
        @unknown default: "unexpected JSON"
        }
        throw .invalidResponse(operation, why)
    } catch {
        throw .invalidResponse(operation, "unexpected JSON")
    }
}

private struct Resource<Attributes: Decodable>: Decodable {
    var id: String
    var attributes: Attributes?
    var relationships: [String: Relationship]?
}

private struct Linkage: Decodable {
    var type: String?
    var id: String
}

private struct Relationship: Decodable {
    /// To-many linkage (an array).
    var data: [Linkage]?
    /// To-one linkage (an object).
    var one: Linkage?
    var meta: Paging?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try? container.decodeIfPresent([Linkage].self, forKey: .data)
        one = try? container.decodeIfPresent(Linkage.self, forKey: .data)
        meta = try? container.decodeIfPresent(Paging.self, forKey: .meta)
    }

    enum CodingKeys: String, CodingKey { case data, meta }
}

private struct Paging: Decodable {
    struct Info: Decodable { var total: Int?; var limit: Int? }
    var paging: Info?
}

private struct Links: Decodable {
    var next: String?
}

private struct Page<Attributes: Decodable>: Decodable {
    var data: [Resource<Attributes>]
    var included: [Resource<IncludedAttributes>]?
    var links: Links?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try container.decode([Resource<Attributes>].self, forKey: .data)
        links = try container.decodeIfPresent(Links.self, forKey: .links)
        // Only localizations are asked to be included; anything else in `included` is skipped.
        if var items = try? container.nestedUnkeyedContainer(forKey: .included) {
            var kept: [Resource<IncludedAttributes>] = []
            while !items.isAtEnd {
                if let item = try? items.decode(Resource<IncludedAttributes>.self) { kept.append(item) } else { _ = try? items.decode(Skip.self) }
            }
            included = kept
        }
        var byID: [String: ASCSnapshot.Localization] = [:]
        for item in included ?? [] { if let l = item.attributes?.localization { byID[item.id] = l } }
        localizationsByID = byID
    }

    enum CodingKeys: String, CodingKey { case data, included, links }

    var next: URL? { links?.next.flatMap(URL.init(string:)) }

    /// `included`'s localizations by ID, made once per page.
    let localizationsByID: [String: ASCSnapshot.Localization]

    /// `included`'s resources by ID.
    var includedByID: [String: IncludedAttributes] {
        var byID: [String: IncludedAttributes] = [:]
        for item in included ?? [] { if let a = item.attributes { byID[item.id] = a } }
        return byID
    }

    /// A resource's localizations from `included`; nil when the relationship says it has more
    /// than were included (at most 50 are), or gives no linkage at all: they are fetched then.
    func localizations(of resource: Resource<Attributes>, relationship: String) -> [ASCSnapshot.Localization]? {
        guard let link = resource.relationships?[relationship], let linked = link.data else { return nil }
        if let total = link.meta?.paging?.total, total > linked.count { return nil }
        return linked.compactMap { localizationsByID[$0.id] }
    }
}

private struct Skip: Decodable {}

private struct Single<Attributes: Decodable>: Decodable {
    var data: Resource<Attributes>
}

private struct AppAttributes: Decodable {
    var bundleId: String?
    var name: String?
}

private struct PurchaseAttributes: Decodable {
    var name: String?
    var productId: String?
    var inAppPurchaseType: String?
    var state: String?
    var familySharable: Bool?
}

/// Prices (of a schedule or a subscription) and introductory offers.
private struct PriceAttributes: Decodable {
    var startDate: String?
    var endDate: String?
    var offerMode: String?
    var duration: String?
    var numberOfPeriods: Int?
}

private struct GroupAttributes: Decodable {
    var referenceName: String?
}

private struct SubscriptionAttributes: Decodable {
    var name: String?
    var productId: String?
    var state: String?
    var subscriptionPeriod: String?
    var groupLevel: Int?
    var familySharable: Bool?
}

/// The attributes of what `included` holds (localizations, price points, territories), every
/// field optional: one type decodes them all.
private struct IncludedAttributes: Decodable {
    var locale: String?
    var name: String?
    var description: String?
    var state: String?
    var customerPrice: String?
    var currency: String?

    var localization: ASCSnapshot.Localization? {
        locale.map { ASCSnapshot.Localization(locale: $0, name: name, description: description, state: state) }
    }
}
