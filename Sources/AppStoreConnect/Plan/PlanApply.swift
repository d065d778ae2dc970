import Diagnostics
import Foundation
import Support

/// `iap asc apply`: makes a plan true in App Store Connect, step by step, and nothing else.
///
/// Each step is first judged against App Store Connect as it is now (`status`): still as the
/// plan found it (`planned`: it is written), already as the plan wants it (`done`: written
/// before, by an apply that was stopped, or by hand: not written again), or neither (`moved`:
/// the plan is stale and nothing is written). A write whose answer was lost is therefore never
/// made twice: the next run reads App Store Connect again and finds it done.
public struct PlanApply: Sendable {
    public let plan: CatalogPlan
    /// Whether a subscription's new price applies to its current subscribers too (App Store
    /// Connect's `preserveCurrentPrice` false); by default they keep theirs.
    public var migrateExistingSubscribers = false
    /// Every territory App Store Connect has (what `all` stands for).
    public let allTerritories: [String]
    /// Today in UTC (`YYYY-MM-DD`): a price change must start after it.
    public var today = SnapshotPull.day(Date())

    public init(plan: CatalogPlan, allTerritories: [String]) {
        self.plan = plan
        self.allTerritories = allTerritories.sorted()
    }

    /// How to read App Store Connect for this plan: as the plan's snapshot was pulled, and with
    /// every territory's price and availability when the plan sets them (to judge those steps).
    public func pull(connections: Int) -> SnapshotPull {
        // An offer goes where the subscription has a price: every territory's is read.
        let prices = plan.steps.contains { [.setPrices, .setIntroductoryOffer, .createPromotionalOffer, .createWinBackOffer, .createOfferCode].contains($0.action) }
        let availability = plan.steps.contains { $0.action == .setAvailability }
        return SnapshotPull(storefront: plan.against.storefront, connections: connections,
                            availability: plan.against.availability || availability,
                            allTerritories: plan.against.allStorefronts || prices,
                            promotionalOffers: plan.against.promotionalOffers == true || plan.steps.contains { $0.action == .createPromotionalOffer },
                            winBackOffers: plan.against.winBackOffers == true || plan.steps.contains { $0.action == .createWinBackOffer },
                            offerCodes: plan.against.offerCodes == true || plan.steps.contains { [.createOfferCode, .createCustomCode].contains($0.action) })
    }

    /// `live` with only what the plan's snapshot was pulled with: its fingerprint is comparable.
    public func narrowed(_ live: ASCSnapshot) -> ASCSnapshot {
        var copy = live
        for i in copy.inAppPurchases.indices {
            if !plan.against.allStorefronts { copy.inAppPurchases[i].prices = nil }
            if !plan.against.availability { copy.inAppPurchases[i].review?.availability?.territories = nil }
        }
        for g in copy.subscriptionGroups.indices {
            for s in copy.subscriptionGroups[g].subscriptions.indices {
                if !plan.against.allStorefronts { copy.subscriptionGroups[g].subscriptions[s].prices = nil }
                if !plan.against.availability { copy.subscriptionGroups[g].subscriptions[s].review?.availability?.territories = nil }
                if plan.against.promotionalOffers != true { copy.subscriptionGroups[g].subscriptions[s].promotionalOffers = nil }
                if plan.against.winBackOffers != true { copy.subscriptionGroups[g].subscriptions[s].winBackOffers = nil }
                if plan.against.offerCodes != true { copy.subscriptionGroups[g].subscriptions[s].offerCodes = nil }
            }
        }
        return copy
    }

    public enum Status: Equatable, Sendable {
        /// App Store Connect holds what the plan found: the step is to be written.
        case planned
        /// It holds what the step sets: nothing to write.
        case done
        /// It holds something else (`why`): the plan is stale.
        case moved(String)
    }

    /// Why the plan cannot be applied to `live`: nothing when App Store Connect is as the plan
    /// found it (the first run: the fingerprints are equal) or each step is planned or done
    /// (`resuming` an apply that stopped); else each difference, named.
    public func staleness(_ live: ASCSnapshot, resuming: Bool) -> [String] {
        let view = LiveView(live)
        let moved = plan.steps.compactMap { step -> String? in
            if case .moved(let why) = status(of: step, in: view) { return "step \(step.number) (\(Self.describe(step))): \(why)" }
            return nil
        }
        if !moved.isEmpty || resuming { return moved }
        let now = narrowed(live).fingerprint
        if now != plan.against.fingerprint {
            return ["App Store Connect changed since the plan was made (its fingerprint was \(plan.against.fingerprint.prefix(12))…, now \(now.prefix(12))…), "
                    + "outside what the plan changes"]
        }
        return []
    }

