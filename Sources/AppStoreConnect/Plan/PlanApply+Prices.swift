import Diagnostics
import Foundation
import Support

extension PlanApply {
    /// An in-app purchase's price schedule, one write: the base territory's price and a manual
    /// price in each named territory whose price is not the base price's equalization there; a
    /// territory whose price is the equalization follows the base (App Store Connect sets it).
    /// A schedule replaces every manual price, so a product that had one keeps the prices set by
    /// hand in territories the catalog does not name. A change with a start date keeps today's
    /// manual prices until that day (their end date) and starts the new ones on it.
    func setPurchasePrices(_ step: CatalogPlan.Step, _ id: String, client: ASCClient) throws(ASCError) -> String? {
        let wanted = try Self.amounts(step)
        let start = try startDate(step)
        let base = step.set["baseTerritory"] ?? (wanted["USA"] != nil ? "USA" : wanted.keys.min() ?? "USA")
        let resolved = try resolve(PurchasePointAttributes.self, list: try APIPath("/v2/inAppPurchases", id, "pricePoints"),
                                   equalizations: "/v1/inAppPurchasePricePoints", wanted: wanted, base: base, client: client)
        // Each manual price: its territory, point, and the days it runs (nil: from today, or open).
        var manual: [(territory: String, point: String, start: String?, end: String?)] = []
        let current = step.before != nil ? try SnapshotPull().manualPricePoints(id, client) ?? [:] : [:]
        let named = resolved.points.filter { $0.key == base || !resolved.equalized.contains($0.key) }
        if let start {
            guard current[base] != nil else {
                throw .notFound("\(Quote.escaped(step.product ?? "")) has no manual price in its base territory \(base) today, so a change from \(start) "
                                + "would leave \(base) without a price until then: change the base territory without a start date first, then plan again")
            }
            for (territory, point) in current {
                let changes = wanted[territory] != nil || territory == base
                let kept = !changes || named[territory] == point
                manual.append((territory, point, nil, kept ? nil : start))
            }
            for (territory, point) in named where current[territory] != point {
                manual.append((territory, point, start, nil))
            }
        } else {
            for (territory, point) in current where wanted[territory] == nil && territory != base { manual.append((territory, point, nil, nil)) }
            for (territory, point) in named { manual.append((territory, point, nil, nil)) }
        }
        manual.sort { ($0.territory, $0.start ?? "") < ($1.territory, $1.start ?? "") }
        let ids = manual.map { "${price-\($0.territory)\($0.start.map { "-\($0)" } ?? "")}" }
        let included: [[String: Any]] = zip(ids, manual).map { ident, price in
            var attributes: [String: Any] = [:]
            if let day = price.start { attributes["startDate"] = day }
            if let day = price.end { attributes["endDate"] = day }
            var item: [String: Any] = ["type": "inAppPurchasePrices", "id": ident,
                                       "relationships": ["inAppPurchaseV2": Self.link("inAppPurchases", id),
                                                         "inAppPurchasePricePoint": Self.link("inAppPurchasePricePoints", price.point)]]
            if !attributes.isEmpty { item["attributes"] = attributes }
            return item
        }
        let body = Self.document(["type": "inAppPurchasePriceSchedules",
                                  "relationships": ["inAppPurchase": Self.link("inAppPurchases", id),
                                                    "baseTerritory": Self.link("territories", base),
                                                    "manualPrices": ["data": ids.map { ["type": "inAppPurchasePrices", "id": $0] }]]],
                                 included: included)
        let path = APIPath("/v1/inAppPurchasePriceSchedules")
        return try created(try client.write("POST", path, body: body), "inAppPurchasePriceSchedules", path.encoded)
    }

