import Crypto
import Diagnostics
import Foundation
import Support

/// What `iap asc apply` is to make true in App Store Connect, as `iap asc plan` writes it: the
/// changes in the order they are made (a group before its subscriptions, a product before its
/// localizations, prices and availability), each with what App Store Connect held when the plan
/// was made (`before`) and what it is to hold (`set`); and what is not done, with why. A file of
/// deterministic JSON: the same catalog and snapshot make the same bytes.
public struct CatalogPlan: Codable, Sendable, Equatable {
    public static let formatName = "iap-asc-plan"
    public static let currentVersion = 1
    /// A plan of more steps than this is not one `iap` made (10,000 products × 175 territories
    /// fit in steps of whole price lists).
    public static let maxSteps = 200_000

    public var format = CatalogPlan.formatName
    public var version = CatalogPlan.currentVersion
    public var app: ASCSnapshot.App
    public var against: Against
    public var steps: [Step]
    public var blocked: [Blocked]

    public init(app: ASCSnapshot.App, against: Against, steps: [Step], blocked: [Blocked]) {
        self.app = app
        self.against = against
        self.steps = steps
        self.blocked = blocked
    }

    /// The state the plan was made against: the snapshot's fingerprint, and how it was pulled,
    /// so `apply` reads App Store Connect again the same way and compares.
    public struct Against: Codable, Sendable, Equatable {
        /// `ASCSnapshot.fingerprint` of the snapshot the plan was made against.
        public var fingerprint: String
        public var storefront: String?
        public var availability: Bool
        public var allStorefronts: Bool
        /// Whether it holds the subscriptions' promotional offers (true, or left out).
        public var promotionalOffers: Bool?
        /// Whether it holds the subscriptions' win-back offers (true, or left out).
        public var winBackOffers: Bool?
        /// Whether it holds the subscriptions' offer codes (true, or left out).
        public var offerCodes: Bool?

        public init(fingerprint: String, storefront: String?, availability: Bool, allStorefronts: Bool, promotionalOffers: Bool = false,
                    winBackOffers: Bool = false, offerCodes: Bool = false) {
            self.fingerprint = fingerprint
            self.storefront = storefront
            self.availability = availability
            self.allStorefronts = allStorefronts
            self.promotionalOffers = promotionalOffers ? true : nil
            self.winBackOffers = winBackOffers ? true : nil
            self.offerCodes = offerCodes ? true : nil
        }

        public init(_ snapshot: ASCSnapshot) {
            self.init(fingerprint: snapshot.fingerprint, storefront: snapshot.storefront, availability: snapshot.pulledAvailability,
                      allStorefronts: snapshot.pulledAllTerritories, promotionalOffers: snapshot.pulledPromotionalOffers,
                      winBackOffers: snapshot.pulledWinBackOffers, offerCodes: snapshot.pulledOfferCodes)
        }
    }

    /// One change, made by one write (a price list: one write per territory for a subscription).
    public struct Step: Codable, Sendable, Equatable {
        public enum Action: String, Codable, Sendable, CaseIterable {
            case createGroup = "create-group"
            case createProduct = "create-product"
            case updateProduct = "update-product"
            case createLocalization = "create-localization"
            case updateLocalization = "update-localization"
            case setPrices = "set-prices"
            case setAvailability = "set-availability"
            case setIntroductoryOffer = "set-introductory-offer"
            case createPromotionalOffer = "create-promotional-offer"
            case createWinBackOffer = "create-win-back-offer"
            case createOfferCode = "create-offer-code"
            case createCustomCode = "create-custom-code"

            /// The fields `set` may hold for this action.
            public var fields: Set<String> {
                switch self {
                case .createGroup: ["referenceName"]
                case .createProduct, .updateProduct: ["name", "reviewNote", "familySharable", "period", "groupLevel"]
                case .createLocalization, .updateLocalization: ["name", "description"]
                case .setPrices: [] // territory codes, `baseTerritory`, and `startDate` (a change scheduled ahead)
                case .setAvailability: ["territories", "newTerritories"]
                case .setIntroductoryOffer: ["mode", "duration", "periods", "price", "baseTerritory"]
                case .createPromotionalOffer: ["code", "name", "mode", "duration", "periods", "price", "baseTerritory"]
                case .createWinBackOffer: ["code", "name", "mode", "duration", "periods", "price", "baseTerritory", "paidMonths", "lapsedMinMonths",
                                           "lapsedMaxMonths", "waitMonths", "startDate", "endDate", "priority"]
                case .createOfferCode: ["name", "mode", "duration", "periods", "price", "baseTerritory", "customerEligibilities", "offerEligibility"]
                case .createCustomCode: ["name", "customCode", "numberOfCodes", "expirationDate"]
                }
            }
        }

