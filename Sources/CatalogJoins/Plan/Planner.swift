import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

/// `iap asc plan`: the declared catalog against a snapshot of App Store Connect, as the steps
/// that make App Store Connect hold what the catalog declares, and what is not done, with why.
///
/// Only what the catalog states is planned: a field it leaves out is left as App Store Connect
/// has it. Nothing is ever removed: a product, localization or territory App Store Connect has
/// and the catalog does not is said (info), never planned.
public struct Planner {
    public let snapshot: ASCSnapshot
    public let path: String
    private let drift: DriftCheck
    /// Each custom code App Store Connect has (its word in capitals), with its offer code and
    /// subscription: App Store Connect takes a word once in an app.
    private let customCodeOwners: [String: (code: String, campaign: String, product: String)]

    public init(snapshot: ASCSnapshot, path: String, text: String) {
        self.snapshot = snapshot
        self.path = path
        self.drift = DriftCheck(snapshot: snapshot, path: path, text: text)
        var owners: [String: (code: String, campaign: String, product: String)] = [:]
        for subscription in snapshot.subscriptionGroups.flatMap(\.subscriptions) {
            for campaign in subscription.offerCodes ?? [] {
                for custom in campaign.customCodes ?? [] where owners[custom.code.uppercased()] == nil {
                    owners[custom.code.uppercased()] = (custom.code, campaign.name, subscription.productId)
                }
            }
        }
        customCodeOwners = owners
    }