    /// A subscription's prices. One with no price yet (`now` empty) takes its first prices in one
    /// write, inline with a PATCH of the subscription — App Store Connect answers a price change
    /// on it with a 500 — every named territory, and with a base territory every other territory
    /// at the base price's equalization. One with prices gets a price change per territory whose
    /// price differs (`POST /v1/subscriptionPrices`, one write each: the document has no other),
    /// from the step's start date when it has one; a price App Store Connect already holds, or
    /// holds from that date (written by a run that stopped), is not written again.
    func setSubscriptionPrices(_ step: CatalogPlan.Step, _ id: String, now: [String: Decimal], scheduled: ASCSnapshot.ScheduledPrices,
                               priced: inout Set<String>, client: ASCClient) throws(ASCError) -> String? {
        let wanted = try Self.amounts(step)
        let start = try startDate(step)
        let resolved = try resolve(SubscriptionPointAttributes.self, list: try APIPath("/v1/subscriptions", id, "pricePoints"),
                                   equalizations: "/v1/subscriptionPricePoints", wanted: wanted, base: step.set["baseTerritory"], client: client)
        var points = resolved.others
        points.merge(resolved.points) { _, named in named }
        if now.isEmpty {
            if start != nil {
                throw .notFound("\(Quote.escaped(step.product ?? "")) has no price yet, and a first price starts the day it is set: remove priceStartDate, then plan again")
            }
            let territories = points.keys.sorted()
            let included: [[String: Any]] = territories.map { territory in
                ["type": "subscriptionPrices", "id": "${price-\(territory)}",
                 "relationships": ["territory": Self.link("territories", territory),
                                   "subscriptionPricePoint": Self.link("subscriptionPricePoints", points[territory]!)]]
            }
            let body = Self.document(["type": "subscriptions", "id": id,
                                      "relationships": ["prices": ["data": territories.map { ["type": "subscriptionPrices", "id": "${price-\($0)}"] }]]],
                                     included: included)
            _ = try client.write("PATCH", try APIPath("/v1/subscriptions", id), body: body)
            priced.formUnion(territories)
            return nil
        }
        // Existing subscribers keep their price unless told.
        let preserve = !migrateExistingSubscribers
        var attributes: [String: Any] = ["preserveCurrentPrice": preserve]
        if let start { attributes["startDate"] = start }
        // The equalized territories first, the named ones (which judge the step done) last.
        let order = resolved.others.keys.sorted() + resolved.points.keys.sorted()
        func written(_ territory: String) -> Bool {
            guard now[territory] != nil else { return false }
            guard let amount = wanted[territory] else { return true }
            if now[territory] == amount { return true }
            return start.map { scheduled.holds(territory, amount, from: $0) } ?? false
        }
        for territory in order where !written(territory) {
            let body = Self.document(["type": "subscriptionPrices", "attributes": attributes,
                                      "relationships": ["subscription": Self.link("subscriptions", id),
                                                        "territory": Self.link("territories", territory),
                                                        "subscriptionPricePoint": Self.link("subscriptionPricePoints", points[territory]!)]])
            _ = try client.write("POST", APIPath("/v1/subscriptionPrices"), body: body)
            priced.insert(territory)
        }
        return nil
    }

    /// A subscription's introductory offer in every territory it has a price in, in one write:
    /// inline with a PATCH of the subscription. A paid offer's price is in its base territory;
    /// elsewhere it is the equalization of that price's point.
    func setIntroductoryOffer(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, client: ASCClient) throws(ASCError) -> String? {
        let (offered, points) = try offerPoints(step, id, territories: territories, what: "an introductory offer", client: client)
        let mode = step.set["mode"] ?? ""
        let included: [[String: Any]] = offered.map { territory in
            var relationships: [String: Any] = ["territory": Self.link("territories", territory)]
            if let point = points[territory] { relationships["subscriptionPricePoint"] = Self.link("subscriptionPricePoints", point) }
            return ["type": "subscriptionIntroductoryOffers", "id": "${offer-\(territory)}",
                    "attributes": ["offerMode": mode, "duration": step.set["duration"] ?? "", "numberOfPeriods": Int(step.set["periods"] ?? "") ?? 1],
                    "relationships": relationships]
        }
        let body = Self.document(["type": "subscriptions", "id": id,
                                  "relationships": ["introductoryOffers": ["data": offered.map { ["type": "subscriptionIntroductoryOffers", "id": "${offer-\($0)}"] }]]],
                                 included: included)
        _ = try client.write("PATCH", try APIPath("/v1/subscriptions", id), body: body)
        return nil
    }

    /// A subscription's promotional offer, one write: its code, name and terms, and its price in
    /// every territory the subscription has a price in (a free offer's without a price point).
    func createPromotionalOffer(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, client: ASCClient) throws(ASCError) -> String? {
        let attributes: [String: Any] = ["offerCode": step.set["code"] ?? "", "name": step.set["name"] ?? "", "offerMode": step.set["mode"] ?? "",
                                         "duration": step.set["duration"] ?? "", "numberOfPeriods": Int(step.set["periods"] ?? "") ?? 1]
        return try createOffer(step, id, territories: territories, at: APIPath("/v1/subscriptionPromotionalOffers"), type: "subscriptionPromotionalOffers",
                               attributes: attributes, priceType: "subscriptionPromotionalOfferPrices", what: "a promotional offer", client: client)
    }