    /// Each step's status in `live`.
    public func statuses(_ live: ASCSnapshot) -> [Status] {
        let view = LiveView(live)
        return plan.steps.map { status(of: $0, in: view) }
    }

    /// What App Store Connect holds that the plan's steps do not, after an apply: each step that
    /// is not done, named.
    public func verify(_ after: ASCSnapshot) -> [String] {
        let view = LiveView(after)
        return plan.steps.compactMap { step in
            switch status(of: step, in: view) {
            case .done: nil
            case .planned: "step \(step.number) (\(Self.describe(step))): App Store Connect does not hold it"
            case .moved(let why): "step \(step.number) (\(Self.describe(step))): \(why)"
            }
        }
    }

    // MARK: Judging a step

    /// The snapshot indexed as the steps look things up.
    struct LiveView {
        enum Product {
            case purchase(ASCSnapshot.InAppPurchase)
            case subscription(ASCSnapshot.Subscription, group: ASCSnapshot.SubscriptionGroup)

            var id: String {
                switch self {
                case .purchase(let p): p.id
                case .subscription(let s, _): s.id
                }
            }
            var isSubscription: Bool {
                if case .subscription = self { return true }
                return false
            }
            var type: String {
                switch self {
                case .purchase(let p): p.type ?? ""
                case .subscription: "AUTO_RENEWABLE"
                }
            }
            /// Field → value as the steps name them.
            var fields: [String: String] {
                switch self {
                case .purchase(let p):
                    return ["name": p.name ?? "", "reviewNote": p.reviewNote ?? "", "familySharable": p.familySharable.map { $0 ? "true" : "false" } ?? ""]
                case .subscription(let s, _):
                    return ["name": s.name ?? "", "reviewNote": s.reviewNote ?? "", "familySharable": s.familySharable.map { $0 ? "true" : "false" } ?? "",
                            "period": s.period ?? "", "groupLevel": s.groupLevel.map(String.init) ?? ""]
                }
            }
            var localizations: [ASCSnapshot.Localization] {
                switch self {
                case .purchase(let p): p.localizations
                case .subscription(let s, _): s.localizations
                }
            }
            var prices: [String: ASCSnapshot.Price]? {
                switch self {
                case .purchase(let p): p.prices?.byTerritory
                case .subscription(let s, _): s.prices?.byTerritory
                }
            }
            var scheduled: ASCSnapshot.ScheduledPrices {
                switch self {
                case .purchase(let p): p.scheduledPrices ?? .init([:])
                case .subscription(let s, _): s.scheduledPrices ?? .init([:])
                }
            }
            var offer: ASCSnapshot.IntroductoryOffer? {
                if case .subscription(let s, _) = self { return s.introductoryOffer }
                return nil
            }
            var promotionalOffers: [ASCSnapshot.PromotionalOffer]? {
                if case .subscription(let s, _) = self { return s.promotionalOffers }
                return nil
            }
            var winBackOffers: [ASCSnapshot.WinBackOffer]? {
                if case .subscription(let s, _) = self { return s.winBackOffers }
                return nil
            }
            var offerCodes: [ASCSnapshot.OfferCode]? {
                if case .subscription(let s, _) = self { return s.offerCodes }
                return nil
            }
            var review: ASCSnapshot.Review? {
                switch self {
                case .purchase(let p): p.review
                case .subscription(let s, _): s.review
                }
            }
        }

        var products: [String: Product] = [:]
        var groups: [String: ASCSnapshot.SubscriptionGroup] = [:]

        init(_ snapshot: ASCSnapshot) {
            for p in snapshot.inAppPurchases where products[p.productId] == nil { products[p.productId] = .purchase(p) }
            for g in snapshot.subscriptionGroups {
                if let name = g.referenceName?.trimmingCharacters(in: .whitespaces), groups[name] == nil { groups[name] = g }
                for s in g.subscriptions where products[s.productId] == nil { products[s.productId] = .subscription(s, group: g) }
            }
        }
    }