        /// 1, 2, 3 … in the order they are made.
        public var number: Int
        public var action: Action
        /// The product ID (every action but `create-group`).
        public var product: String?
        /// The subscription group's reference name (`create-group`, and a subscription's `create-product`).
        public var group: String?
        /// `create-product`: `CONSUMABLE`, `NON_CONSUMABLE`, `NON_RENEWING_SUBSCRIPTION` or `AUTO_RENEWABLE`.
        public var type: String?
        /// The localization's locale.
        public var locale: String?
        /// What App Store Connect is to hold: field → value (a price list: territory → amount).
        public var set: [String: String]
        /// What it held when the plan was made, for the same fields; nil: the resource did not exist.
        public var before: [String: String]?
        /// Where the catalog says it (`path:line`), for findings.
        public var source: String?

        /// A `set-prices` step's territories, sorted: its keys but `baseTerritory` and `startDate`.
        public var priceTerritories: [String] {
            self.set.keys.filter { $0 != "baseTerritory" && $0 != "startDate" }.sorted()
        }

        public init(number: Int, action: Action, product: String? = nil, group: String? = nil, type: String? = nil, locale: String? = nil,
                    set: [String: String], before: [String: String]?, source: String? = nil) {
            self.number = number
            self.action = action
            self.product = product
            self.group = group
            self.type = type
            self.locale = locale
            self.set = set
            self.before = before
            self.source = source
        }
    }

    /// A difference the plan does not change, with why and what to do instead.
    public struct Blocked: Codable, Sendable, Equatable {
        public enum Level: String, Codable, Sendable {
            /// App Store Connect cannot make it true (a type change, a product ID in use): the catalog must change.
            case error
            /// Never done by `iap` (a removal), or not knowable from the snapshot: said, not done.
            case info
        }

        public var level: Level
        public var product: String?
        public var group: String?
        /// What is not done (`remove the product`, `change the type`).
        public var what: String
        /// Why, and what to do.
        public var reason: String
        public var source: String?

        public init(level: Level, product: String? = nil, group: String? = nil, what: String, reason: String, source: String? = nil) {
            self.level = level
            self.product = product
            self.group = group
            self.what = what
            self.reason = reason
            self.source = source
        }
    }

    /// The SHA-256 of `data`, in hexadecimal (a plan file's, for its journal).
    public static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The plan as its file holds it: pretty JSON, keys sorted, a final newline — the bytes
    /// Foundation's `JSONEncoder` gives (`.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`;
    /// `Codable` reads them back), written through `JSONWriter` without a tree of values: a plan of
    /// 10,000 products is 40,000 steps.
    public func encoded() -> String {
        var json = JSONWriter(capacity: 4096 + 260 * steps.count + 300 * blocked.count, style: .foundation)
        func string(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            json.key(key)
            json.string(value)
        }
        func fields(_ key: StaticString, _ values: [String: String]?) {
            guard let values else { return }
            json.key(key)
            json.openObject()
            for name in values.keys.sorted() {
                json.key(name)
                json.string(values[name]!)
            }
            json.closeObject()
        }
        json.openObject()
        json.key("against")
        json.openObject()
        json.key("allStorefronts"); json.bool(against.allStorefronts)
        json.key("availability"); json.bool(against.availability)
        string("fingerprint", against.fingerprint)
        if let pulled = against.offerCodes { json.key("offerCodes"); json.bool(pulled) }
        if let pulled = against.promotionalOffers { json.key("promotionalOffers"); json.bool(pulled) }
        string("storefront", against.storefront)
        if let pulled = against.winBackOffers { json.key("winBackOffers"); json.bool(pulled) }
        json.closeObject()
        json.key("app")
        json.openObject()
        string("bundleId", app.bundleId)
        string("id", app.id)
        string("name", app.name)
        json.closeObject()
        json.key("blocked")
        json.openArray()
        for entry in blocked {
            json.openObject()
            string("group", entry.group)
            string("level", entry.level.rawValue)
            string("product", entry.product)
            string("reason", entry.reason)
            string("source", entry.source)
            string("what", entry.what)
            json.closeObject()
        }
        json.closeArray()
        string("format", format)
        json.key("steps")
        json.openArray()
        for step in steps {
            json.openObject()
            string("action", step.action.rawValue)
            fields("before", step.before)
            string("group", step.group)
            string("locale", step.locale)
            json.key("number"); json.int(step.number)
            string("product", step.product)
            fields("set", step.set)
            string("source", step.source)
            string("type", step.type)
            json.closeObject()
        }
        json.closeArray()
        json.key("version"); json.int(version)
        json.closeObject()
        return json.finish()
    }

