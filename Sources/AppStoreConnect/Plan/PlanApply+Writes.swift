import Diagnostics
import Foundation
import Support

extension PlanApply {
    /// What happened to one step in a run.
    public enum Event: Sendable, Equatable {
        /// About to write it (journaled first: an answer that never comes leaves this behind).
        case starting(Int)
        /// Written: App Store Connect answered, with the ID of what it made, if it made one.
        case written(Int, id: String?)
        /// Already as the plan wants it: not written.
        case alreadyDone(Int)
    }

    /// Why a run stopped before its last step.
    public struct Stop: Error, Sendable, CustomStringConvertible {
        /// The step it stopped at.
        public var step: CatalogPlan.Step
        /// App Store Connect's error, when a request failed (nil: App Store Connect changed).
        public var error: ASCError?
        public var reason: String

        public var description: String {
            "step \(step.number) (\(PlanApply.describe(step))): \(reason)"
        }
    }

    /// Writes each step that is `planned` in `live`, in order, telling `record` before and after
    /// each (the journal, and progress). Stops at the first failure: App Store Connect's state
    /// after a failed write is not known until it is read again.
    public func run(live: ASCSnapshot, client: ASCClient, record: (Event) -> Void) throws(Stop) {
        // Judged against the state read before the run; `made` carries what the run makes.
        let view = LiveView(live)
        var made = Made()
        for (name, group) in view.groups { made.groups[name] = group.id }
        for (productID, product) in view.products {
            made.products[productID] = (product.id, product.isSubscription)
            made.prices[productID] = product.prices?.compactMapValues(\.decimal) ?? [:]
            made.scheduled[productID] = product.scheduled
            made.priced[productID] = Set(product.prices?.keys ?? [:].keys)
            for code in product.offerCodes ?? [] {
                if let id = code.id { made.offerCodes[Made.key(productID, code.name)] = id }
            }
        }
        for step in plan.steps {
            switch status(of: step, in: view) {
            case .done:
                record(.alreadyDone(step.number))
                continue
            case .moved(let why):
                throw Stop(step: step, error: nil, reason: "App Store Connect changed while applying: \(why)")
            case .planned:
                break
            }
            record(.starting(step.number))
            do {
                let id = try write(step, client: client, made: &made)
                record(.written(step.number, id: id))
            } catch {
                throw Stop(step: step, error: error, reason: error.description)
            }
        }
    }

    /// The resource IDs of what exists: read, or made by this run.
    struct Made {
        var groups: [String: String] = [:]
        var products: [String: (id: String, subscription: Bool)] = [:]
        /// Each product's price by territory as read before the run (what a resumed run need not write again).
        var prices: [String: [String: Decimal]] = [:]
        /// Each product's next price by territory where one is scheduled, as read before the run.
        var scheduled: [String: ASCSnapshot.ScheduledPrices] = [:]
        /// The territories each product has a price in: read, or written by this run.
        var priced: [String: Set<String>] = [:]
        /// Each offer code's resource ID by product and name (`key`): read, or made by this run.
        var offerCodes: [String: String] = [:]

        static func key(_ productID: String, _ name: String) -> String { productID + "\u{0}" + name }
    }