    func status(of step: CatalogPlan.Step, in live: LiveView) -> Status {
        switch step.action {
        case .createGroup:
            return live.groups[step.group ?? ""] == nil ? .planned : .done
        case .createProduct:
            guard let product = live.products[step.product ?? ""] else { return .planned }
            if product.type != step.type {
                return .moved("App Store Connect now has \(Quote.escaped(step.product ?? "")) as \(product.type.isEmpty ? "another type" : product.type)")
            }
            return .done
        case .updateProduct:
            guard let product = live.products[step.product ?? ""] else { return .moved("\(Quote.escaped(step.product ?? "")) is no longer in App Store Connect") }
            return Self.fields(step, product.fields)
        case .createLocalization, .updateLocalization:
            guard let product = live.products[step.product ?? ""] else {
                return step.action == .createLocalization ? .planned : .moved("\(Quote.escaped(step.product ?? "")) is no longer in App Store Connect")
            }
            let key = Self.localeKey(step.locale ?? "")
            guard let localization = product.localizations.first(where: { Self.localeKey($0.locale) == key }) else {
                return step.action == .createLocalization ? .planned : .moved("its \(step.locale ?? "") localization is no longer in App Store Connect")
            }
            let fields = ["name": localization.name ?? "", "description": localization.description ?? ""]
            if step.action == .createLocalization {
                return step.set.allSatisfy { fields[$0.key] == $0.value } ? .done
                    : .moved("App Store Connect now has a \(step.locale ?? "") localization named \(Quote.escaped(localization.name ?? ""))")
            }
            return Self.fields(step, fields)
        case .setPrices:
            guard let product = live.products[step.product ?? ""] else { return step.before == nil ? .planned : .moved("\(Quote.escaped(step.product ?? "")) is no longer in App Store Connect") }
            guard let prices = product.prices else { return .moved("App Store Connect's prices were not read") }
            // A change with a start date is done when App Store Connect holds it from that day.
            let start = step.set["startDate"]
            let scheduled = product.scheduled
            var done = true
            var planned = true
            for territory in step.priceTerritories {
                let amount = step.set[territory]!
                let now = prices[territory]?.decimal
                let wanted = ASCValue.decimal(amount)
                let ahead = start.map { scheduled.holds(territory, wanted, from: $0) } ?? false
                if now != wanted && !ahead { done = false }
                let was = step.before?[territory].flatMap(ASCValue.decimal)
                if now != was { planned = false }
            }
            if done { return .done }
            if planned { return .planned }
            let shown = step.priceTerritories.map { t in
                "\(t) \(prices[t].map { $0.amount } ?? "none")" + (scheduled[t].map { " (" + $0.map { "\($0.price.amount) from \($0.start)" }.joined(separator: ", ") + ")" } ?? "")
            }
            return .moved("its prices are now \(shown.joined(separator: ", "))")
        case .setIntroductoryOffer:
            // Judged in the plan's storefront, the one the snapshot reads offers in.
            guard let product = live.products[step.product ?? ""] else { return step.before == nil ? .planned : .moved("\(Quote.escaped(step.product ?? "")) is no longer in App Store Connect") }
            let now = Self.offerFields(product.offer)
            var wanted = step.set
            wanted["baseTerritory"] = nil
            if now.isEmpty { return .planned }
            if now.allSatisfy({ key, value in key == "price" ? ASCValue.decimal(value) == wanted[key].flatMap(ASCValue.decimal) : wanted[key] == value }),
               now.count == wanted.count {
                return .done
            }
            return .moved("it now has an introductory offer: \(now.keys.sorted().map { "\($0) \(now[$0]!)" }.joined(separator: ", "))")
        case .createPromotionalOffer:
            // By its code; its prices are not read back (the snapshot keeps none).
            guard let product = live.products[step.product ?? ""] else { return .planned }
            guard let offers = product.promotionalOffers else { return .moved("App Store Connect's promotional offers were not read") }
            guard let offer = offers.first(where: { $0.code == step.set["code"] }) else { return .planned }
            let now = ["code": offer.code, "name": offer.name ?? "", "mode": offer.mode ?? "", "duration": offer.duration ?? "", "periods": "\(offer.periods ?? 1)"]
            if now.allSatisfy({ step.set[$0.key] == $0.value }) { return .done }
            return .moved("its promotional offer \(Quote.escaped(offer.code)) is now \(["name", "mode", "duration", "periods"].map { "\($0) \(now[$0]!)" }.joined(separator: ", "))")
        case .createWinBackOffer:
            // By its offer identifier; its prices are not read back (the snapshot keeps none).
            guard let product = live.products[step.product ?? ""] else { return .planned }
            guard let offers = product.winBackOffers else { return .moved("App Store Connect's win-back offers were not read") }
            guard let offer = offers.first(where: { $0.offerId == step.set["code"] }) else { return .planned }
            if Self.holds(offer, as: step.set) { return .done }
            let now = Self.winBackFields(offer)
            return .moved("its win-back offer \(Quote.escaped(offer.offerId)) is now "
                          + now.keys.sorted().filter { $0 != "code" }.map { "\($0) \(now[$0]!)" }.joined(separator: ", "))
        case .createOfferCode:
            // By its name; its prices are not read back (the snapshot keeps none).
            guard let product = live.products[step.product ?? ""] else { return .planned }
            guard let codes = product.offerCodes else { return .moved("App Store Connect's offer codes were not read") }
            guard let code = codes.first(where: { $0.name == step.set["name"] }) else { return .planned }
            if Self.holds(code, as: step.set) { return .done }
            let now = Self.offerCodeFields(code)
            return .moved("its offer code \(Quote.escaped(code.name)) is now "
                          + now.keys.sorted().filter { $0 != "name" }.map { "\($0) \(now[$0]!)" }.joined(separator: ", "))
        case .createCustomCode:
            // By its offer code's name and its word (App Store Connect takes a word in any case once).
            guard let product = live.products[step.product ?? ""] else { return .planned }
            guard let codes = product.offerCodes else { return .moved("App Store Connect's offer codes were not read") }
            guard let campaign = codes.first(where: { $0.name == step.set["name"] }) else { return .planned }
            guard let custom = campaign.customCodes else { return .moved("the custom codes of \(Quote.escaped(campaign.name)) were not read") }
            let word = (step.set["customCode"] ?? "").uppercased()
            guard let held = custom.first(where: { $0.code.uppercased() == word }) else { return .planned }
            if Self.holds(held, as: step.set) { return .done }
            return .moved("its custom code \(Quote.escaped(held.code)) now allows \(held.numberOfCodes.map { "\($0)" } ?? "an unknown number of") redemptions"
                          + (held.expirationDate.map { " until \($0)" } ?? ", with no expiration date"))
        case .setAvailability:
            guard let product = live.products[step.product ?? ""] else { return step.before == nil ? .planned : .moved("\(Quote.escaped(step.product ?? "")) is no longer in App Store Connect") }
            let now: [String: String]
            if let availability = product.review?.availability {
                guard let territories = availability.territories else { return .moved("App Store Connect's territories were not read") }
                now = ["territories": territoriesField(territories), "newTerritories": (availability.availableInNewTerritories ?? false) ? "true" : "false"]
            } else {
                now = ["territories": "", "newTerritories": "false"]
            }
            if now == step.set { return .done }
            if step.before == nil || now == step.before { return .planned }
            return .moved("it is now for sale in \(now["territories"].map { $0.isEmpty ? "no territory" : $0 } ?? "")")
        }
    }