    /// The plan for `catalog` (the app's).
    public func plan(_ catalog: Catalog) -> CatalogPlan {
        var steps: [CatalogPlan.Step] = []
        var blocked: [CatalogPlan.Blocked] = []
        var customWords: [String: (campaign: String, product: String)] = [:]
        func add(_ action: CatalogPlan.Step.Action, product: String? = nil, group: String? = nil, type: String? = nil, locale: String? = nil,
                 set: [String: String], before: [String: String]?, at: SourceLocation?) {
            steps.append(CatalogPlan.Step(number: steps.count + 1, action: action, product: product, group: group, type: type, locale: locale,
                                          set: set, before: before, source: at.map(Self.source)))
        }
        /// Each declared localization App Store Connect lacks (created) or holds otherwise (updated);
        /// one it holds and the catalog does not is said, never removed.
        func planLocalizations(_ product: Product, theirs list: [ASCSnapshot.Localization]) {
            let theirs = Dictionary(list.map { (Localization.key($0.locale), $0) }) { first, _ in first }
            for localization in Self.onePerLocale(product.metadata.localizations) {
                guard !theirs.isEmpty, let existing = theirs[Localization.key(localization.locale)] else {
                    guard let name = Self.stated(localization.displayName) else {
                        blocked.append(CatalogPlan.Blocked(level: .error, product: product.id, what: "create the \(localization.locale) localization",
                                                           reason: "it has no displayName: App Store Connect needs one", source: Self.source(localization.location)))
                        continue
                    }
                    // App Store Connect's spelling: `en-US`, where a `.storekit` file writes `en_US`.
                    let locale = localization.locale.contains("_") ? localization.locale.replacingOccurrences(of: "_", with: "-") : localization.locale
                    add(.createLocalization, product: product.id, locale: locale,
                        set: ["name": name, "description": localization.description ?? ""], before: nil, at: localization.location)
                    continue
                }
                var set: [String: String] = [:]
                var before: [String: String] = [:]
                // A blank name or description states nothing (a `.storekit` file made in Xcode has
                // `""` until filled in): never a change that would blank App Store Connect's.
                if let name = Self.stated(localization.displayName), name != (existing.name ?? "") { (set["name"], before["name"]) = (name, existing.name ?? "") }
                if let text = Self.stated(localization.description), text != (existing.description ?? "") {
                    (set["description"], before["description"]) = (text, existing.description ?? "")
                }
                if !set.isEmpty {
                    add(.updateLocalization, product: product.id, locale: existing.locale, set: set, before: before, at: localization.location)
                }
            }
            guard !list.isEmpty, !product.metadata.localizations.isEmpty else { return }
            let declared = Set(product.metadata.localizations.map { Localization.key($0.locale) })
            let extra = list.filter { !declared.contains(Localization.key($0.locale)) }.map(\.locale)
            if !extra.isEmpty {
                blocked.append(CatalogPlan.Blocked(level: .info, product: product.id, what: "remove the localizations \(extra.joined(separator: ", "))",
                                                   reason: "iap never deletes: remove them in App Store Connect by hand, or declare them",
                                                   source: Self.source(product.location)))
            }
        }
        let remoteList = drift.remotes
        let remotes = Dictionary(remoteList.map { ($0.id, $0.remote) }) { first, _ in first }
        let products = catalog.products.sorted { $0.id < $1.id }

        // 1. The groups the declared subscriptions need that App Store Connect lacks.
        let groupNames = Set(snapshot.subscriptionGroups.compactMap { $0.referenceName.map(Self.trimmed) })
        var newGroups: [String: SourceLocation] = [:]
        for product in products where remotes[product.id] == nil && product.metadata.kind?.value == .autoRenewable {
            if let group = product.metadata.subscriptionGroup, Self.stated(group.value) != nil, !groupNames.contains(Self.trimmed(group.value)),
               newGroups[Self.trimmed(group.value)] == nil {
                newGroups[Self.trimmed(group.value)] = group.location
            }
        }
        for name in newGroups.keys.sorted() {
            add(.createGroup, group: name, set: ["referenceName": name], before: nil, at: newGroups[name])
        }

        // 2. Each product: created, or its fields brought in line.
        for product in products {
            let m = product.metadata
            let at = product.location
            guard let remote = remotes[product.id] else {
                guard let kind = m.kind?.value, let name = Self.stated(m.referenceName?.value) else {
                    let missing = [m.kind == nil ? "kind" : nil, Self.stated(m.referenceName?.value) == nil ? "referenceName" : nil].compactMap { $0 }
                    blocked.append(CatalogPlan.Blocked(
                        level: product.hasMetadata ? .error : .info, product: product.id, what: "create the product",
                        reason: "App Store Connect has no \(product.id) and the catalog does not say its \(missing.joined(separator: " and ")): "
                            + "declare \(missing.count == 1 ? "it" : "them") in a metadata plist (docs/metadata.md) to have it created",
                        source: Self.source(at)))
                    continue
                }
                var fields = ["name": name]
                if let note = m.reviewNote?.value { fields["reviewNote"] = note }
                if let shared = m.familyShareable { fields["familySharable"] = shared ? "true" : "false" }
                var group: String?
                if kind == .autoRenewable {
                    guard let declared = Self.stated(m.subscriptionGroup?.value) else {
                        blocked.append(CatalogPlan.Blocked(level: .error, product: product.id, what: "create the subscription",
                                                           reason: "it has no subscriptionGroup: App Store Connect makes every subscription in a group",
                                                           source: Self.source(at)))
                        continue
                    }
                    group = Self.trimmed(declared)
                    if let period = m.subscriptionPeriod.flatMap({ Self.periodName($0.value) }) { fields["period"] = period }
                    if let level = m.groupLevel?.value { fields["groupLevel"] = "\(level)" }
                }
                add(.createProduct, product: product.id, group: group, type: Self.typeName(kind), set: fields, before: nil, at: at)
                planLocalizations(product, theirs: [])
                planPrices(product, kind: kind, remote: nil, add: &steps, blocked: &blocked)
                if let availability = m.availability {
                    add(.setAvailability, product: product.id, set: Self.fields(availability.value), before: nil, at: availability.location)
                }
                if kind == .autoRenewable {
                    planIntroductoryOffer(product, remote: nil, add: &steps, blocked: &blocked)
                    planPromotionalOffers(product, remote: nil, add: &steps, blocked: &blocked)
                    planWinBackOffers(product, remote: nil, add: &steps, blocked: &blocked)
                    planOfferCodes(product, remote: nil, add: &steps, blocked: &blocked, words: &customWords)
                }
                continue
            }
            // The product is in App Store Connect: what cannot change is blocked, the rest updated.
            if let kind = m.kind?.value, kind != remote.kind {
                blocked.append(CatalogPlan.Blocked(
                    level: .error, product: product.id, what: "change the type from \(remote.kind.displayName) to \(kind.displayName)",
                    reason: "App Store Connect never changes a product's type, and a product ID is never used again: give the \(kind.displayName) a new product ID",
                    source: Self.source(m.kind?.location ?? at)))
                continue
            }
            if let group = Self.stated(m.subscriptionGroup?.value), let theirs = remote.group, Self.trimmed(group) != Self.trimmed(theirs) {
                blocked.append(CatalogPlan.Blocked(
                    level: .error, product: product.id, what: "move it from the group \(Quote.escaped(theirs)) to \(Quote.bounded(group))",
                    reason: "App Store Connect does not move a subscription to another group: keep it in \(Quote.escaped(theirs)), or create a new product",
                    source: Self.source(m.subscriptionGroup?.location ?? at)))
            }
            var set: [String: String] = [:]
            var before: [String: String] = [:]
            func change(_ field: String, _ mine: String?, _ theirs: String?) {
                guard let mine, mine != (theirs ?? "") else { return }
                set[field] = mine
                before[field] = theirs ?? ""
            }
            // Blank text states nothing: it never blanks App Store Connect's.
            change("name", Self.stated(m.referenceName?.value), remote.name)
            change("reviewNote", Self.stated(m.reviewNote?.value), remote.reviewNote)
            if let shared = m.familyShareable, let theirs = remote.familySharable, shared != theirs {
                if theirs {
                    blocked.append(CatalogPlan.Blocked(level: .error, product: product.id, what: "turn Family Sharing off",
                                                       reason: "App Store Connect does not turn Family Sharing off once it is on: set familyShareable to true",
                                                       source: Self.source(at)))
                } else {
                    change("familySharable", "true", "false")
                }
            } else if let shared = m.familyShareable, remote.familySharable == nil, shared {
                change("familySharable", "true", nil)
            }
            if remote.kind == .autoRenewable {
                change("period", m.subscriptionPeriod.flatMap { Self.periodName($0.value) }, remote.period)
                change("groupLevel", m.groupLevel.map { "\($0.value)" }, remote.level.map { "\($0)" })
            }
            if !set.isEmpty { add(.updateProduct, product: product.id, set: set, before: before, at: at) }
            planLocalizations(product, theirs: remote.localizations)
            planPrices(product, kind: remote.kind, remote: remote, add: &steps, blocked: &blocked)
            if let availability = m.availability {
                planAvailability(product, availability, remote: remote, add: &steps, blocked: &blocked)
            }
            if remote.kind == .autoRenewable {
                planIntroductoryOffer(product, remote: remote, add: &steps, blocked: &blocked)
                planPromotionalOffers(product, remote: remote, add: &steps, blocked: &blocked)
                planWinBackOffers(product, remote: remote, add: &steps, blocked: &blocked)
                planOfferCodes(product, remote: remote, add: &steps, blocked: &blocked, words: &customWords)
            }
        }

        // 3. What App Store Connect has and the catalog does not: never removed, said.
        let declared = Set(catalog.products.map(\.id))
        for (id, _) in remoteList where !declared.contains(id) {
            blocked.append(CatalogPlan.Blocked(level: .info, product: id, what: "remove the product",
                                               reason: "it is in App Store Connect and in no catalog file; iap never deletes: remove it in App Store Connect by hand, "
                                                   + "or list it in RetiredProductIDs.plist",
                                               source: Self.source(drift.location(of: id))))
        }
        return CatalogPlan(app: snapshot.app, against: CatalogPlan.Against(snapshot), steps: steps, blocked: blocked)
    }

