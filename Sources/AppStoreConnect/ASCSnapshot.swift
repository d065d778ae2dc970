import Diagnostics
import Foundation
import Support

/// What App Store Connect holds for one app's in-app purchases, as `iap asc pull --snapshot`
/// writes it: deterministic JSON (keys sorted, lists in a fixed order, no timestamp) that later
/// commands read offline and a repository can commit.
public struct ASCSnapshot: Codable, Sendable, Equatable {
    public static let formatName = "iap-asc-snapshot"
    /// The format of a snapshot whose pull stopped before it was done (`pending` says what is
    /// left): a name of its own, so no reader — this version's or an older one — takes it for a
    /// whole snapshot; `iap asc pull --resume` finishes it.
    public static let partialFormatName = "iap-asc-snapshot-partial"
    public static let currentVersion = 1

    public var format = ASCSnapshot.formatName
    public var version = ASCSnapshot.currentVersion
    public var app: App
    /// The storefront (alpha-3 territory) the prices and offers are for; nil when none were pulled.
    public var storefront: String?
    public var inAppPurchases: [InAppPurchase]
    public var subscriptionGroups: [SubscriptionGroup]
    /// What a partial snapshot still lacks; nil in a whole one.
    public var pending: [Pending]?

    /// Whether the pull that wrote it stopped before it was done.
    public var isPartial: Bool { pending != nil }

    /// One request's worth of what a partial snapshot lacks.
    public struct Pending: Codable, Sendable, Equatable, Hashable, Comparable {
        public enum Work: String, Codable, Sendable, Comparable {
            /// A subscription group's subscriptions (`id`: the group's).
            case subscriptions
            /// A product's localizations beyond those its list included (`id`: the product's).
            case localizations
            /// A product's price in the storefront.
            case price
            /// A subscription's introductory offer in the storefront.
            case introductoryOffer
            /// The territories a product is available in (`--availability`).
            case availability
            /// A product's price in every territory (`--all-storefronts`).
            case prices
            /// A subscription's promotional offers (`--promotional-offers`).
            case promotionalOffers
            /// A subscription's win-back offers (`--win-back-offers`).
            case winBackOffers
            /// A subscription's offer codes and their custom codes, when its list says it has any (`--offer-codes`).
            case offerCodes

            public static func < (a: Work, b: Work) -> Bool { a.rank < b.rank }
            private var rank: Int {
                switch self {
                case .subscriptions: 0
                case .localizations: 1
                case .price: 2
                case .introductoryOffer: 3
                case .availability: 4
                case .prices: 5
                case .promotionalOffers: 6
                case .winBackOffers: 7
                case .offerCodes: 8
                }
            }
        }

        public var work: Work
        /// The App Store Connect resource ID of the group or product.
        public var id: String

        public init(_ work: Work, _ id: String) {
            self.work = work
            self.id = id
        }

        public static func < (a: Pending, b: Pending) -> Bool { (a.work, a.id) < (b.work, b.id) }
    }

    public init(app: App, inAppPurchases: [InAppPurchase], subscriptionGroups: [SubscriptionGroup]) {
        self.app = app
        self.inAppPurchases = inAppPurchases
        self.subscriptionGroups = subscriptionGroups
    }

    public struct App: Codable, Sendable, Equatable {
        /// The Apple ID (App Store Connect's resource ID).
        public var id: String
        public var bundleId: String?
        public var name: String?

        public init(id: String, bundleId: String?, name: String?) {
            self.id = id
            self.bundleId = bundleId
            self.name = name
        }
    }

    /// A price as App Store Connect states it for the snapshot's storefront: the customer price
    /// as written (`"0.99"`, a `Decimal` when compared) and the territory's currency.
    public struct Price: Codable, Sendable, Equatable {
        public var amount: String
        public var currency: String?

        public init(amount: String, currency: String?) {
            self.amount = amount
            self.currency = currency
        }

        /// The amount, exactly.
        public var decimal: Decimal? { Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")) }
    }

    /// A product's price in each territory that has one, written one line a territory
    /// (`"CAN": "1.39 CAD"`): 175 territories of 1,000 products stay a file one can read and diff.
    public struct TerritoryPrices: Codable, Sendable, Equatable {
        public var byTerritory: [String: Price]

        public init(_ byTerritory: [String: Price]) {
            self.byTerritory = byTerritory
        }

        public subscript(territory: String) -> Price? { byTerritory[territory] }