    private func write(_ step: CatalogPlan.Step, client: ASCClient, made: inout Made) throws(ASCError) -> String? {
        let productID = step.product ?? ""
        func product() throws(ASCError) -> (id: String, subscription: Bool) {
            guard let found = made.products[productID] else { throw .notFound("\(Quote.escaped(productID)) is not in App Store Connect: its create step did not run") }
            return found
        }
        switch step.action {
        case .createGroup:
            let name = step.set["referenceName"] ?? step.group ?? ""
            let body = Self.document(["type": "subscriptionGroups", "attributes": ["referenceName": name],
                                      "relationships": ["app": Self.link("apps", plan.app.id)]])
            let id = try created(try client.write("POST", APIPath("/v1/subscriptionGroups"), body: body), "subscriptionGroups", "/v1/subscriptionGroups")
            made.groups[step.group ?? name] = id
            return id
        case .createProduct:
            var attributes: [String: Any] = ["name": step.set["name"] ?? "", "productId": productID]
            if let note = step.set["reviewNote"] { attributes["reviewNote"] = note }
            if let shared = step.set["familySharable"] { attributes["familySharable"] = shared == "true" }
            if step.type == "AUTO_RENEWABLE" {
                guard let group = made.groups[step.group ?? ""] else { throw .notFound("the group \(Quote.escaped(step.group ?? "")) is not in App Store Connect") }
                if let period = step.set["period"] { attributes["subscriptionPeriod"] = period }
                if let level = step.set["groupLevel"].flatMap({ Int($0) }) { attributes["groupLevel"] = level }
                let body = Self.document(["type": "subscriptions", "attributes": attributes, "relationships": ["group": Self.link("subscriptionGroups", group)]])
                let id = try created(try client.write("POST", APIPath("/v1/subscriptions"), body: body), "subscriptions", "/v1/subscriptions")
                made.products[productID] = (id, true)
                return id
            }
            attributes["inAppPurchaseType"] = step.type ?? ""
            let body = Self.document(["type": "inAppPurchases", "attributes": attributes, "relationships": ["app": Self.link("apps", plan.app.id)]])
            let id = try created(try client.write("POST", APIPath("/v2/inAppPurchases"), body: body), "inAppPurchases", "/v2/inAppPurchases")
            made.products[productID] = (id, false)
            return id
        case .updateProduct:
            let (id, subscription) = try product()
            var attributes: [String: Any] = [:]
            for (field, value) in step.set {
                switch field {
                case "familySharable": attributes["familySharable"] = value == "true"
                case "groupLevel": attributes["groupLevel"] = Int(value) ?? 0
                case "period": attributes["subscriptionPeriod"] = value
                default: attributes[field] = value
                }
            }
            let type = subscription ? "subscriptions" : "inAppPurchases"
            let path = subscription ? try APIPath("/v1/subscriptions", id) : try APIPath("/v2/inAppPurchases", id)
            _ = try client.write("PATCH", path, body: Self.document(["type": type, "id": id, "attributes": attributes]))
            return nil
        case .createLocalization:
            let (id, subscription) = try product()
            var attributes: [String: Any] = ["name": step.set["name"] ?? "", "locale": step.locale ?? ""]
            if let text = step.set["description"], !text.isEmpty { attributes["description"] = text }
            let type = subscription ? "subscriptionLocalizations" : "inAppPurchaseLocalizations"
            let relationships = subscription ? ["subscription": Self.link("subscriptions", id)] : ["inAppPurchaseV2": Self.link("inAppPurchases", id)]
            let path = subscription ? APIPath("/v1/subscriptionLocalizations") : APIPath("/v1/inAppPurchaseLocalizations")
            return try created(try client.write("POST", path, body: Self.document(["type": type, "attributes": attributes, "relationships": relationships])),
                               type, path.encoded)
        case .updateLocalization:
            let (id, subscription) = try product()
            let localization = try localizationID(of: id, subscription: subscription, locale: step.locale ?? "", client: client)
            var attributes: [String: Any] = [:]
            for (field, value) in step.set { attributes[field] = value }
            let type = subscription ? "subscriptionLocalizations" : "inAppPurchaseLocalizations"
            let path = subscription ? try APIPath("/v1/subscriptionLocalizations", localization) : try APIPath("/v1/inAppPurchaseLocalizations", localization)
            _ = try client.write("PATCH", path, body: Self.document(["type": type, "id": localization, "attributes": attributes]))
            return nil
        case .setPrices:
            let (id, subscription) = try product()
            return subscription ? try setSubscriptionPrices(step, id, now: made.prices[productID] ?? [:],
                                                       scheduled: made.scheduled[productID] ?? .init([:]), priced: &made.priced[productID, default: []], client: client)
                : try setPurchasePrices(step, id, client: client)
        case .setIntroductoryOffer:
            let (id, subscription) = try product()
            guard subscription else { throw .notFound("\(Quote.escaped(productID)) is not a subscription: only subscriptions have introductory offers") }
            return try setIntroductoryOffer(step, id, territories: made.priced[productID] ?? [], client: client)
        case .createPromotionalOffer:
            let (id, subscription) = try product()
            guard subscription else { throw .notFound("\(Quote.escaped(productID)) is not a subscription: only subscriptions have promotional offers") }
            return try createPromotionalOffer(step, id, territories: made.priced[productID] ?? [], client: client)
        case .createWinBackOffer:
            let (id, subscription) = try product()
            guard subscription else { throw .notFound("\(Quote.escaped(productID)) is not a subscription: only subscriptions have win-back offers") }
            return try createWinBackOffer(step, id, territories: made.priced[productID] ?? [], client: client)
        case .createOfferCode:
            let (id, subscription) = try product()
            guard subscription else { throw .notFound("\(Quote.escaped(productID)) is not a subscription: only subscriptions have offer codes") }
            let code = try createOfferCode(step, id, territories: made.priced[productID] ?? [], client: client)
            if let code { made.offerCodes[Made.key(productID, step.set["name"] ?? "")] = code }
            return code
        case .createCustomCode:
            let name = step.set["name"] ?? ""
            guard let campaign = made.offerCodes[Made.key(productID, name)] else {
                throw .notFound("the offer code \(Quote.escaped(name)) of \(Quote.escaped(productID)) is not in App Store Connect: its create step did not run")
            }
            var attributes: [String: Any] = ["customCode": step.set["customCode"] ?? "", "numberOfCodes": Int(step.set["numberOfCodes"] ?? "") ?? 1]
            if let day = step.set["expirationDate"] { attributes["expirationDate"] = day }
            let path = APIPath("/v1/subscriptionOfferCodeCustomCodes")
            let body = Self.document(["type": "subscriptionOfferCodeCustomCodes", "attributes": attributes,
                                      "relationships": ["offerCode": Self.link("subscriptionOfferCodes", campaign)]])
            return try created(try client.write("POST", path, body: body), "subscriptionOfferCodeCustomCodes", path.encoded)
        case .setAvailability:
            let (id, subscription) = try product()
            let field = step.set["territories"] ?? ""
            let territories = field == "all" ? allTerritories : field.split(separator: ",").map(String.init)
            let type = subscription ? "subscriptionAvailabilities" : "inAppPurchaseAvailabilities"
            let owner = subscription ? ["subscription": Self.link("subscriptions", id)] : ["inAppPurchase": Self.link("inAppPurchases", id)]
            let relationships = owner.merging(["availableTerritories": ["data": territories.map { ["type": "territories", "id": $0] }]]) { a, _ in a }
            let path = subscription ? APIPath("/v1/subscriptionAvailabilities") : APIPath("/v1/inAppPurchaseAvailabilities")
            let body = Self.document(["type": type, "attributes": ["availableInNewTerritories": step.set["newTerritories"] == "true"],
                                      "relationships": relationships])
            return try created(try client.write("POST", path, body: body), type, path.encoded)
        }
    }