    // MARK: Prices and availability

    /// The prices the catalog declares: its base price in its territory, and each `prices` entry.
    private func planPrices(_ product: Product, kind: ProductKind, remote: DriftCheck.Remote?, add steps: inout [CatalogPlan.Step],
                            blocked: inout [CatalogPlan.Blocked]) {
        let m = product.metadata
        var wanted: [String: (amount: Decimal, at: SourceLocation)] = [:]
        var base: String?
        if let price = m.price {
            let territory = price.value.storefront ?? (price.value.currency == "USD" ? "USA" : nil)
            guard let territory else {
                blocked.append(CatalogPlan.Blocked(
                    level: .error, product: product.id, what: "set the price \(price.value)",
                    reason: "the catalog does not say which territory the price is for: add <key>storefront</key> to the metadata plist, "
                        + "or give the price in `prices` under a territory code",
                    source: Self.source(price.location)))
                return
            }
            wanted[territory] = (price.value.amount, price.location)
            base = territory
        }
        for price in m.storefrontPrices {
            guard let territory = price.value.storefront else { continue }
            wanted[territory] = (price.value.amount, price.location)
        }
        guard !wanted.isEmpty else { return }
        let baseTerritory = base ?? (wanted["USA"] != nil ? "USA" : wanted.keys.min()!)
        let at = wanted[baseTerritory]!.at
        // What App Store Connect has in each territory, when the snapshot says.
        var known: [String: Decimal] = [:]
        var unknown: [String] = []
        if let remote {
            for territory in wanted.keys.sorted() {
                if let prices = remote.prices {
                    if let amount = prices[territory]?.decimal { known[territory] = amount }
                } else if territory == snapshot.storefront {
                    if let amount = remote.price?.decimal { known[territory] = amount }
                } else {
                    unknown.append(territory)
                }
            }
        }
        if !unknown.isEmpty {
            blocked.append(CatalogPlan.Blocked(
                level: .info, product: product.id, what: "set the price in \(unknown.joined(separator: ", "))",
                reason: "the snapshot has no prices there: pull it with --all-storefronts (`iap asc pull --all-storefronts`) to plan prices",
                source: Self.source(at)))
            return
        }
        var set = wanted.mapValues { Self.amountText($0.amount) }
        if let start = m.priceStartDate {
            // A change scheduled ahead: it changes a price App Store Connect has, and is done
            // once App Store Connect holds the price from that day (or already holds it).
            func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
                blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "change the price from \(start.value)", reason: reason,
                                                   source: Self.source(start.location)))
            }
            guard let remote, !(remote.prices?.isEmpty ?? false), remote.prices != nil || remote.price != nil else {
                return block(.error, "App Store Connect has no price for it, and a product's first price starts the day it is set: "
                             + "remove priceStartDate to price it now, and give a later change a start date")
            }
            guard remote.prices != nil else {
                return block(.info, "the snapshot has no scheduled prices: pull it with --all-storefronts (`iap asc pull --all-storefronts`) to plan a change with a start date")
            }
            let scheduled = { (territory: String, amount: Decimal) in
                remote.scheduled.holds(territory, amount, from: start.value)
            }
            if wanted.allSatisfy({ known[$0.key] == $0.value.amount || scheduled($0.key, $0.value.amount) }) { return }
            set["startDate"] = start.value
        } else if remote != nil && wanted.allSatisfy({ known[$0.key] == $0.value.amount }) {
            return
        }
        // An in-app purchase's schedule has a base territory; a new subscription's other
        // territories are equalized from its base price.
        let hasNone = remote == nil || (remote?.prices?.isEmpty ?? false)
        if kind != .autoRenewable || hasNone { set["baseTerritory"] = baseTerritory }
        let before: [String: String]? = remote == nil ? nil : known.mapValues(Self.amountText)
        steps.append(CatalogPlan.Step(number: steps.count + 1, action: .setPrices, product: product.id, set: set, before: before,
                                      source: Self.source(at)))
    }

    // MARK: Introductory offers

    /// The declared introductory offer, made in every territory the subscription has a price in
    /// when App Store Connect has none in the snapshot's storefront (where it reads offers). One
    /// it holds otherwise is said, not changed: App Store Connect changes only an offer's end date.
    private func planIntroductoryOffer(_ product: Product, remote: DriftCheck.Remote?, add steps: inout [CatalogPlan.Step],
                                       blocked: inout [CatalogPlan.Blocked]) {
        guard let offer = product.metadata.introductoryOffer else { return }
        let at = offer.location
        func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
            blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "add the introductory offer \(DriftCheck.offerText(offer))",
                                               reason: reason, source: Self.source(at)))
        }
        guard let duration = Self.offerDurationName(offer.period) else {
            return block(.error, "App Store Connect's introductory offers last 3 days, 1 or 2 weeks, 1, 2, 3 or 6 months, or 1 year: "
                         + "change the offer's period in the catalog")
        }
        var set = ["mode": Self.offerMode(offer.paymentMode), "duration": duration, "periods": "\(offer.numberOfPeriods)"]
        if offer.paymentMode != .freeTrial {
            let price = product.metadata.price?.value
            guard let amount = offer.price, let territory = price.flatMap({ $0.storefront ?? ($0.currency == "USD" ? "USA" : nil) }) else {
                return block(.error, "a paid offer needs its price and the territory it is in: give the offer a price and the product a price "
                             + "with its storefront (or in USD)")
            }
            set["price"] = Self.amountText(amount)
            set["baseTerritory"] = territory
        }
        // An offer goes where the subscription has a price: a new one needs a declared price.
        if remote == nil, product.metadata.price == nil, product.metadata.storefrontPrices.isEmpty {
            return block(.error, "the subscription has no price, and App Store Connect makes an introductory offer only where it has one: declare its price")
        }
        // Offers are read in the snapshot's storefront: without one, apply could not see them.
        guard snapshot.storefront != nil else {
            return block(.info, "the snapshot has no introductory offers: pull it with --storefront (`iap asc pull --storefront USA`) to plan them")
        }
        if let remote {
            if let theirs = remote.offer {
                guard DriftCheck.offer(theirs) != DriftCheck.offerText(offer) else { return }
                return block(.info, "App Store Connect has \(DriftCheck.offer(theirs) ?? theirs.mode) in \(snapshot.storefront!) and changes an "
                             + "introductory offer only by ending it: end it in App Store Connect, then plan again")
            }
        }
        steps.append(CatalogPlan.Step(number: steps.count + 1, action: .setIntroductoryOffer, product: product.id, set: set, before: nil,
                                      source: Self.source(at)))
    }

    /// Each declared promotional offer App Store Connect lacks (by its identifier, the offer code
    /// the app signs), made in every territory the subscription has a price in. One it holds on
    /// other terms is said, not changed (App Store Connect changes only an offer's prices); one
    /// it holds that the catalog does not declare is left alone.
    private func planPromotionalOffers(_ product: Product, remote: DriftCheck.Remote?, add steps: inout [CatalogPlan.Step],
                                       blocked: inout [CatalogPlan.Blocked]) {
        let declared = product.metadata.promotionalOffers
        guard !declared.isEmpty else { return }
        var seen: Set<String> = []
        for offer in declared where seen.insert(offer.id).inserted {
            func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
                blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "add the promotional offer \(Quote.bounded(offer.id))",
                                                   reason: reason, source: Self.source(offer.location)))
            }
            guard let set = offerSet(product, offer, what: "promotional offer", new: remote == nil, block: block) else { continue }
            if let remote {
                guard let theirs = remote.promotionalOffers else {
                    block(.info, "the snapshot has no promotional offers: pull it with --promotional-offers (`iap asc pull --promotional-offers`) to plan them")
                    continue
                }
                if let held = theirs.first(where: { $0.code == offer.id }) {
                    let now = ["name": held.name ?? "", "mode": held.mode ?? "", "duration": held.duration ?? "", "periods": "\(held.periods ?? 1)"]
                    if now.allSatisfy({ set[$0.key] == $0.value }) { continue }
                    block(.info, "App Store Connect has the offer \(Quote.bounded(offer.id)) as \(now["mode"]!) \(now["duration"]!) × \(now["periods"]!) "
                          + "named \(Quote.bounded(now["name"]!)), and changes only an offer's prices: change it there, or give the catalog's offer a new identifier")
                    continue
                }
            }
            steps.append(CatalogPlan.Step(number: steps.count + 1, action: .createPromotionalOffer, product: product.id, set: set, before: nil,
                                          source: Self.source(offer.location)))
        }
    }

    /// A promotional or win-back offer's terms as its step sets them (code, name, mode, duration,
    /// periods, and a paid offer's price in its base territory); nil, blocked, when App Store
    /// Connect could not make it (on a `new` subscription, one without a declared price).
    private func offerSet(_ product: Product, _ offer: PromotionalOffer, what: String, new: Bool,
                          block: (CatalogPlan.Blocked.Level, String) -> Void) -> [String: String]? {
        guard let duration = Self.offerDurationName(offer.period) else {
            block(.error, "App Store Connect's offers last 3 days, 1 or 2 weeks, 1, 2, 3 or 6 months, or 1 year: change the offer's period in the catalog")
            return nil
        }
        guard let name = Self.stated(offer.referenceName) else {
            block(.error, "App Store Connect names every \(what): give it a referenceName")
            return nil
        }
        var set = ["code": offer.id, "name": name, "mode": Self.offerMode(offer.paymentMode), "duration": duration, "periods": "\(offer.numberOfPeriods)"]
        if offer.paymentMode != .freeTrial {
            let price = product.metadata.price?.value
            guard let amount = offer.price, let territory = price.flatMap({ $0.storefront ?? ($0.currency == "USD" ? "USA" : nil) }) else {
                block(.error, "a paid offer needs its price and the territory it is in: give the offer a price and the product a price with its storefront (or in USD)")
                return nil
            }
            set["price"] = Self.amountText(amount)
            set["baseTerritory"] = territory
        }
        if new, product.metadata.price == nil, product.metadata.storefrontPrices.isEmpty {
            block(.error, "the subscription has no price, and App Store Connect makes an offer only where it has one: declare its price")
            return nil
        }
        return set
    }

    /// Each declared win-back offer App Store Connect lacks (by its offer identifier), made in
    /// every territory the subscription has a price in. One it holds on other terms is said, not
    /// changed; one it holds that the catalog does not declare is left alone.
    private func planWinBackOffers(_ product: Product, remote: DriftCheck.Remote?, add steps: inout [CatalogPlan.Step],
                                   blocked: inout [CatalogPlan.Blocked]) {
        var seen: Set<String> = []
        for offer in product.metadata.winBackOffers where seen.insert(offer.terms.id).inserted {
            func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
                blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "add the win-back offer \(Quote.bounded(offer.terms.id))",
                                                   reason: reason, source: Self.source(offer.terms.location)))
            }
            guard var set = offerSet(product, offer.terms, what: "win-back offer", new: remote == nil, block: block) else { continue }
            set["paidMonths"] = "\(offer.paidMonths)"
            set["lapsedMinMonths"] = "\(offer.lapsedMonths.lowerBound)"
            set["lapsedMaxMonths"] = "\(offer.lapsedMonths.upperBound)"
            if let wait = offer.waitMonths { set["waitMonths"] = "\(wait)" }
            set["startDate"] = offer.startDate
            if let end = offer.endDate { set["endDate"] = end }
            set["priority"] = offer.highPriority ? "HIGH" : "NORMAL"
            if let remote {
                guard let theirs = remote.winBackOffers else {
                    block(.info, "the snapshot has no win-back offers: pull it with --win-back-offers (`iap asc pull --win-back-offers`) to plan them")
                    continue
                }
                if let held = theirs.first(where: { $0.offerId == offer.terms.id }) {
                    if PlanApply.holds(held, as: set) { continue }
                    let now = PlanApply.winBackFields(held)
                    let differ = now.keys.sorted().filter { set[$0] != now[$0] }
                    block(.info, "App Store Connect has the win-back offer \(Quote.bounded(offer.terms.id)) with "
                          + differ.map { "\($0) \(Quote.bounded(now[$0] ?? "none"))" }.joined(separator: ", ")
                          + ": change it there (App Store Connect changes an offer's dates, eligibility and priority), or give the catalog's offer a new id")
                    continue
                }
            }
            steps.append(CatalogPlan.Step(number: steps.count + 1, action: .createWinBackOffer, product: product.id, set: set, before: nil,
                                          source: Self.source(offer.terms.location)))
        }
    }

    /// Each declared offer code App Store Connect lacks (by its reference name), made in every
    /// territory the subscription has a price in, and each of its declared custom codes App Store
    /// Connect lacks (by its word, in any case). One-time-use codes are made in App Store Connect,
    /// where their values stay. A campaign or code it holds on other terms, or has deactivated, is
    /// said, not changed (App Store Connect changes only whether one is active); one it holds that
    /// the catalog does not declare is left alone.
    private func planOfferCodes(_ product: Product, remote: DriftCheck.Remote?, add steps: inout [CatalogPlan.Step],
                                blocked: inout [CatalogPlan.Blocked], words: inout [String: (campaign: String, product: String)]) {
        var seen: Set<String> = []
        for code in product.metadata.offerCodes where seen.insert(code.terms.id).inserted {
            func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
                blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "add the offer code \(Quote.bounded(code.terms.id))",
                                                   reason: reason, source: Self.source(code.terms.location)))
            }
            guard var set = offerSet(product, code.terms, what: "offer code", new: remote == nil, block: block) else { continue }
            set["code"] = nil
            set["customerEligibilities"] = code.eligibility.map { $0.rawValue.uppercased() }.joined(separator: ",")
            set["offerEligibility"] = code.stackable ? "STACK_WITH_INTRO_OFFERS" : "REPLACE_INTRO_OFFERS"
            var held: ASCSnapshot.OfferCode?
            if let remote {
                guard let theirs = remote.offerCodes else {
                    block(.info, "the snapshot has no offer codes: pull it with --offer-codes (`iap asc pull --offer-codes`) to plan them")
                    continue
                }
                held = theirs.first { $0.name == set["name"] }
            }
            if let held {
                if held.active == false {
                    block(.info, "App Store Connect has the offer code \(Quote.bounded(held.name)) deactivated, and never turns one on again: "
                          + "give the catalog's offer code a new referenceName to offer it again, or remove it from the catalog")
                    continue
                }
                if !PlanApply.holds(held, as: set) {
                    let now = PlanApply.offerCodeFields(held)
                    let differ = now.keys.sorted().filter { set[$0] != now[$0] }
                    block(.info, "App Store Connect has the offer code \(Quote.bounded(held.name)) with "
                          + differ.map { "\($0) \(Quote.bounded(now[$0] ?? "none"))" }.joined(separator: ", ")
                          + ": App Store Connect does not change an offer code's terms; give the catalog's offer code a new referenceName")
                    continue
                }
            } else {
                steps.append(CatalogPlan.Step(number: steps.count + 1, action: .createOfferCode, product: product.id, set: set, before: nil,
                                              source: Self.source(code.terms.location)))
            }
            planCustomCodes(product, code, campaign: set["name"] ?? code.terms.id, held: held, add: &steps, blocked: &blocked, words: &words)
        }
    }

    /// The declared custom codes of an offer code that is made or held as declared.
    /// `words`: each custom code the plan adds (in capitals), with its offer code and product.
    private func planCustomCodes(_ product: Product, _ code: OfferCode, campaign name: String, held: ASCSnapshot.OfferCode?,
                                 add steps: inout [CatalogPlan.Step], blocked: inout [CatalogPlan.Blocked],
                                 words: inout [String: (campaign: String, product: String)]) {
        for custom in code.customCodes {
            func block(_ level: CatalogPlan.Blocked.Level, _ reason: String) {
                blocked.append(CatalogPlan.Blocked(level: level, product: product.id, what: "add the custom code \(Quote.bounded(custom.code))",
                                                   reason: reason, source: Self.source(custom.location)))
            }
            var set = ["name": name, "customCode": custom.code, "numberOfCodes": "\(custom.numberOfCodes)"]
            if let day = custom.expirationDate { set["expirationDate"] = day }
            let word = custom.code.uppercased()
            if let held {
                guard let theirs = held.customCodes else {
                    block(.info, "the snapshot has the offer code \(Quote.bounded(name)) without its custom codes (an older iap pulled it): "
                          + "pull it again with --offer-codes (`iap asc pull --offer-codes`) to plan them")
                    continue
                }
                if let same = theirs.first(where: { $0.code.uppercased() == word }) {
                    if same.active == false {
                        block(.info, "App Store Connect has the custom code \(Quote.bounded(same.code)) deactivated, and never turns one on again: give the catalog a new code")
                    } else if !PlanApply.holds(same, as: set) {
                        block(.info, "App Store Connect has the custom code \(Quote.bounded(same.code)) allowing "
                              + "\(same.numberOfCodes.map { "\($0)" } ?? "an unknown number of") redemptions"
                              + (same.expirationDate.map { " until \($0)" } ?? " with no expiration date")
                              + ", and changes only whether a custom code is active: change the catalog to match, or give it a new code")
                    }
                    continue
                }
            }
            // A word App Store Connect has for another offer code of the app is not taken again.
            if let other = customCodeOwners[word], other.product != product.id || other.campaign != name {
                block(.error, "App Store Connect has the custom code \(Quote.bounded(other.code)) in the offer code \(Quote.bounded(other.campaign)) "
                      + "of \(Quote.bounded(other.product)), and takes each code once: give the catalog's a code of its own")
                continue
            }
            if let twice = words[word] {
                block(.error, "the catalog gives the custom code \(Quote.bounded(custom.code)) to the offer code \(Quote.bounded(twice.campaign)) "
                      + "of \(Quote.bounded(twice.product)) too, and App Store Connect takes each code once: give each its own")
                continue
            }
            words[word] = (name, product.id)
            steps.append(CatalogPlan.Step(number: steps.count + 1, action: .createCustomCode, product: product.id, set: set, before: nil,
                                          source: Self.source(custom.location)))
        }
    }

    static func offerMode(_ mode: PaymentMode) -> String {
        switch mode {
        case .freeTrial: "FREE_TRIAL"
        case .payAsYouGo: "PAY_AS_YOU_GO"
        case .payUpFront: "PAY_UP_FRONT"
        }
    }

    /// App Store Connect's name of an offer's duration (`THREE_DAYS` … `ONE_YEAR`), nil when it has none.
    static func offerDurationName(_ period: SubscriptionPeriod) -> String? {
        let wanted = DriftCheck.normalized(period)
        return ASCValue.offerDurations.sorted().first { DriftCheck.offerDuration($0).map(DriftCheck.normalized) == wanted }
    }

    private func planAvailability(_ product: Product, _ availability: Located<DeclaredAvailability>, remote: DriftCheck.Remote,
                                  add steps: inout [CatalogPlan.Step], blocked: inout [CatalogPlan.Blocked]) {
        let wanted = Self.fields(availability.value)
        var before: [String: String]
        if let review = remote.review, review.screenshot != nil || review.availability != nil {
            if let theirs = review.availability {
                guard let territories = theirs.territories else {
                    blocked.append(CatalogPlan.Blocked(
                        level: .info, product: product.id, what: "set the availability",
                        reason: "the snapshot does not list its territories: pull it with --availability (`iap asc pull --availability`) to plan availability",
                        source: Self.source(availability.location)))
                    return
                }
                let all = Set(territories) == Set(Storefronts.all.map(\.alpha3))
                before = ["territories": all ? "all" : territories.sorted().joined(separator: ","),
                          "newTerritories": (theirs.availableInNewTerritories ?? false) ? "true" : "false"]
            } else {
                before = ["territories": "", "newTerritories": "false"]
            }
        } else {
            blocked.append(CatalogPlan.Blocked(
                level: .info, product: product.id, what: "set the availability",
                reason: "the snapshot does not say where it is for sale: pull it again with --availability to plan availability",
                source: Self.source(availability.location)))
            return
        }
        guard before != wanted else { return }
        steps.append(CatalogPlan.Step(number: steps.count + 1, action: .setAvailability, product: product.id, set: wanted, before: before,
                                      source: Self.source(availability.location)))
    }

    // MARK: Spellings

    static func fields(_ availability: DeclaredAvailability) -> [String: String] {
        ["territories": availability.all ? "all" : availability.territories.joined(separator: ","),
         "newTerritories": availability.newTerritories ? "true" : "false"]
    }

    static func typeName(_ kind: ProductKind) -> String {
        switch kind {
        case .consumable: "CONSUMABLE"
        case .nonConsumable: "NON_CONSUMABLE"
        case .nonRenewing: "NON_RENEWING_SUBSCRIPTION"
        case .autoRenewable: "AUTO_RENEWABLE"
        }
    }

    /// `P1M` as App Store Connect names it (`ONE_MONTH`); nil for a period it has no name for.
    static func periodName(_ period: SubscriptionPeriod) -> String? {
        let names = ["ONE_WEEK", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"]
        let wanted = DriftCheck.normalized(period)
        return names.first { DriftCheck.period($0) == wanted }
    }

    static func amountText(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 6, .plain)
        return rounded.description
    }

    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces) }

    /// A name as App Store Connect takes it: one with more than spaces (a `.storekit` file's
    /// `"displayName" : ""` or `"referenceName" : null` states none).
    static func stated(_ name: String?) -> String? {
        guard let name, name.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return name
    }

    static func source(_ location: SourceLocation) -> String {
        location.line > 0 ? "\(location.path):\(location.line)" : location.path
    }

    /// The first localization of each locale (a second is the catalog's own finding).
    static func onePerLocale(_ list: [Localization]) -> [Localization] {
        var seen: Set<String> = []
        return list.filter { seen.insert(Localization.key($0.locale)).inserted }.sorted { $0.locale < $1.locale }
    }
}