        public init(from decoder: any Decoder) throws {
            let written = try decoder.singleValueContainer().decode([String: String].self)
            byTerritory = written.mapValues { text in
                // The amount, a space, the currency; each is checked as every snapshot value is (`firstProblem`).
                guard let space = text.firstIndex(of: " ") else { return Price(amount: text, currency: nil) }
                return Price(amount: String(text[..<space]), currency: String(text[text.index(after: space)...]))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(byTerritory.mapValues { price in price.currency.map { "\(price.amount) \($0)" } ?? price.amount })
        }
    }

    /// A product's prices to come in each territory where a change is scheduled (App Store
    /// Connect lists a price with a later start date with today's): one line a territory, each
    /// the day the price starts then the price, in the order they start
    /// (`"CAN": "2027-01-15 1.49 CAD, 2027-06-01 1.99 CAD"`).
    public struct ScheduledPrices: Codable, Sendable, Equatable {
        public struct Scheduled: Sendable, Equatable {
            /// `YYYY-MM-DD`.
            public var start: String
            public var price: Price

            public init(start: String, price: Price) {
                self.start = start
                self.price = price
            }
        }

        public var byTerritory: [String: [Scheduled]]

        public init(_ byTerritory: [String: [Scheduled]]) {
            self.byTerritory = byTerritory
        }

        public subscript(territory: String) -> [Scheduled]? { byTerritory[territory] }

        public init(from decoder: any Decoder) throws {
            let written = try decoder.singleValueContainer().decode([String: String].self)
            byTerritory = written.mapValues { text in
                // Each: the day, a space, the price as `TerritoryPrices` writes it; each part is
                // checked as every snapshot value is.
                text.components(separatedBy: ", ").map { item in
                    let parts = item.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
                    return Scheduled(start: parts[0], price: Price(amount: parts.count > 1 ? parts[1] : "", currency: parts.count > 2 ? parts[2] : nil))
                }
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(byTerritory.mapValues { entries in
                entries.map { "\($0.start) \($0.price.amount)" + ($0.price.currency.map { " \($0)" } ?? "") }.joined(separator: ", ")
            })
        }

        /// Whether `amount` is scheduled to start on `start` in `territory`.
        public func holds(_ territory: String, _ amount: Decimal?, from start: String) -> Bool {
            byTerritory[territory]?.contains { $0.start == start && $0.price.decimal == amount } ?? false
        }
    }

    /// One of a subscription's promotional offers (its prices are not kept).
    public struct PromotionalOffer: Codable, Sendable, Equatable {
        /// The identifier the app signs (App Store Connect's `offerCode`).
        public var code: String
        /// Its reference name.
        public var name: String?
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
        public var mode: String?
        /// `THREE_DAYS` … `ONE_YEAR`.
        public var duration: String?
        public var periods: Int?

        public init(code: String, name: String?, mode: String?, duration: String?, periods: Int?) {
            self.code = code
            self.name = name
            self.mode = mode
            self.duration = duration
            self.periods = periods
        }
    }

    /// One of a subscription's offer codes: the campaign, known by its reference name, with its
    /// custom codes (its prices and one-time-use codes are not kept).
    public struct OfferCode: Codable, Sendable, Equatable {
        /// Its reference name (App Store Connect's `name`).
        public var name: String
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
        public var mode: String?
        /// `THREE_DAYS` … `ONE_YEAR`.
        public var duration: String?
        public var periods: Int?
        /// Who may redeem it: `NEW`, `EXISTING`, `EXPIRED` (`customerEligibilities`).
        public var eligibilities: [String]?
        /// `STACK_WITH_INTRO_OFFERS` or `REPLACE_INTRO_OFFERS`.
        public var offerEligibility: String?
        /// Whether its codes can be redeemed (false once it is deactivated).
        public var active: Bool?
        /// App Store Connect's resource ID (what a custom code is made for).
        public var id: String?
        /// Its custom codes; nil in a snapshot an older `iap` wrote.
        public var customCodes: [CustomCode]?

        public init(name: String, mode: String?, duration: String?, periods: Int?, eligibilities: [String]?, offerEligibility: String?,
                    active: Bool?, id: String? = nil, customCodes: [CustomCode]? = nil) {
            self.id = id
            self.customCodes = customCodes
            self.name = name
            self.mode = mode
            self.duration = duration
            self.periods = periods
            self.eligibilities = eligibilities
            self.offerEligibility = offerEligibility
            self.active = active
        }
    }

    /// A custom code of an offer code: the word customers redeem, how many times, until when.
    public struct CustomCode: Codable, Sendable, Equatable {
        public var code: String
        public var numberOfCodes: Int?
        /// `YYYY-MM-DD`; nil: it does not expire.
        public var expirationDate: String?
        public var active: Bool?

