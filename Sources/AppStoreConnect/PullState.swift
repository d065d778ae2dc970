import Diagnostics
import Foundation
import Support

/// What a pull has so far, shared by its connections.
final class PullState: @unchecked Sendable {
    private let lock = NSLock()
    private var _snapshot: ASCSnapshot
    private var purchases: [String: Int] = [:]
    private var groups: [String: Int] = [:]
    private var subscriptions: [String: (group: Int, index: Int)] = [:]
    private var _failure: ASCError?
    private var _stop: ASCError?

    init(_ snapshot: ASCSnapshot) {
        _snapshot = snapshot
        index()
    }

    var snapshot: ASCSnapshot { lock.withLock { _snapshot } }
    var failure: ASCError? { lock.withLock { _failure } }
    var stop: ASCError? { lock.withLock { _stop } }

    private func index() {
        purchases = [:]
        groups = [:]
        subscriptions = [:]
        for (i, p) in _snapshot.inAppPurchases.enumerated() where purchases[p.id] == nil { purchases[p.id] = i }
        for (g, group) in _snapshot.subscriptionGroups.enumerated() {
            if groups[group.id] == nil { groups[group.id] = g }
            for (s, sub) in group.subscriptions.enumerated() where subscriptions[sub.id] == nil { subscriptions[sub.id] = (g, s) }
        }
    }

    func isPurchase(_ id: String) -> Bool { lock.withLock { purchases[id] != nil } }

    func knows(_ item: ASCSnapshot.Pending) -> Bool {
        lock.withLock {
            switch item.work {
            case .subscriptions: groups[item.id] != nil
            case .localizations, .price, .prices: purchases[item.id] != nil || subscriptions[item.id] != nil
            case .introductoryOffer, .promotionalOffers, .winBackOffers, .offerCodes: subscriptions[item.id] != nil
            case .availability: availabilityLocked(item.id) != nil
            }
        }
    }

    /// The availability resource ID of the product with the resource ID `id`, when it has one.
    func availability(of id: String) -> String? { lock.withLock { availabilityLocked(id) } }

    private func availabilityLocked(_ id: String) -> String? {
        if let i = purchases[id] { return _snapshot.inAppPurchases[i].review?.availability?.id }
        if let (g, s) = subscriptions[id] { return _snapshot.subscriptionGroups[g].subscriptions[s].review?.availability?.id }
        return nil
    }

    func add(_ found: [ASCSnapshot.Subscription], toGroup id: String) {
        lock.withLock {
            guard let g = groups[id] else { return }
            for sub in found {
                let index = _snapshot.subscriptionGroups[g].subscriptions.count
                _snapshot.subscriptionGroups[g].subscriptions.append(sub)
                if subscriptions[sub.id] == nil { subscriptions[sub.id] = (g, index) }
            }
        }
    }

    /// Sets what `change` sets on the product with the resource ID `id` (an in-app purchase's or
    /// a subscription's fields, through the one shape both share here).
    func set(_ id: String, _ change: (inout ProductFields) -> Void) {
        lock.withLock {
            if let i = purchases[id] {
                var fields = ProductFields(localizations: _snapshot.inAppPurchases[i].localizations, price: _snapshot.inAppPurchases[i].price,
                                           prices: _snapshot.inAppPurchases[i].prices, review: _snapshot.inAppPurchases[i].review)
                fields.scheduledPrices = _snapshot.inAppPurchases[i].scheduledPrices
                change(&fields)
                _snapshot.inAppPurchases[i].scheduledPrices = fields.scheduledPrices
                _snapshot.inAppPurchases[i].localizations = fields.localizations
                _snapshot.inAppPurchases[i].price = fields.price
                _snapshot.inAppPurchases[i].prices = fields.prices
                _snapshot.inAppPurchases[i].review = fields.review
            } else if let (g, s) = subscriptions[id] {
                var sub = _snapshot.subscriptionGroups[g].subscriptions[s]
                var fields = ProductFields(localizations: sub.localizations, price: sub.price, introductoryOffer: sub.introductoryOffer,
                                           prices: sub.prices, review: sub.review)
                fields.promotionalOffers = sub.promotionalOffers
                fields.winBackOffers = sub.winBackOffers
                fields.offerCodes = sub.offerCodes
                fields.scheduledPrices = sub.scheduledPrices
                change(&fields)
                sub.scheduledPrices = fields.scheduledPrices
                sub.promotionalOffers = fields.promotionalOffers
                sub.winBackOffers = fields.winBackOffers
                sub.offerCodes = fields.offerCodes
                sub.localizations = fields.localizations
                sub.price = fields.price
                sub.prices = fields.prices
                sub.introductoryOffer = fields.introductoryOffer
                sub.review = fields.review
                _snapshot.subscriptionGroups[g].subscriptions[s] = sub
            }
        }
    }

    /// Notes why a connection stopped: App Store Connect's hour spent or failing (the pull ends
    /// partial), or an answer that cannot be used (the pull fails). The first of each is kept.
    func stopped(by error: ASCError) {
        lock.withLock {
            if error.isTemporary {
                if _stop == nil { _stop = error }
            } else if _failure == nil {
                _failure = error
            }
        }
    }
}

/// The fields the work after the lists fills in, for either kind of product.
struct ProductFields {
    var localizations: [ASCSnapshot.Localization]
    var price: ASCSnapshot.Price?
    var introductoryOffer: ASCSnapshot.IntroductoryOffer?
    var prices: ASCSnapshot.TerritoryPrices?
    var scheduledPrices: ASCSnapshot.ScheduledPrices?
    var review: ASCSnapshot.Review?
    var promotionalOffers: [ASCSnapshot.PromotionalOffer]?
    var winBackOffers: [ASCSnapshot.WinBackOffer]?
    var offerCodes: [ASCSnapshot.OfferCode]?

    init(localizations: [ASCSnapshot.Localization], price: ASCSnapshot.Price?, introductoryOffer: ASCSnapshot.IntroductoryOffer? = nil,
         prices: ASCSnapshot.TerritoryPrices?, review: ASCSnapshot.Review?) {
        self.localizations = localizations
        self.price = price
        self.prices = prices
        self.introductoryOffer = introductoryOffer
        self.review = review
    }
}

extension IncludedAttributes {
    var localization: ASCSnapshot.Localization? {
        locale.map { ASCSnapshot.Localization(locale: $0, name: name, description: description, state: state) }
    }
}