    /// A subscription's win-back offer, one write: its identifier, name, terms, eligibility, dates
    /// and priority, and its price in every territory the subscription has a price in (a free
    /// offer's without a price point).
    func createWinBackOffer(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, client: ASCClient) throws(ASCError) -> String? {
        func months(_ key: String) -> Int { Int(step.set[key] ?? "") ?? 0 }
        var attributes: [String: Any] = [
            "offerId": step.set["code"] ?? "", "referenceName": step.set["name"] ?? "", "offerMode": step.set["mode"] ?? "",
            "duration": step.set["duration"] ?? "", "periodCount": Int(step.set["periods"] ?? "") ?? 1,
            "customerEligibilityPaidSubscriptionDurationInMonths": months("paidMonths"),
            "customerEligibilityTimeSinceLastSubscribedInMonths": ["minimum": months("lapsedMinMonths"), "maximum": months("lapsedMaxMonths")],
            "startDate": step.set["startDate"] ?? "", "priority": step.set["priority"] ?? "NORMAL",
        ]
        if step.set["waitMonths"] != nil { attributes["customerEligibilityWaitBetweenOffersInMonths"] = months("waitMonths") }
        if let end = step.set["endDate"] { attributes["endDate"] = end }
        return try createOffer(step, id, territories: territories, at: APIPath("/v1/winBackOffers"), type: "winBackOffers",
                               attributes: attributes, priceType: "winBackOfferPrices", what: "a win-back offer", client: client)
    }

    /// A subscription's offer code (the campaign, without codes), one write: its name, terms and
    /// who may redeem it, and its price in every territory the subscription has a price in (a
    /// free offer's without a price point).
    func createOfferCode(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, client: ASCClient) throws(ASCError) -> String? {
        let eligibilities = (step.set["customerEligibilities"] ?? "").split(separator: ",").map(String.init)
        let attributes: [String: Any] = [
            "name": step.set["name"] ?? "", "offerMode": step.set["mode"] ?? "", "duration": step.set["duration"] ?? "",
            "numberOfPeriods": Int(step.set["periods"] ?? "") ?? 1, "customerEligibilities": eligibilities,
            "offerEligibility": step.set["offerEligibility"] ?? "",
        ]
        return try createOffer(step, id, territories: territories, at: APIPath("/v1/subscriptionOfferCodes"), type: "subscriptionOfferCodes",
                               attributes: attributes, priceType: "subscriptionOfferCodePrices", what: "an offer code", client: client)
    }

    /// An offer of a subscription, one `POST` of `type` to `path`: `attributes`, and its prices
    /// inline, of `priceType`, in every territory the subscription has a price in; the new offer's ID.
    private func createOffer(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, at path: APIPath, type: String,
                             attributes: [String: Any], priceType: String, what: String, client: ASCClient) throws(ASCError) -> String? {
        let (prices, included) = try offerPrices(step, id, territories: territories, type: priceType, what: what, client: client)
        let body = Self.document(["type": type, "attributes": attributes,
                                  "relationships": ["subscription": Self.link("subscriptions", id), "prices": prices]],
                                 included: included)
        return try created(try client.write("POST", path, body: body), type, path.encoded)
    }

    /// An offer's prices created inline, of `type`: the offer's `prices` relationship and the
    /// `included` items it names, one a territory the offer is made in.
    private func offerPrices(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, type: String, what: String,
                             client: ASCClient) throws(ASCError) -> (relationship: [String: Any], included: [[String: Any]]) {
        let (offered, points) = try offerPoints(step, id, territories: territories, what: what, client: client)
        let included: [[String: Any]] = offered.map { territory in
            var relationships: [String: Any] = ["territory": Self.link("territories", territory)]
            if let point = points[territory] { relationships["subscriptionPricePoint"] = Self.link("subscriptionPricePoints", point) }
            return ["type": type, "id": "${price-\(territory)}", "relationships": relationships]
        }
        return (["data": offered.map { ["type": type, "id": "${price-\($0)}"] }], included)
    }

    /// The territories an offer is made in (those the subscription has a price in) and, for a
    /// paid offer, its price point in each: its base territory's, elsewhere that point's equalization.
    private func offerPoints(_ step: CatalogPlan.Step, _ id: String, territories: Set<String>, what: String,
                             client: ASCClient) throws(ASCError) -> (offered: [String], points: [String: String]) {
        guard !territories.isEmpty else {
            throw .notFound("\(Quote.escaped(step.product ?? "")) has no price in any territory, and \(what) needs one: give it a price, plan again")
        }
        let mode = step.set["mode"] ?? ""
        var points: [String: String] = [:]
        if mode != "FREE_TRIAL" {
            guard let price = step.set["price"].flatMap(ASCValue.decimal), let base = step.set["baseTerritory"] else {
                throw .notFound("the \(mode) offer of \(Quote.escaped(step.product ?? "")) has no price in a territory")
            }
            let resolved = try resolve(SubscriptionPointAttributes.self, list: try APIPath("/v1/subscriptions", id, "pricePoints"),
                                       equalizations: "/v1/subscriptionPricePoints", wanted: [base: price], base: base, client: client)
            points = resolved.others.merging(resolved.points) { _, named in named }
        }
        return (territories.sorted().filter { mode == "FREE_TRIAL" || points[$0] != nil }, points)
    }