        public init(code: String, numberOfCodes: Int?, expirationDate: String?, active: Bool?) {
            self.code = code
            self.numberOfCodes = numberOfCodes
            self.expirationDate = expirationDate
            self.active = active
        }
    }

    /// One of a subscription's win-back offers (its prices are not kept).
    public struct WinBackOffer: Codable, Sendable, Equatable {
        /// App Store Connect's offer identifier (`offerId`).
        public var offerId: String
        /// Its reference name.
        public var name: String?
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
        public var mode: String?
        /// `THREE_DAYS` … `ONE_YEAR`.
        public var duration: String?
        public var periods: Int?
        /// Who is eligible: months paid, at least; months since the subscription lapsed, from
        /// and to; months between two win-back offers.
        public var paidMonths: Int?
        public var lapsedMinMonths: Int?
        public var lapsedMaxMonths: Int?
        public var waitMonths: Int?
        public var startDate: String?
        public var endDate: String?
        /// `HIGH` or `NORMAL`.
        public var priority: String?

        public init(offerId: String, name: String?, mode: String?, duration: String?, periods: Int?, paidMonths: Int?, lapsedMinMonths: Int?,
                    lapsedMaxMonths: Int?, waitMonths: Int?, startDate: String?, endDate: String?, priority: String?) {
            self.offerId = offerId
            self.name = name
            self.mode = mode
            self.duration = duration
            self.periods = periods
            self.paidMonths = paidMonths
            self.lapsedMinMonths = lapsedMinMonths
            self.lapsedMaxMonths = lapsedMaxMonths
            self.waitMonths = waitMonths
            self.startDate = startDate
            self.endDate = endDate
            self.priority = priority
        }
    }

    /// A subscription's introductory offer in the snapshot's storefront.
    public struct IntroductoryOffer: Codable, Sendable, Equatable {
        /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
        public var mode: String
        /// `THREE_DAYS` … `ONE_YEAR`: each period of a pay-as-you-go offer, the whole of the others.
        public var duration: String?
        public var periods: Int?
        public var price: Price?

        public init(mode: String, duration: String?, periods: Int?, price: Price?) {
            self.mode = mode
            self.duration = duration
            self.periods = periods
            self.price = price
        }
    }

    /// Where a product is for sale: App Store Connect's availability resource. A product without
    /// one (nil in the snapshot, once pulled by an `iap` that reads it) is for sale nowhere.
    public struct Availability: Codable, Sendable, Equatable {
        /// The availability's resource ID (its territories are read through it).
        public var id: String
        /// Whether the product goes on sale in territories Apple adds later.
        public var availableInNewTerritories: Bool?
        /// The territories (alpha-3 codes, sorted); nil when the pull did not ask (`--availability`).
        public var territories: [String]?

        public init(id: String, availableInNewTerritories: Bool?, territories: [String]? = nil) {
            self.id = id
            self.availableInNewTerritories = availableInNewTerritories
            self.territories = territories
        }
    }

    /// What a product needs for review beyond its fields, as the pull found it: nil fields were
    /// not pulled (a snapshot written by an older `iap`).
    public struct Review: Codable, Sendable, Equatable {
        /// Whether the App Store review screenshot is uploaded.
        public var screenshot: Bool?
        /// Where it is for sale; nil with `screenshot` set: it has no availability.
        public var availability: Availability?

        public init(screenshot: Bool?, availability: Availability?) {
            self.screenshot = screenshot
            self.availability = availability
        }
    }

    /// A subscription group's localization (the group's display name customers see).
    public struct GroupLocalization: Codable, Sendable, Equatable {
        public var locale: String
        public var name: String?
        public var customAppName: String?
        public var state: String?

        public init(locale: String, name: String?, customAppName: String?, state: String?) {
            self.locale = locale
            self.name = name
            self.customAppName = customAppName
            self.state = state
        }
    }

    public struct Localization: Codable, Sendable, Equatable {
        public var locale: String
        public var name: String?
        public var description: String?
        public var state: String?

        public init(locale: String, name: String?, description: String?, state: String?) {
            self.locale = locale
            self.name = name
            self.description = description
            self.state = state
        }
    }