    /// A win-back offer App Store Connect holds, as a step names its fields (all but its price).
    public static func winBackFields(_ offer: ASCSnapshot.WinBackOffer) -> [String: String] {
        var fields = ["code": offer.offerId, "name": offer.name ?? "", "mode": offer.mode ?? "", "duration": offer.duration ?? "",
                      "periods": "\(offer.periods ?? 1)", "priority": offer.priority ?? "", "startDate": offer.startDate ?? ""]
        for (key, value) in [("paidMonths", offer.paidMonths), ("lapsedMinMonths", offer.lapsedMinMonths), ("lapsedMaxMonths", offer.lapsedMaxMonths),
                             ("waitMonths", offer.waitMonths)] {
            if let value { fields[key] = "\(value)" }
        }
        if let end = offer.endDate { fields["endDate"] = end }
        return fields
    }

    /// Whether App Store Connect's win-back offer has exactly the terms `set` gives it (all but
    /// its price, which the snapshot does not keep).
    public static func holds(_ offer: ASCSnapshot.WinBackOffer, as set: [String: String]) -> Bool {
        let now = winBackFields(offer)
        return set.keys.filter { $0 != "price" && $0 != "baseTerritory" }.allSatisfy { now[$0] == set[$0] } && now.keys.allSatisfy { set[$0] != nil }
    }

