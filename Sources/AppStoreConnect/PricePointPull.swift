import Diagnostics
import Foundation
import Support

/// Pulls App Store Connect's price points for an app, in as few requests as Apple's document
/// allows (docs/prices.md has the formula):
///
/// - each ladder once, not per product: a kind's ladder is the same for every product, so it is
///   read through one in-app purchase and one subscription of the snapshot, 8,000 points a page
///   (about 800 points in each of 175 territories: 18 pages a kind);
/// - one equalization per distinct base price (territory and customer price) the app uses, not
///   per product: 174 prices in one page.
public struct PricePointPull: Sendable {
    /// The most points a page of these operations holds (Apple's document's `limit` maximum).
    public static let pageSize = 8000

    public init() {}

    /// A base price to equalize: a kind, a territory and a customer price there.
    public struct Base: Sendable, Hashable {
        public var kind: PricePoints.Kind
        public var territory: String
        public var price: Decimal

        public init(kind: PricePoints.Kind, territory: String, price: Decimal) {
            self.kind = kind
            self.territory = territory
            self.price = price
        }
    }

    public struct Outcome: Sendable {
        public var pricePoints: PricePoints
        /// Base prices that are not a point of their territory's ladder: not equalized.
        public var notPoints: [Base]
    }

    /// The ladders of the kinds the snapshot has a product of, and the equalizations of `bases`
    /// (the snapshot's prices in its storefront are added to them).
    public func pull(_ snapshot: ASCSnapshot, bases: [Base] = [], client: ASCClient) throws(ASCError) -> Outcome {
        var ladders: [PricePoints.Kind: [String: PricePoints.Ladder]] = [:]
        var ids: [PricePoints.Kind: [String: [Decimal: String]]] = [:]
        if let purchase = snapshot.inAppPurchases.first {
            (ladders[.inAppPurchases], ids[.inAppPurchases]) = try ladder(try APIPath("/v2/inAppPurchases", purchase.id, "pricePoints"),
                                                                          PurchasePointAttributes.self, client)
        }
        if let subscription = snapshot.subscriptionGroups.lazy.flatMap(\.subscriptions).first {
            (ladders[.subscriptions], ids[.subscriptions]) = try ladder(try APIPath("/v1/subscriptions", subscription.id, "pricePoints"),
                                                                        SubscriptionPointAttributes.self, client)
        }
        var wanted = Set(bases)
        if let storefront = snapshot.storefront {
            for p in snapshot.inAppPurchases { if let price = p.price?.decimal { wanted.insert(Base(kind: .inAppPurchases, territory: storefront, price: price)) } }
            for s in snapshot.subscriptionGroups.flatMap(\.subscriptions) {
                if let price = s.price?.decimal { wanted.insert(Base(kind: .subscriptions, territory: storefront, price: price)) }
            }
        }
        var equalizations: [PricePoints.Kind: [PricePoints.Equalization]] = [:]
        var notPoints: [Base] = []
        for base in wanted.sorted(by: { ($0.kind, $0.territory, $0.price) < ($1.kind, $1.territory, $1.price) }) {
            guard ladders[base.kind] != nil else { continue }
            guard let id = ids[base.kind]?[base.territory]?[base.price] else {
                notPoints.append(base)
                continue
            }
            let prefix: StaticString = base.kind == .inAppPurchases ? "/v1/inAppPurchasePricePoints" : "/v1/subscriptionPricePoints"
            let path = try APIPath(prefix, id, "equalizations")
            let (found, _) = base.kind == .inAppPurchases ? try ladder(path, PurchasePointAttributes.self, client)
                : try ladder(path, SubscriptionPointAttributes.self, client)
            var prices: [String: Decimal] = [:]
            for (territory, ladder) in found where territory != base.territory {
                guard ladder.points.count == 1 else {
                    throw .invalidResponse("equalizations", "\(ladder.points.count) equalized prices in \(territory), not one")
                }
                prices[territory] = ladder.points[0].price
            }
            equalizations[base.kind, default: []].append(PricePoints.Equalization(territory: base.territory, price: base.price, prices: prices))
        }
        return Outcome(pricePoints: PricePoints(app: snapshot.app, ladders: ladders, equalizations: equalizations), notPoints: notPoints)
    }