    /// A consumable, non-consumable or non-renewing subscription (`inAppPurchasesV2`).
    public struct InAppPurchase: Codable, Sendable, Equatable {
        public var productId: String
        public var id: String
        /// The reference name.
        public var name: String?
        /// `CONSUMABLE`, `NON_CONSUMABLE` or `NON_RENEWING_SUBSCRIPTION`, as App Store Connect says.
        public var type: String?
        /// The review state (`APPROVED`, `MISSING_METADATA`, …).
        public var state: String?
        public var familySharable: Bool?
        public var localizations: [Localization]
        /// The price in the snapshot's storefront.
        public var price: Price?
        /// The price in each territory that has one (alpha-3 code → price); nil when the pull did
        /// not ask (`--all-storefronts`), empty when it has none anywhere.
        public var prices: TerritoryPrices?
        /// The next price in each territory where a change is scheduled; nil when none is (or the
        /// pull did not ask for every territory's price).
        public var scheduledPrices: ScheduledPrices?
        /// The review screenshot and the availability; nil in a snapshot an older `iap` wrote.
        public var review: Review?
        /// The note for App Review; nil when it has none (or an older `iap` pulled it).
        public var reviewNote: String?

        public init(productId: String, id: String, name: String?, type: String?, state: String?, familySharable: Bool?,
                    localizations: [Localization], price: Price? = nil, prices: TerritoryPrices? = nil, review: Review? = nil,
                    reviewNote: String? = nil) {
            self.reviewNote = reviewNote
            self.price = price
            self.prices = prices
            self.review = review
            self.productId = productId
            self.id = id
            self.name = name
            self.type = type
            self.state = state
            self.familySharable = familySharable
            self.localizations = localizations
        }
    }

    public struct SubscriptionGroup: Codable, Sendable, Equatable {
        public var id: String
        public var referenceName: String?
        public var subscriptions: [Subscription]
        /// The group's localizations; nil in a snapshot an older `iap` wrote.
        public var localizations: [GroupLocalization]?

        public init(id: String, referenceName: String?, subscriptions: [Subscription], localizations: [GroupLocalization]? = nil) {
            self.localizations = localizations
            self.id = id
            self.referenceName = referenceName
            self.subscriptions = subscriptions
        }
    }

    /// An auto-renewable subscription.
    public struct Subscription: Codable, Sendable, Equatable {
        public var productId: String
        public var id: String
        public var name: String?
        public var state: String?
        /// `ONE_WEEK` … `ONE_YEAR`.
        public var period: String?
        /// 1 is the highest level of service in its group.
        public var groupLevel: Int?
        public var familySharable: Bool?
        public var localizations: [Localization]
        /// The price and introductory offer in the snapshot's storefront.
        public var price: Price?
        public var introductoryOffer: IntroductoryOffer?
        /// The price in each territory that has one (alpha-3 code → price); nil when the pull did
        /// not ask (`--all-storefronts`), empty when it has none anywhere.
        public var prices: TerritoryPrices?
        /// The next price in each territory where a change is scheduled; nil when none is (or the
        /// pull did not ask for every territory's price).
        public var scheduledPrices: ScheduledPrices?
        /// The review screenshot and the availability; nil in a snapshot an older `iap` wrote.
        public var review: Review?
        /// The note for App Review; nil when it has none (or an older `iap` pulled it).
        public var reviewNote: String?
        /// Its promotional offers; nil when the pull did not ask (`--promotional-offers`).
        public var promotionalOffers: [PromotionalOffer]?
        /// Its win-back offers; nil when the pull did not ask (`--win-back-offers`).
        public var winBackOffers: [WinBackOffer]?
        /// Its offer codes; nil when the pull did not ask (`--offer-codes`).
        public var offerCodes: [OfferCode]?

        public init(productId: String, id: String, name: String?, state: String?, period: String?, groupLevel: Int?,
                    familySharable: Bool?, localizations: [Localization], price: Price? = nil, introductoryOffer: IntroductoryOffer? = nil,
                    prices: TerritoryPrices? = nil, review: Review? = nil, reviewNote: String? = nil) {
            self.reviewNote = reviewNote
            self.price = price
            self.prices = prices
            self.review = review
            self.introductoryOffer = introductoryOffer
            self.productId = productId
            self.id = id
            self.name = name
            self.state = state
            self.period = period
            self.groupLevel = groupLevel
            self.familySharable = familySharable
            self.localizations = localizations
        }
    }