    /// Reads a plan file's bytes, every value checked as a snapshot's are: a plan edited by hand
    /// can name only what a plan `iap` makes could, or it is refused, naming the place.
    public static func decode(_ data: Data, path: String) throws(SnapshotError) -> CatalogPlan {
        let again = "make it again with `iap asc plan --plan \(Escape.shellArgument(path, path: true))`"
        if let syntax = JSONSyntax.firstError(in: [UInt8](data), integersIn64Bits: true) {
            throw SnapshotError(path: path, message: "not valid JSON (line \(syntax.line), column \(syntax.column): \(syntax.message)); \(again)")
        }
        struct Header: Decodable { var format: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            throw SnapshotError(path: path, message: "not an iap plan (\"format\" is not \"\(formatName)\"); \(again)")
        }
        guard header.version == currentVersion else {
            throw SnapshotError(path: path, message: "plan version \(header.version.map(String.init) ?? "missing") is not \(currentVersion), the one this iap reads; \(again)")
        }
        let plan: CatalogPlan
        do {
            plan = try JSONDecoder().decode(CatalogPlan.self, from: data)
        } catch let error as DecodingError {
            throw SnapshotError(path: path, message: "a field is missing or of the wrong type (\(ASCSnapshot.explain(error))); \(again)")
        } catch {
            throw SnapshotError(path: path, message: "cannot read the plan; \(again)")
        }
        if let problem = plan.firstProblem() {
            throw SnapshotError(path: path, message: "\(problem.at) \(problem.why); \(again)")
        }
        return plan
    }