    /// The resource ID of a product's localization in `locale` (read: the snapshot keeps none).
    private func localizationID(of id: String, subscription: Bool, locale: String, client: ASCClient) throws(ASCError) -> String {
        let path = subscription ? try APIPath("/v1/subscriptions", id, "subscriptionLocalizations")
            : try APIPath("/v2/inAppPurchases", id, "inAppPurchaseLocalizations")
        let type = subscription ? "subscriptionLocalizations" : "inAppPurchaseLocalizations"
        var found: String?
        try client.getAllPages(path, query: [("limit", "200"), ("fields[\(type)]", "locale")]) { (body) throws(ASCError) -> URL? in
            let page: Page<LocaleAttributes> = try decodeDocument(body, path)
            for resource in page.data where resource.type == type && Self.localeKey(resource.attributes?.locale ?? "") == Self.localeKey(locale) {
                if ResourceID.problem(resource.id) == nil { found = resource.id }
            }
            return found == nil ? try page.next(path) : nil
        }
        guard let found else { throw .notFound("the \(locale) localization is no longer in App Store Connect") }
        return found
    }

    // MARK: Documents

    static func link(_ type: String, _ id: String) -> [String: Any] { ["data": ["type": type, "id": id]] }

    static func document(_ data: [String: Any], included: [[String: Any]]? = nil) -> Data {
        var root: [String: Any] = ["data": data]
        if let included { root["included"] = included }
        // Strings, numbers, booleans, arrays and dictionaries only: serialization cannot fail.
        return try! JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The ID of what a create made, from its answer (`data.id` of the type asked for).
    func created(_ body: Data, _ type: String, _ operation: String) throws(ASCError) -> String {
        struct Answer: Decodable { struct Made: Decodable { var type: String; var id: String }; var data: Made }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), answer.data.type == type else {
            throw .invalidResponse(operation, "the answer does not name the \(type) resource it made")
        }
        if let why = ResourceID.problem(answer.data.id) { throw .invalidResponse(operation, "the new resource's ID \(Quote.escaped(answer.data.id)) \(why)") }
        return answer.data.id
    }
}

/// A localization's locale (either kind).
struct LocaleAttributes: Decodable, Sendable, ResourceAttributes {
    static let type = "localizations"
    var locale: String?
}
