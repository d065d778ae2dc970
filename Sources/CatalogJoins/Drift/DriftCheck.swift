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

    /// A product as App Store Connect holds it.
    struct Remote {
        var kind: ProductKind
        var state: String?
        var period: String?
        var group: String?
        var level: Int?
        var familySharable: Bool?
        var localizations: [ASCSnapshot.Localization]
        var price: ASCSnapshot.Price?
        var offer: ASCSnapshot.IntroductoryOffer?
    }

    var remotes: [(id: String, remote: Remote)] {
        snapshot.inAppPurchases.map { p in
            let kind: ProductKind = switch p.type {
            case "CONSUMABLE": .consumable
            case "NON_RENEWING_SUBSCRIPTION": .nonRenewing
            default: .nonConsumable
            }
            return (p.productId, Remote(kind: kind, state: p.state, familySharable: p.familySharable, localizations: p.localizations, price: p.price))
        } + snapshot.subscriptionGroups.flatMap { g in
            g.subscriptions.map { s in
                (s.productId, Remote(kind: .autoRenewable, state: s.state, period: s.period, group: g.referenceName, level: s.groupLevel,
                                     familySharable: s.familySharable, localizations: s.localizations, price: s.price,
                                     offer: s.introductoryOffer))
            }
        }
    }

    public func location(of productID: String) -> SourceLocation { lines[productID] ?? SourceLocation(path: path) }

    /// The app as findings name it: its name, quoted bounded with control characters escaped
    /// (a snapshot is a file anyone can change), or its bundle ID or Apple ID.
    private var appName: String {
        snapshot.app.name.map { Quote.escaped($0) } ?? snapshot.app.bundleId.map { Quote.escaped($0) } ?? "Apple ID \(snapshot.app.id)"
    }

    /// The findings for one catalog (the app's), each rule's capped at `findingsPerRule` (the
    /// first ones in output order and a summary of the rest; nil keeps all), like every rule's.
    public func check(_ catalog: Catalog, findingsPerRule: Int? = 100) -> [Diagnostic] {
        var missing = FindingCollector(limit: findingsPerRule)
        var notReady = FindingCollector(limit: findingsPerRule)
        var drift = FindingCollector(limit: findingsPerRule)
        var extra = FindingCollector(limit: findingsPerRule)
        var byID: [String: Remote] = [:]
        let remotes = self.remotes
        for (id, remote) in remotes where byID[id] == nil { byID[id] = remote }
        var listed: Set<String> = []
        for product in catalog.products {
            listed.insert(product.id)
            let here = product.location
            guard let remote = byID[product.id] else {
                missing.add(at: here) {
                    ASCMissingProductRule.description.finding(
                        "\(Quote.bounded(product.id)) is not in App Store Connect (app \(appName), \(path)): a product request for it returns nothing",
                        at: here, fix: SuggestedFix("create it in App Store Connect, or remove it from the catalog"))
                }
                continue
            }
            let there = location(of: product.id)
            if let state = remote.state, let why = ASCProductNotReadyRule.notServed[state] {
                notReady.add(at: here) {
                    ASCProductNotReadyRule.description.finding(
                        "\(Quote.bounded(product.id)) is \(state) in App Store Connect (\(there)): \(why), so StoreKit does not return it",
                        at: here, related: [RelatedLocation(there, "App Store Connect's state")],
                        fix: SuggestedFix("complete or resubmit the product in App Store Connect, then pull the snapshot again"))
                }
            }
            for difference in differences(product, remote) {
                drift.add(at: here) {
                    ASCDriftRule.description.finding(
                        "\(Quote.bounded(product.id)): \(difference.field) is \(difference.here) here (\(difference.at)) but \(difference.there) in App Store Connect (\(there))",
                        at: here, related: [RelatedLocation(there, "in App Store Connect")],
                        fix: SuggestedFix(difference.fix ?? "change one to match the other; App Store Connect is what StoreKit serves"))
                }
            }
        }
        for (id, _) in remotes where !listed.contains(id) && catalog.retiredIDs[id] == nil {
            listed.insert(id)
            let there = location(of: id)
            extra.add(at: there) {
                ASCExtraProductRule.description.finding(
                    "\(Quote.escaped(id)) is in App Store Connect (app \(appName)) but in no catalog file: the app never asks for it",
                    at: there, fix: SuggestedFix("add it to the catalog, or list it in RetiredProductIDs.plist if it is retired"))
            }
        }
        return missing.findings(of: ASCMissingProductRule.description) + notReady.findings(of: ASCProductNotReadyRule.description)
            + drift.findings(of: ASCDriftRule.description) + extra.findings(of: ASCExtraProductRule.description)
    }

    struct Difference {
        var field: String
        var here: String
        var at: SourceLocation
        var there: String
        /// What to do, where it is not "change one to match the other".
        var fix: String?
    }

    private func differences(_ product: Product, _ remote: Remote) -> [Difference] {
        var found: [Difference] = []
        let metadata = product.metadata
        if case .declared(let at, _) = product.kindReason, let kind = product.kind, kind != remote.kind {
            found.append(Difference(field: "the kind", here: kind.displayName, at: at, there: remote.kind.displayName))
        }
        if let period = metadata.subscriptionPeriod, let name = remote.period, let theirs = Self.period(name),
           Self.normalized(period.value) != theirs {
            found.append(Difference(field: "the subscription period", here: period.value.description, at: period.location,
                                    there: "\(theirs) (\(name))"))
        }
        if let group = metadata.subscriptionGroup, let theirs = remote.group,
           group.value.trimmingCharacters(in: .whitespaces) != theirs.trimmingCharacters(in: .whitespaces) {
            found.append(Difference(field: "the subscription group", here: Quote.bounded(group.value), at: group.location, there: Quote.escaped(theirs)))
        }
        if let level = metadata.groupLevel, let theirs = remote.level, level.value != theirs {
            found.append(Difference(field: "the group level", here: "\(level.value)", at: level.location, there: "\(theirs)"))
        }
        if let shared = metadata.familyShareable, let theirs = remote.familySharable, shared != theirs {
            found.append(Difference(field: "family sharing", here: shared ? "on" : "off", at: product.location, there: theirs ? "on" : "off"))
        }
        if let storefront = snapshot.storefront, let theirs = remote.price, let currency = theirs.currency, let amount = theirs.decimal,
           let mine = metadata.price(in: storefront, currency: currency), mine.value.amount != amount || mine.value.currency.map({ $0 != currency }) == true {
            found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount) \(mine.value.currency ?? currency)",
                                    at: mine.location, there: "\(amount) \(currency)"))
        } else if let storefront = snapshot.storefront, remote.price == nil, let currency = try? Storefronts.find(storefront).currency,
                  let mine = metadata.price(in: storefront, currency: currency) {
            // Pulled for this storefront and none there: no price schedule yet, or none in effect today.
            found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount) \(mine.value.currency ?? currency)",
                                    at: mine.location, there: "none (no price in \(storefront) today)",
                                    fix: "set its price in App Store Connect (Pricing and Availability), then pull the snapshot again: "
                                        + "StoreKit does not sell a product without a price"))
        }
        if snapshot.storefront != nil, remote.kind == .autoRenewable, let mine = metadata.introductoryOffer {
            let theirs = remote.offer.flatMap(Self.offer)
            if let theirs, theirs != Self.offerText(mine) {
                found.append(Difference(field: "the introductory offer", here: Self.offerText(mine), at: mine.location, there: theirs))
            } else if theirs == nil, remote.offer == nil {
                found.append(Difference(field: "the introductory offer", here: Self.offerText(mine), at: mine.location,
                                        there: "none in \(snapshot.storefront!)"))
            }
        }
        var theirLocales: [String: ASCSnapshot.Localization] = [:]
        for l in remote.localizations { theirLocales[Localization.key(l.locale)] = l }
        for local in metadata.localizations {
            guard let theirs = theirLocales[Localization.key(local.locale)] else {
                if !remote.localizations.isEmpty {
                    found.append(Difference(field: "the \(local.locale) localization", here: "present", at: local.location, there: "absent"))
                }
                continue
            }
            let pairs = [("display name", local.displayName, theirs.name), ("description", local.description, theirs.description)]
            for (field, mine, other) in pairs {
                guard let mine, let other, mine.trimmingCharacters(in: .whitespacesAndNewlines) != other.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
                found.append(Difference(field: "the \(local.locale) \(field)", here: Quote.bounded(mine), at: local.location, there: Quote.escaped(other)))
            }
        }
        return found
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