    /// The first value a plan `iap` makes could not hold, with where.
    func firstProblem() -> (at: String, why: String)? {
        var check = ValueChecker()
        check.check(app.id, at: "app.id", ResourceID.problem)
        check.check(app.bundleId, at: "app.bundleId", ASCValue.productID)
        check.check(app.name, at: "app.name", ASCValue.text)
        check.check(against.fingerprint, at: "against.fingerprint") { $0.utf8.count == 64 && $0.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) } ? nil : "not a SHA-256 (64 hexadecimal digits)" }
        check.check(against.storefront, at: "against.storefront", ASCValue.code)
        if steps.count > Self.maxSteps { check.fail(at: "steps", "has \(steps.count) steps, more than the \(Self.maxSteps) a plan holds") }
        if blocked.count > Self.maxSteps { check.fail(at: "blocked", "has \(blocked.count) entries, more than \(Self.maxSteps)") }
        for (index, step) in steps.enumerated() where check.problem == nil {
            let at = "steps[\(index)]"
            if step.number != index + 1 { check.fail(at: "\(at).number", "is \(step.number), not \(index + 1): steps are numbered in order") }
            check.check(step.product, at: "\(at).product", ASCValue.productID)
            check.check(step.group, at: "\(at).group", ASCValue.text)
            check.check(step.type, at: "\(at).type") { ["CONSUMABLE", "NON_CONSUMABLE", "NON_RENEWING_SUBSCRIPTION", "AUTO_RENEWABLE"].contains($0) ? nil : "not a product type" }
            check.check(step.locale, at: "\(at).locale", ASCValue.locale)
            check.check(step.source, at: "\(at).source", ASCValue.text)
            if step.action != .createGroup, step.product == nil { check.fail(at: "\(at).product", "is missing: \(step.action.rawValue) is for a product") }
            if step.action == .createGroup, step.group == nil { check.fail(at: "\(at).group", "is missing: create-group names the group") }
            if step.action == .createProduct, step.type == nil { check.fail(at: "\(at).type", "is missing: create-product says the type") }
            if step.action == .createProduct, step.type == "AUTO_RENEWABLE", step.group == nil { check.fail(at: "\(at).group", "is missing: a subscription is created in a group") }
            if [.createLocalization, .updateLocalization].contains(step.action), step.locale == nil { check.fail(at: "\(at).locale", "is missing") }
            if step.set.isEmpty { check.fail(at: "\(at).set", "is empty: a step sets something") }
            for (name, value) in [("set", step.set), ("before", step.before ?? [:])] {
                for key in value.keys.sorted() where check.problem == nil {
                    let place = "\(at).\(name).\(key)"
                    let field = value[key]!
                    switch step.action {
                    case .setPrices:
                        if key == "baseTerritory" { check.check(field, at: place, ASCValue.code); continue }
                        if key == "startDate" { check.check(field, at: place, ASCValue.date); continue }
                        check.check(key, at: place, ASCValue.code)
                        check.check(field, at: place, ASCValue.price)
                    case .setAvailability:
                        guard step.action.fields.contains(key) else { check.fail(at: place, "is not a field \(step.action.rawValue) sets"); continue }
                        if key == "territories" {
                            if field != "all", field != "" {
                                for code in field.split(separator: ",", omittingEmptySubsequences: false) { check.check(String(code), at: place, ASCValue.code) }
                            }
                        } else {
                            check.check(field, at: place) { ["true", "false"].contains($0) ? nil : "not true or false" }
                        }
                    case .createCustomCode:
                        guard step.action.fields.contains(key) else { check.fail(at: place, "is not a field \(step.action.rawValue) sets"); continue }
                        switch key {
                        case "customCode": check.check(field, at: place) { CustomCodeText.problem($0) }
                        case "numberOfCodes": check.check(field, at: place) { Int($0).map { CustomCodeText.redemptions.contains($0) } == true ? nil : "not a number of redemptions (1 to 1000000)" }
                        case "expirationDate": check.check(field, at: place, ASCValue.date)
                        default: check.check(field, at: place) { $0.isEmpty ? "is empty" : ASCValue.text($0) }
                        }
                    case .setIntroductoryOffer, .createPromotionalOffer, .createWinBackOffer, .createOfferCode:
                        guard step.action.fields.contains(key) else { check.fail(at: place, "is not a field \(step.action.rawValue) sets"); continue }
                        switch key {
                        case "paidMonths", "lapsedMinMonths", "lapsedMaxMonths", "waitMonths":
                            check.check(field, at: place) { Int($0).map { ASCValue.months($0) } ?? "not a number of months" }
                        case "startDate", "endDate": check.check(field, at: place, ASCValue.date)
                        case "priority": check.check(field, at: place) { ["HIGH", "NORMAL"].contains($0) ? nil : "not HIGH or NORMAL" }
                        case "customerEligibilities":
                            check.check(field, at: place) { field in
                                let words = field.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                                return !words.isEmpty && words.count <= 3 && Set(words).count == words.count
                                    && words.allSatisfy(ASCValue.customerEligibilities.contains) ? nil : "not a list of NEW, EXISTING, EXPIRED"
                            }
                        case "offerEligibility":
                            check.check(field, at: place) { ASCValue.offerEligibilities.contains($0) ? nil : "not STACK_WITH_INTRO_OFFERS or REPLACE_INTRO_OFFERS" }
                        case "mode": check.check(field, at: place) { ASCValue.offerModes.contains($0) ? nil : "not an offer mode" }
                        case "duration": check.check(field, at: place) { ASCValue.offerDurations.contains($0) ? nil : "not an offer duration" }
                        case "periods": check.check(field, at: place) { Int($0).map { (1...12).contains($0) } == true ? nil : "not a number of periods (1 to 12)" }
                        case "price": check.check(field, at: place, ASCValue.price)
                        case "code", "name": check.check(field, at: place) { $0.isEmpty ? "is empty" : ASCValue.text($0) }
                        default: check.check(field, at: place, ASCValue.code)
                        }
                    default:
                        guard step.action.fields.contains(key) else { check.fail(at: place, "is not a field \(step.action.rawValue) sets"); continue }
                        switch key {
                        case "familySharable": check.check(field, at: place) { ["true", "false", ""].contains($0) ? nil : "not true or false" }
                        case "groupLevel": check.check(field, at: place) { $0.isEmpty || Int($0).map { ASCValue.groupLevel($0) } == .some(nil) ? nil : "not a group level" }
                        case "period": check.check(field, at: place) { $0.isEmpty ? nil : ASCValue.token($0) }
                        default: check.check(field, at: place, ASCValue.text)
                        }
                    }
                }
            }
            if [.setIntroductoryOffer, .createPromotionalOffer, .createWinBackOffer, .createOfferCode].contains(step.action), step.set["mode"] == nil || step.set["duration"] == nil || step.set["periods"] == nil {
                check.fail(at: "\(at).set", "lacks the offer's mode, duration or periods")
            }
            if [.createPromotionalOffer, .createWinBackOffer].contains(step.action), step.set["code"] == nil || step.set["name"] == nil {
                check.fail(at: "\(at).set", "lacks the offer's code or name")
            }
            if step.action == .createCustomCode, ["name", "customCode", "numberOfCodes"].contains(where: { step.set[$0] == nil }) {
                check.fail(at: "\(at).set", "lacks the custom code's offer code name, customCode or numberOfCodes")
            }
            if step.action == .createOfferCode, ["name", "customerEligibilities", "offerEligibility"].contains(where: { step.set[$0] == nil }) {
                check.fail(at: "\(at).set", "lacks the offer code's name, customerEligibilities or offerEligibility")
            }
            if step.action == .createWinBackOffer, ["paidMonths", "lapsedMinMonths", "lapsedMaxMonths", "startDate", "priority"].contains(where: { step.set[$0] == nil }) {
                check.fail(at: "\(at).set", "lacks the win-back offer's eligibility, start date or priority")
            }
            if step.action == .createWinBackOffer, let low = step.set["lapsedMinMonths"].flatMap({ Int($0) }),
               let high = step.set["lapsedMaxMonths"].flatMap({ Int($0) }), low > high {
                check.fail(at: "\(at).set.lapsedMinMonths", "is \(low), above lapsedMaxMonths \(high)")
            }
            let territories = step.priceTerritories.count
            if step.action == .setPrices, territories > 175 { check.fail(at: "\(at).set", "names \(territories) territories, more than App Store Connect has") }
        }
        for (index, entry) in blocked.enumerated() where check.problem == nil {
            check.check(entry.product, at: "blocked[\(index)].product", ASCValue.productID)
            check.check(entry.group, at: "blocked[\(index)].group", ASCValue.text)
            check.check(entry.what, at: "blocked[\(index)].what", ASCValue.text)
            check.check(entry.reason, at: "blocked[\(index)].reason", ASCValue.text)
            check.check(entry.source, at: "blocked[\(index)].source", ASCValue.text)
        }
        return check.problem
    }
}