    /// A step's start date (nil: now), refused once it is not after today: App Store Connect
    /// schedules a change only ahead.
    func startDate(_ step: CatalogPlan.Step) throws(ASCError) -> String? {
        guard let start = step.set["startDate"] else { return nil }
        guard start > today else {
            throw .notFound("the price change of \(Quote.escaped(step.product ?? "")) starts on \(start), and today is \(today): App Store Connect "
                            + "schedules a change only after today; change priceStartDate in the catalog (or remove it to change the price now), then plan again")
        }
        return start
    }

    /// A step's prices by territory (the plan file was checked: each is a price).
    static func amounts(_ step: CatalogPlan.Step) throws(ASCError) -> [String: Decimal] {
        var wanted: [String: Decimal] = [:]
        for territory in step.priceTerritories {
            let text = step.set[territory]!
            guard let amount = ASCValue.decimal(text) else { throw .notFound("\(Quote.escaped(text)) is not a price") }
            wanted[territory] = amount
        }
        return wanted
    }

    /// Price points for a step's prices.
    struct ResolvedPrices {
        /// Each named territory's point.
        var points: [String: String] = [:]
        /// The named territories whose price is the base price's equalization there.
        var equalized: Set<String> = []
        /// Each territory not named: its point at the base price's equalization.
        var others: [String: String] = [:]
    }

    /// The points of `wanted` (territory → price) in as few requests as Apple's document allows:
    /// with a base territory, its point and the base price's equalizations (one request each),
    /// which give every territory whose price is the equalized one; the rest from one list of the
    /// product's points filtered by their territories (8,000 points a page, about 10 territories).
    /// A price that is not a point is an error naming the nearest.
    private func resolve<A: PricePointAttributes>(_ kind: A.Type, list: APIPath, equalizations prefix: StaticString, wanted: [String: Decimal],
                                                  base: String?, client: ASCClient) throws(ASCError) -> ResolvedPrices {
        var resolved = ResolvedPrices()
        if let base, let amount = wanted[base] {
            let basePoint = try lookup(kind, list, [base: amount], client)[base]!
            resolved.points[base] = basePoint
            let path = try APIPath(prefix, basePoint, "equalizations")
            let (ladders, ids) = try PricePointPull().ladder(path, kind, client)
            for (territory, ladder) in ladders where territory != base {
                guard ladder.points.count == 1, let price = ladder.points.first?.price, let point = ids[territory]?[price] else {
                    throw .invalidResponse(path.encoded, "\(ladder.points.count) equalized prices in \(territory), not one")
                }
                if let why = ResourceID.problem(point) { throw .invalidResponse(path.encoded, "a price point's ID \(Quote.escaped(point)) \(why)") }
                if let named = wanted[territory] {
                    if named == price {
                        resolved.points[territory] = point
                        resolved.equalized.insert(territory)
                    }
                } else {
                    resolved.others[territory] = point
                }
            }
        }
        let rest = wanted.filter { resolved.points[$0.key] == nil }
        if !rest.isEmpty {
            resolved.points.merge(try lookup(kind, list, rest, client)) { found, _ in found }
        }
        return resolved
    }

    /// The point of each price in its territory, from the product's points in those territories.
    private func lookup<A: PricePointAttributes>(_ kind: A.Type, _ list: APIPath, _ wanted: [String: Decimal], _ client: ASCClient)
        throws(ASCError) -> [String: String] {
        let (ladders, ids) = try PricePointPull().ladder(list, kind, client, territories: wanted.keys.sorted())
        var found: [String: String] = [:]
        for (territory, amount) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let point = ids[territory]?[amount] else {
                let prices = ladders[territory]?.points.map(\.price) ?? []
                let nearest = [prices.last { $0 < amount }, prices.first { $0 > amount }].compactMap { $0.map { "\($0)" } }.joined(separator: " or ")
                throw .notFound("\(amount) is not one of App Store Connect's prices in \(territory)\(nearest.isEmpty ? "" : " (the nearest: \(nearest))"): "
                                + "change the price in the catalog to a price point (`iap asc pull --price-points` lists them) and plan again")
            }
            if let why = ResourceID.problem(point) { throw .invalidResponse(list.encoded, "a price point's ID \(Quote.escaped(point)) \(why)") }
            found[territory] = point
        }
        return found
    }
}