    /// Lists in a fixed order whatever order App Store Connect answered in.
    public mutating func sort() {
        for i in inAppPurchases.indices {
            inAppPurchases[i].localizations.sort { $0.locale < $1.locale }
            inAppPurchases[i].review?.availability?.territories?.sort()
        }
        inAppPurchases.sort { ($0.productId, $0.id) < ($1.productId, $1.id) }
        for g in subscriptionGroups.indices {
            for s in subscriptionGroups[g].subscriptions.indices {
                subscriptionGroups[g].subscriptions[s].localizations.sort { $0.locale < $1.locale }
                subscriptionGroups[g].subscriptions[s].review?.availability?.territories?.sort()
                subscriptionGroups[g].subscriptions[s].promotionalOffers?.sort { ($0.code, $0.name ?? "") < ($1.code, $1.name ?? "") }
                subscriptionGroups[g].subscriptions[s].winBackOffers?.sort { ($0.offerId, $0.startDate ?? "") < ($1.offerId, $1.startDate ?? "") }
                subscriptionGroups[g].subscriptions[s].offerCodes?.sort { ($0.name, $0.mode ?? "", $0.duration ?? "") < ($1.name, $1.mode ?? "", $1.duration ?? "") }
                for c in subscriptionGroups[g].subscriptions[s].offerCodes?.indices ?? 0..<0 {
                    subscriptionGroups[g].subscriptions[s].offerCodes?[c].customCodes?.sort { ($0.code, $0.expirationDate ?? "") < ($1.code, $1.expirationDate ?? "") }
                }
            }
            subscriptionGroups[g].localizations?.sort { $0.locale < $1.locale }
            subscriptionGroups[g].subscriptions.sort { ($0.groupLevel ?? .max, $0.productId, $0.id) < ($1.groupLevel ?? .max, $1.productId, $1.id) }
        }
        subscriptionGroups.sort { ($0.referenceName ?? "", $0.id) < ($1.referenceName ?? "", $1.id) }
        pending?.sort()
    }

    /// Every product ID the snapshot holds.
    public var productCount: Int { inAppPurchases.count + subscriptionGroups.reduce(0) { $0 + $1.subscriptions.count } }

    /// The snapshot as the file holds it: pretty JSON, keys sorted, a final newline.
    public func encoded() -> String {
        var copy = self
        copy.sort()
        copy.format = pending == nil ? Self.formatName : Self.partialFormatName
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and booleans only: encoding cannot fail.
        let data = try! encoder.encode(copy)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a snapshot file's bytes, through the same checks as a pull's answers (`ASCValue`);
    /// the error says what is wrong and where. A partial snapshot is refused unless `partial`
    /// (`pull --resume`): compared, it would report every product it lacks as drift.
    public static func decode(_ data: Data, path: String, partial: Bool = false) throws(SnapshotError) -> ASCSnapshot {
        let shown = Escape.shellArgument(path, path: true)
        if let syntax = JSONSyntax.firstError(in: [UInt8](data), integersIn64Bits: true) {
            throw SnapshotError(path: path, message: "not valid JSON (line \(syntax.line), column \(syntax.column): \(syntax.message)); "
                                + "write one with `iap asc pull --snapshot \(shown)`")
        }
        struct Header: Decodable { var format: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw SnapshotError(path: path, message: "not a JSON object with a format and a version; write one with `iap asc pull --snapshot \(shown)`")
        }
        if header.format == partialFormatName, !partial {
            throw SnapshotError(path: path, message: "a partial snapshot: its pull stopped before it was done, so it lacks products or prices; "
                                + "finish it with `iap asc pull --resume --snapshot \(shown)`")
        }
        guard header.format == formatName || header.format == partialFormatName else {
            throw SnapshotError(path: path, message: "not an iap App Store Connect snapshot (\"format\" is not \"\(formatName)\")")
        }
        guard header.version == currentVersion else {
            throw SnapshotError(path: path, message: "snapshot version \(header.version.map(String.init) ?? "missing") is not \(currentVersion), the one this iap reads; pull it again")
        }
        var snapshot: ASCSnapshot
        do {
            snapshot = try JSONDecoder().decode(ASCSnapshot.self, from: data)
        } catch let error as DecodingError {
            throw SnapshotError(path: path, message: Self.explain(error))
        } catch {
            throw SnapshotError(path: path, message: "cannot read the snapshot")
        }
        // The format says whether it is partial; a whole one with a list of what it lacks is not one.
        if header.format == formatName, snapshot.pending != nil {
            throw SnapshotError(path: path, message: "pending is set but the format is \"\(formatName)\"; pull it again")
        }
        if header.format == partialFormatName, snapshot.pending == nil { snapshot.pending = [] }
        if let problem = snapshot.firstProblem() {
            throw SnapshotError(path: path, message: "\(problem.at) \(problem.why); pull it again with `iap asc pull --snapshot \(shown)`")
        }
        return snapshot
    }

    /// Where a decoding error is, as a path into the file (`.inAppPurchases[2].id is missing`).
    static func explain(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(at(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(at(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return "invalid JSON at \(at(context.codingPath))"
        @unknown default: return "cannot read the snapshot"
        }
    }
}

public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }
}