extension ASCSnapshot {
    /// What the snapshot says of App Store Connect, as a SHA-256 in hexadecimal: its encoding
    /// without review states (App Store Connect moves those on its own, from waiting to in review
    /// to approved: a plan does not go stale by them) or a partial pull's list of work.
    public var fingerprint: String {
        var copy = self
        copy.pending = nil
        for i in copy.inAppPurchases.indices {
            copy.inAppPurchases[i].state = nil
            for l in copy.inAppPurchases[i].localizations.indices { copy.inAppPurchases[i].localizations[l].state = nil }
        }
        for g in copy.subscriptionGroups.indices {
            for l in (copy.subscriptionGroups[g].localizations ?? []).indices { copy.subscriptionGroups[g].localizations![l].state = nil }
            for s in copy.subscriptionGroups[g].subscriptions.indices {
                copy.subscriptionGroups[g].subscriptions[s].state = nil
                for l in copy.subscriptionGroups[g].subscriptions[s].localizations.indices {
                    copy.subscriptionGroups[g].subscriptions[s].localizations[l].state = nil
                }
            }
        }
        return CatalogPlan.sha256(Data(copy.encoded().utf8))
    }

    /// Whether the pull asked for each product's territories (`--availability`): some product's
    /// availability lists them, or no product has an availability to list.
    public var pulledAvailability: Bool {
        let reviews = inAppPurchases.map(\.review) + subscriptionGroups.flatMap { $0.subscriptions.map(\.review) }
        return reviews.contains { $0?.availability?.territories != nil }
    }

    /// Whether the pull asked for the subscriptions' promotional offers (`--promotional-offers`).
    public var pulledPromotionalOffers: Bool {
        subscriptionGroups.contains { $0.subscriptions.contains { $0.promotionalOffers != nil } }
    }

    /// Whether the pull asked for the subscriptions' win-back offers (`--win-back-offers`).
    public var pulledWinBackOffers: Bool {
        subscriptionGroups.contains { $0.subscriptions.contains { $0.winBackOffers != nil } }
    }

    /// Whether the pull asked for the subscriptions' offer codes (`--offer-codes`).
    public var pulledOfferCodes: Bool {
        subscriptionGroups.contains { $0.subscriptions.contains { $0.offerCodes != nil } }
    }

    /// Whether the pull asked for every territory's price (`--all-storefronts`).
    public var pulledAllTerritories: Bool {
        inAppPurchases.contains { $0.prices != nil } || subscriptionGroups.contains { $0.subscriptions.contains { $0.prices != nil } }
    }
}
