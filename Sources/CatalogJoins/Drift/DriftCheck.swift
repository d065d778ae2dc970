import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

/// Compares a catalog with what App Store Connect holds for its app (a snapshot), product by
/// product: the drift rules' findings, each naming both places.
///
/// Only what the catalog states is compared: a kind the catalog infers from an ID's words, a
/// period or group it does not give, a locale it does not localize are not drift. Localizations
/// are compared in locales the catalog has (`en_US` and `en-US` are one); App Store Connect may
/// hold more.
public struct DriftCheck: Sendable {
    public let snapshot: ASCSnapshot
    /// The snapshot file as given, for the findings' locations.
    public let path: String
    private let lines: [String: SourceLocation]

    /// `text`: the snapshot file's text, to point at each product's line in it.
    public init(snapshot: ASCSnapshot, path: String, text: String) {
        self.snapshot = snapshot
        self.path = path
        self.lines = Self.productLines(text, path: path)
    }

    /// Where each `"productId"` of the snapshot file is (the file as `pull` writes it: one per line).
    static func productLines(_ text: String, path: String) -> [String: SourceLocation] {
        var found: [String: SourceLocation] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let key = line.range(of: "\"productId\"") else { continue }
            let rest = line[key.upperBound...].drop { $0 == " " || $0 == "\t" }
            guard rest.first == ":" else { continue }
            // The JSON string literal: to the first quote no backslash escapes.
            let literal = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard literal.first == "\"" else { continue }
            var end = literal.index(after: literal.startIndex)
            var escaped = false
            while end < literal.endIndex, escaped || literal[end] != "\"" {
                escaped = !escaped && literal[end] == "\\"
                end = literal.index(after: end)
            }
            guard end < literal.endIndex else { continue }
            let value = literal[...end]
            guard let id = (try? JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)) as? String else { continue }
            let column = line.distance(from: line.startIndex, to: key.lowerBound) + 1
            if found[id] == nil { found[id] = SourceLocation(path: path, line: index + 1, column: column) }
        }
        return found
    }

    /// Storefronts in a sentence: `JPN`, `JPN and KOR`, `BRA, CHN, … and 12 more` (eight named at most).
    static func sentence(_ storefronts: [String]) -> String {
        let shown = 8
        guard storefronts.count > 1 else { return storefronts.first ?? "" }
        if storefronts.count <= shown { return storefronts.dropLast().joined(separator: ", ") + " and " + storefronts.last! }
        return storefronts.prefix(shown).joined(separator: ", ") + " and \(storefronts.count - shown) more"
    }

    /// The states in which App Store Connect holds a product StoreKit does not return.
    public static let notServed: [String: String] = [
        "MISSING_METADATA": "its metadata is incomplete (a localization, a price or the review screenshot is missing)",
        "WAITING_FOR_UPLOAD": "its hosted content is not uploaded",
        "DEVELOPER_ACTION_NEEDED": "App Review asked for a change",
        "REJECTED": "App Review rejected it",
        "DEVELOPER_REMOVED_FROM_SALE": "it was removed from sale",
        "REMOVED_FROM_SALE": "it was removed from sale",
    ]

    /// A product as App Store Connect holds it.
    struct Remote {
        var kind: ProductKind
        /// The reference name and the review note (nil: none).
        var name: String? = nil
        var reviewNote: String? = nil
        var state: String?
        var period: String?
        var group: String?
        var level: Int?
        var familySharable: Bool?
        var localizations: [ASCSnapshot.Localization]
        var price: ASCSnapshot.Price?
        /// The price in each territory that has one; nil when not pulled (`--all-storefronts`).
        var prices: [String: ASCSnapshot.Price]?
        /// The prices to come in each territory where a change is scheduled (pulled with `prices`).
        var scheduled = ASCSnapshot.ScheduledPrices([:])
        var offer: ASCSnapshot.IntroductoryOffer?
        var review: ASCSnapshot.Review?
        /// A subscription's group's localizations (nil: not pulled, or an in-app purchase).
        var groupLocalizations: [ASCSnapshot.GroupLocalization]?
        /// A subscription's promotional offers (nil: not pulled, or an in-app purchase).
        var promotionalOffers: [ASCSnapshot.PromotionalOffer]? = nil
        /// A subscription's win-back offers (nil: not pulled, or an in-app purchase).
        var winBackOffers: [ASCSnapshot.WinBackOffer]? = nil
        /// A subscription's offer codes (nil: not pulled, or an in-app purchase).
        var offerCodes: [ASCSnapshot.OfferCode]? = nil
    }

    var remotes: [(id: String, remote: Remote)] {
        snapshot.inAppPurchases.map { p in
            let kind: ProductKind = switch p.type {
            case "CONSUMABLE": .consumable
            case "NON_RENEWING_SUBSCRIPTION": .nonRenewing
            default: .nonConsumable
            }
            return (p.productId, Remote(kind: kind, name: p.name, reviewNote: p.reviewNote, state: p.state, familySharable: p.familySharable,
                                        localizations: p.localizations, price: p.price, prices: p.prices?.byTerritory,
                                        scheduled: p.scheduledPrices ?? .init([:]), review: p.review))
        } + snapshot.subscriptionGroups.flatMap { g in
            g.subscriptions.map { s in
                (s.productId, Remote(kind: .autoRenewable, name: s.name, reviewNote: s.reviewNote, state: s.state, period: s.period, group: g.referenceName, level: s.groupLevel,
                                     familySharable: s.familySharable, localizations: s.localizations, price: s.price,
                                     prices: s.prices?.byTerritory, scheduled: s.scheduledPrices ?? .init([:]), offer: s.introductoryOffer, review: s.review, groupLocalizations: g.localizations,
                                     promotionalOffers: s.promotionalOffers, winBackOffers: s.winBackOffers, offerCodes: s.offerCodes))
            }
        }
    }

    /// `id` with the app's bundle prefix added, or taken off when it has it (`gold` and
    /// `com.acme.app.gold`): the ID a product request misses by that mistake; nil without a
    /// bundle ID, or when taking it off leaves nothing.
    static func bundlePrefixVariant(of id: String, bundle: String?) -> String? {
        guard let bundle, !bundle.isEmpty else { return nil }
        let prefix = bundle + "."
        let other = id.hasPrefix(prefix) ? String(id.dropFirst(prefix.count)) : prefix + id
        return other.isEmpty ? nil : other
    }

    public func location(of productID: String) -> SourceLocation { lines[productID] ?? SourceLocation(path: path) }

    /// The app as findings name it: its name, quoted bounded with control characters escaped
    /// (a snapshot is a file anyone can change), or its bundle ID or Apple ID.
    var appName: String {
        snapshot.app.name.map { Quote.escaped($0) } ?? snapshot.app.bundleId.map { Quote.escaped($0) } ?? "Apple ID \(snapshot.app.id)"
    }

    /// The findings for one catalog (the app's), each rule's capped at `findingsPerRule` (the
    /// first ones in output order and a summary of the rest; nil keeps all), like every rule's:
    /// each drift rule of `ASCRules.rules` in turn, over the catalog and the snapshot side by side.
    public func check(_ catalog: Catalog, findingsPerRule: Int? = 100) -> [Diagnostic] {
        check(catalog, rules: ASCRules.rules, findingsPerRule: findingsPerRule)
    }

    /// The findings of `rules` alone.
    func check(_ catalog: Catalog, rules: [any DriftRule.Type], findingsPerRule: Int?) -> [Diagnostic] {
        let join = DriftJoin(catalog: catalog, drift: self)
        return rules.flatMap { rule in
            var found = FindingCollector(limit: findingsPerRule)
            rule.check(join, into: &found)
            return found.findings(of: rule.description)
        }
    }

    /// An offer as both sides are compared: mode, each period, how many, and the price.
    static func offerText(_ offer: IntroductoryOffer) -> String {
        offerText(offer.paymentMode, normalized(offer.period), offer.numberOfPeriods, offer.price)
    }

    static func offerText(_ mode: PaymentMode, _ period: SubscriptionPeriod, _ periods: Int, _ price: Decimal?) -> String {
        var text = "\(mode.rawValue) \(period)"
        if periods != 1 { text += " × \(periods)" }
        if mode != .freeTrial, let price { text += " at \(price)" }
        return text
    }

    /// App Store Connect's offer in the same words; nil when its mode or duration is unknown here.
    static func offer(_ offer: ASCSnapshot.IntroductoryOffer) -> String? {
        let mode: PaymentMode
        switch offer.mode {
        case "FREE_TRIAL": mode = .freeTrial
        case "PAY_AS_YOU_GO": mode = .payAsYouGo
        case "PAY_UP_FRONT": mode = .payUpFront
        default: return nil
        }
        guard let name = offer.duration, let period = offerDuration(name) else { return nil }
        return offerText(mode, normalized(period), offer.periods ?? 1, offer.price?.decimal)
    }

    /// App Store Connect's offer durations.
    static func offerDuration(_ name: String) -> SubscriptionPeriod? {
        switch name {
        case "THREE_DAYS": SubscriptionPeriod(value: 3, unit: .day)
        case "TWO_WEEKS": SubscriptionPeriod(value: 2, unit: .week)
        default: period(name)
        }
    }

    /// App Store Connect's period names as ISO 8601 durations.
    static func period(_ name: String) -> SubscriptionPeriod? {
        switch name {
        case "ONE_WEEK": SubscriptionPeriod(value: 1, unit: .week)
        case "ONE_MONTH": SubscriptionPeriod(value: 1, unit: .month)
        case "TWO_MONTHS": SubscriptionPeriod(value: 2, unit: .month)
        case "THREE_MONTHS": SubscriptionPeriod(value: 3, unit: .month)
        case "SIX_MONTHS": SubscriptionPeriod(value: 6, unit: .month)
        case "ONE_YEAR": SubscriptionPeriod(value: 1, unit: .year)
        default: nil
        }
    }

    /// `P7D` is `P1W`, `P12M` is `P1Y`.
    static func normalized(_ period: SubscriptionPeriod) -> SubscriptionPeriod {
        if period.unit == .day, period.value % 7 == 0 { return SubscriptionPeriod(value: period.value / 7, unit: .week) }
        if period.unit == .month, period.value % 12 == 0 { return SubscriptionPeriod(value: period.value / 12, unit: .year) }
        return period
    }
}
