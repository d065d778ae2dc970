import Diagnostics
import Foundation

extension ASCSnapshot {
    /// The first value no App Store Connect answer can hold, with where it is (`inAppPurchases[3]
    /// ('com.acme.coins').price.amount`); nil when every value is one. A pulled snapshot and a
    /// snapshot file are both held to it before anything is made of them.
    public func firstProblem() -> (at: String, why: String)? {
        var check = ValueChecker()
        check.check(app.id, at: "app.id", ResourceID.problem)
        check.check(app.bundleId, at: "app.bundleId", ASCValue.productID)
        check.check(app.name, at: "app.name", ASCValue.text)
        check.check(storefront, at: "storefront", ASCValue.code)
        var productIDs: Set<String> = []
        var resourceIDs: Set<String> = []
        func product(_ at: String, _ productId: String, _ id: String, _ name: String?, _ state: String?, _ familySharable: Bool?,
                     _ localizations: [Localization], _ price: Price?, _ prices: TerritoryPrices?, _ scheduled: ScheduledPrices?) {
            check.check(productId, at: "\(at).productId", ASCValue.productID)
            check.check(id, at: "\(at).id", ResourceID.problem)
            if check.problem == nil, !productIDs.insert(productId).inserted {
                check.fail(at: "\(at).productId", "is \(Quote.escaped(productId)): a second product with that ID")
            }
            if check.problem == nil, !resourceIDs.insert(id).inserted {
                check.fail(at: "\(at).id", "is \(Quote.escaped(id)): a second product with that resource ID")
            }
            check.check(name, at: "\(at).name", ASCValue.text)
            check.check(state, at: "\(at).state", ASCValue.token)
            var locales: Set<String> = []
            for (index, l) in localizations.enumerated() {
                let place = "\(at).localizations[\(index)]"
                check.check(l.locale, at: "\(place).locale", ASCValue.locale)
                if check.problem == nil, !locales.insert(l.locale).inserted {
                    check.fail(at: "\(place).locale", "is \(Quote.escaped(l.locale)): a second localization in that locale")
                }
                check.check(l.name, at: "\(place).name", ASCValue.text)
                check.check(l.description, at: "\(place).description", ASCValue.text)
                check.check(l.state, at: "\(place).state", ASCValue.token)
            }
            if let price { self.check(price, at: "\(at).price", &check) }
            for (territory, price) in (prices?.byTerritory ?? [:]).sorted(by: { $0.key < $1.key }) where check.problem == nil {
                check.check(territory, at: "\(at).prices", ASCValue.code)
                self.check(price, at: "\(at).prices.\(territory)", &check)
            }
            for (territory, entries) in (scheduled?.byTerritory ?? [:]).sorted(by: { $0.key < $1.key }) where check.problem == nil {
                check.check(territory, at: "\(at).scheduledPrices", ASCValue.code)
                if entries.count > ASCValue.maxScheduledPrices {
                    check.fail(at: "\(at).scheduledPrices.\(territory)", "has \(entries.count) prices to come, more than the \(ASCValue.maxScheduledPrices) a snapshot holds")
                }
                for entry in entries where check.problem == nil {
                    check.check(entry.start, at: "\(at).scheduledPrices.\(territory)", ASCValue.date)
                    self.check(entry.price, at: "\(at).scheduledPrices.\(territory)", &check)
                }
            }
        }
        func review(_ review: Review?, at: String) {
            guard let availability = review?.availability else { return }
            check.check(availability.id, at: "\(at).review.availability.id", ResourceID.problem)
            var seen: Set<String> = []
            for (index, territory) in (availability.territories ?? []).enumerated() {
                check.check(territory, at: "\(at).review.availability.territories[\(index)]", ASCValue.code)
                if check.problem == nil, !seen.insert(territory).inserted {
                    check.fail(at: "\(at).review.availability.territories[\(index)]", "is \(Quote.escaped(territory)): a territory twice")
                }
            }
        }
        for (index, p) in inAppPurchases.enumerated() {
            let at = "inAppPurchases[\(index)]"
            product(at, p.productId, p.id, p.name, p.state, p.familySharable, p.localizations, p.price, p.prices, p.scheduledPrices)
            check.check(p.type, at: "\(at).type", ASCValue.token)
            check.check(p.reviewNote, at: "\(at).reviewNote", ASCValue.text)
            review(p.review, at: at)
        }
        var groupIDs: Set<String> = []
        for (g, group) in subscriptionGroups.enumerated() {
            let at = "subscriptionGroups[\(g)]"
            check.check(group.id, at: "\(at).id", ResourceID.problem)
            if check.problem == nil, !groupIDs.insert(group.id).inserted {
                check.fail(at: "\(at).id", "is \(Quote.escaped(group.id)): a second group with that resource ID")
            }
            check.check(group.referenceName, at: "\(at).referenceName", ASCValue.text)
            var locales: Set<String> = []
            for (index, l) in (group.localizations ?? []).enumerated() {
                let place = "\(at).localizations[\(index)]"
                check.check(l.locale, at: "\(place).locale", ASCValue.locale)
                if check.problem == nil, !locales.insert(l.locale).inserted {
                    check.fail(at: "\(place).locale", "is \(Quote.escaped(l.locale)): a second localization in that locale")
                }
                check.check(l.name, at: "\(place).name", ASCValue.text)
                check.check(l.customAppName, at: "\(place).customAppName", ASCValue.text)
                check.check(l.state, at: "\(place).state", ASCValue.token)
            }
            for (index, s) in group.subscriptions.enumerated() {
                let at = "\(at).subscriptions[\(index)]"
                product(at, s.productId, s.id, s.name, s.state, s.familySharable, s.localizations, s.price, s.prices, s.scheduledPrices)
                check.check(s.period, at: "\(at).period", ASCValue.token)
                check.check(s.reviewNote, at: "\(at).reviewNote", ASCValue.text)
                check.check(s.groupLevel, at: "\(at).groupLevel", ASCValue.groupLevel)
                review(s.review, at: at)
                if let offer = s.introductoryOffer {
                    check.check(offer.mode, at: "\(at).introductoryOffer.mode", ASCValue.token)
                    check.check(offer.duration, at: "\(at).introductoryOffer.duration", ASCValue.token)
                    check.check(offer.periods, at: "\(at).introductoryOffer.periods", ASCValue.offerPeriods)
                    if let price = offer.price { self.check(price, at: "\(at).introductoryOffer.price", &check) }
                }
                if let offers = s.promotionalOffers, offers.count > ASCValue.maxPromotionalOffers {
                    check.fail(at: "\(at).promotionalOffers", "has \(offers.count) offers, more than the \(ASCValue.maxPromotionalOffers) a snapshot holds")
                }
                for (o, offer) in (s.promotionalOffers ?? []).enumerated() where check.problem == nil {
                    let place = "\(at).promotionalOffers[\(o)]"
                    check.check(offer.code, at: "\(place).code", ASCValue.text)
                    check.check(offer.name, at: "\(place).name", ASCValue.text)
                    check.check(offer.mode, at: "\(place).mode", ASCValue.token)
                    check.check(offer.duration, at: "\(place).duration", ASCValue.token)
                    check.check(offer.periods, at: "\(place).periods", ASCValue.offerPeriods)
                }
                if let offers = s.winBackOffers, offers.count > ASCValue.maxPromotionalOffers {
                    check.fail(at: "\(at).winBackOffers", "has \(offers.count) offers, more than the \(ASCValue.maxPromotionalOffers) a snapshot holds")
                }
                for (o, offer) in (s.winBackOffers ?? []).enumerated() where check.problem == nil {
                    let place = "\(at).winBackOffers[\(o)]"
                    check.check(offer.offerId, at: "\(place).offerId", ASCValue.text)
                    check.check(offer.name, at: "\(place).name", ASCValue.text)
                    check.check(offer.mode, at: "\(place).mode", ASCValue.token)
                    check.check(offer.duration, at: "\(place).duration", ASCValue.token)
                    check.check(offer.periods, at: "\(place).periods", ASCValue.offerPeriods)
                    for (name, months) in [("paidMonths", offer.paidMonths), ("lapsedMinMonths", offer.lapsedMinMonths),
                                           ("lapsedMaxMonths", offer.lapsedMaxMonths), ("waitMonths", offer.waitMonths)] {
                        check.check(months, at: "\(place).\(name)", ASCValue.months)
                    }
                    check.check(offer.startDate, at: "\(place).startDate", ASCValue.date)
                    check.check(offer.endDate, at: "\(place).endDate", ASCValue.date)
                    check.check(offer.priority, at: "\(place).priority", ASCValue.token)
                }
                if let codes = s.offerCodes, codes.count > ASCValue.maxPromotionalOffers {
                    check.fail(at: "\(at).offerCodes", "has \(codes.count) offer codes, more than the \(ASCValue.maxPromotionalOffers) a snapshot holds")
                }
                for (o, code) in (s.offerCodes ?? []).enumerated() where check.problem == nil {
                    let place = "\(at).offerCodes[\(o)]"
                    check.check(code.name, at: "\(place).name", ASCValue.text)
                    check.check(code.mode, at: "\(place).mode", ASCValue.token)
                    check.check(code.duration, at: "\(place).duration", ASCValue.token)
                    check.check(code.periods, at: "\(place).periods", ASCValue.offerPeriods)
                    check.check(code.offerEligibility, at: "\(place).offerEligibility", ASCValue.token)
                    if let list = code.eligibilities, list.count > 3 {
                        check.fail(at: "\(place).eligibilities", "has \(list.count) entries, more than the 3 kinds of customer")
                    }
                    for (e, word) in (code.eligibilities ?? []).enumerated() { check.check(word, at: "\(place).eligibilities[\(e)]", ASCValue.token) }
                    check.check(code.id, at: "\(place).id", ResourceID.problem)
                    if let custom = code.customCodes, custom.count > ASCValue.maxPromotionalOffers {
                        check.fail(at: "\(place).customCodes", "has \(custom.count) custom codes, more than the \(ASCValue.maxPromotionalOffers) a snapshot holds")
                    }
                    for (c, custom) in (code.customCodes ?? []).enumerated() where check.problem == nil {
                        check.check(custom.code, at: "\(place).customCodes[\(c)].code") { ASCValue.text($0) ?? ($0.isEmpty ? "is empty" : nil) }
                        check.check(custom.numberOfCodes, at: "\(place).customCodes[\(c)].numberOfCodes") { $0 >= 0 && $0 <= 100_000_000 ? nil : "not a number of redemptions" }
                        check.check(custom.expirationDate, at: "\(place).customCodes[\(c)].expirationDate", ASCValue.date)
                    }
                }
            }
        }
        for (index, p) in (pending ?? []).enumerated() {
            check.check(p.id, at: "pending[\(index)].id", ResourceID.problem)
        }
        return check.problem
    }

    private func check(_ price: Price, at: String, _ check: inout ValueChecker) {
        check.check(price.amount, at: "\(at).amount", ASCValue.price)
        check.check(price.currency, at: "\(at).currency", ASCValue.code)
    }
}