    /// An offer code App Store Connect holds, as a step names its fields (all but its price).
    public static func offerCodeFields(_ code: ASCSnapshot.OfferCode) -> [String: String] {
        ["name": code.name, "mode": code.mode ?? "", "duration": code.duration ?? "", "periods": "\(code.periods ?? 1)",
         "customerEligibilities": eligibilityField(code.eligibilities ?? []), "offerEligibility": code.offerEligibility ?? ""]
    }

    /// Customer eligibilities as a step names them: `NEW,EXISTING,EXPIRED`, in that order, each once.
    public static func eligibilityField(_ words: [String]) -> String {
        let order = ["NEW", "EXISTING", "EXPIRED"]
        let known = Set(words)
        return (order.filter(known.contains) + known.subtracting(order).sorted()).joined(separator: ",")
    }

    /// Whether App Store Connect's offer code has exactly the terms `set` gives it (all but its
    /// price, which the snapshot does not keep).
    public static func holds(_ code: ASCSnapshot.OfferCode, as set: [String: String]) -> Bool {
        let now = offerCodeFields(code)
        return now.allSatisfy { set[$0.key] == $0.value }
    }

    /// Whether App Store Connect's custom code allows what `set` gives it: its redemptions and
    /// its expiration date.
    public static func holds(_ custom: ASCSnapshot.CustomCode, as set: [String: String]) -> Bool {
        custom.numberOfCodes.map { "\($0)" } == set["numberOfCodes"] && custom.expirationDate == set["expirationDate"]
    }

    /// An introductory offer as a step names it: mode, duration, periods, and a paid offer's price.
    static func offerFields(_ offer: ASCSnapshot.IntroductoryOffer?) -> [String: String] {
        guard let offer else { return [:] }
        var fields = ["mode": offer.mode, "duration": offer.duration ?? "", "periods": "\(offer.periods ?? 1)"]
        if offer.mode != "FREE_TRIAL" { fields["price"] = offer.price?.amount ?? "" }
        return fields
    }

    /// `done` when every field is as the step sets it, `planned` when each is as it was or as set.
    private static func fields(_ step: CatalogPlan.Step, _ now: [String: String]) -> Status {
        if step.set.allSatisfy({ now[$0.key] == $0.value }) { return .done }
        for (field, value) in step.set where now[field] != value && now[field] != (step.before?[field] ?? "") {
            return .moved("its \(field) is now \(Quote.escaped(now[field] ?? ""))")
        }
        return .planned
    }

    static func localeKey(_ locale: String) -> String { locale.replacingOccurrences(of: "_", with: "-").lowercased() }

    /// Territories as a step names them: `all` for every one of the App Store's, else the codes.
    func territoriesField(_ territories: [String]) -> String {
        Set(territories).isSuperset(of: allTerritories) ? "all" : territories.sorted().joined(separator: ",")
    }

    /// A step in words: `create in-app purchase com.acme.app.gold`.
    public static func describe(_ step: CatalogPlan.Step) -> String {
        let product = Quote.escaped(step.product ?? "")
        switch step.action {
        case .createGroup: return "create the subscription group \(Quote.escaped(step.group ?? ""))"
        case .createProduct: return "create \(step.type == "AUTO_RENEWABLE" ? "the subscription" : "the in-app purchase") \(product)"
        case .updateProduct: return "update \(product): \(step.set.keys.sorted().joined(separator: ", "))"
        case .createLocalization: return "add the \(step.locale ?? "") localization of \(product)"
        case .updateLocalization: return "update the \(step.locale ?? "") localization of \(product)"
        case .setPrices:
            return "set the price of \(product) in \(step.priceTerritories.joined(separator: ", "))" + (step.set["startDate"].map { " from \($0)" } ?? "")
        case .setAvailability: return "set where \(product) is for sale"
        case .setIntroductoryOffer: return "add the introductory offer of \(product)"
        case .createPromotionalOffer: return "add the promotional offer \(Quote.escaped(step.set["code"] ?? "")) of \(product)"
        case .createWinBackOffer: return "add the win-back offer \(Quote.escaped(step.set["code"] ?? "")) of \(product)"
        case .createOfferCode: return "add the offer code \(Quote.escaped(step.set["name"] ?? "")) of \(product)"
        case .createCustomCode:
            return "add the custom code \(Quote.escaped(step.set["customCode"] ?? "")) to the offer code \(Quote.escaped(step.set["name"] ?? "")) of \(product)"
        }
    }
}