    /// The points a list answers, by territory (ascending), and each point's ID by territory and price.
    /// `territories`, when given, filters the list to them.
    func ladder<A: PricePointAttributes>(_ path: APIPath, _ kind: A.Type, _ client: ASCClient, territories: [String]? = nil)
        throws(ASCError) -> ([String: PricePoints.Ladder], [String: [Decimal: String]]) {
        let type = A.type
        var byTerritory: [String: [PricePoints.Point]] = [:]
        var currencies: [String: String] = [:]
        var ids: [String: [Decimal: String]] = [:]
        let query = (territories.map { [("filter[territory]", $0.joined(separator: ","))] } ?? [])
            + [("limit", "\(Self.pageSize)"), ("include", "territory"), ("fields[\(type)]", "customerPrice,proceeds,territory"),
               ("fields[territories]", "currency")]
        var count = 0
        try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
            let page = try Page<A>.read(body, path)
            for resource in page.data {
                guard let linkage = resource.relationships?["territory"]?.one, linkage.type == "territories" else {
                    throw .invalidResponse(path.encoded, "a point has no territory")
                }
                let territory = linkage.id
                if let why = ASCValue.code(territory) { throw .invalidResponse(path.encoded, "a territory is \(Quote.escaped(territory)): \(why)") }
                guard let text = resource.attributes?.customerPrice else { continue }
                if let why = ASCValue.price(text) { throw .invalidResponse(path.encoded, "a customerPrice is \(Quote.escaped(text)): \(why)") }
                let proceeds = try resource.attributes?.proceeds.map { (text) throws(ASCError) -> Decimal in
                    guard let value = ASCValue.decimal(text) else {
                        throw .invalidResponse(path.encoded, "a proceeds is \(Quote.escaped(text)): \(ASCValue.price(text) ?? "not a price")")
                    }
                    return value
                }
                guard let price = ASCValue.decimal(text) else { continue }
                count += 1
                guard count <= PricePoints.maxPointsPerTerritory * PricePoints.maxTerritories else {
                    throw .invalidResponse(path.encoded, "more price points than App Store Connect has")
                }
                byTerritory[territory, default: []].append(PricePoints.Point(price: price, proceeds: proceeds))
                if ids[territory, default: [:]][price] == nil { ids[territory, default: [:]][price] = resource.id }
                if currencies[territory] == nil, let currency = page.included[Linkage(type: "territories", id: territory)]?.attributes?.currency,
                   ASCValue.code(currency) == nil {
                    currencies[territory] = currency
                }
            }
            return try page.next(path)
        }
        var ladders: [String: PricePoints.Ladder] = [:]
        for (territory, points) in byTerritory {
            // Ascending, one point a price (a price listed twice is one point).
            var seen: Set<Decimal> = []
            let sorted = points.sorted { $0.price < $1.price }.filter { seen.insert($0.price).inserted }
            guard sorted.count <= PricePoints.maxPointsPerTerritory else {
                throw .invalidResponse(path.encoded, "\(sorted.count) price points in \(territory), more than \(PricePoints.maxPointsPerTerritory)")
            }
            ladders[territory] = PricePoints.Ladder(currency: currencies[territory], points: sorted)
        }
        return (ladders, ids)
    }
}

/// A price point's attributes: in-app purchases' and subscriptions' points share the shape.
protocol PricePointAttributes: ResourceAttributes {
    var customerPrice: String? { get }
    var proceeds: String? { get }
}

struct PurchasePointAttributes: PricePointAttributes {
    static let type = "inAppPurchasePricePoints"
    var customerPrice: String?
    var proceeds: String?
}

struct SubscriptionPointAttributes: PricePointAttributes {
    static let type = "subscriptionPricePoints"
    var customerPrice: String?
    var proceeds: String?
}
