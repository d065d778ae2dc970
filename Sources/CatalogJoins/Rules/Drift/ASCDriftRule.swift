import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

/// `asc-drift`: the catalog and App Store Connect describe a product differently.
public enum ASCDriftRule: DriftRule {
    public static let description = RuleDescription(
        id: "asc-drift", name: "Catalog differs from App Store Connect", severity: .warning,
        rationale: "What App Store Connect holds is what StoreKit serves: a kind, subscription period, group, level, family-sharing flag or localized text that differs from the catalog means the paywall, the generated constants or the StoreKit test configuration describe a product the store does not sell. The message names the field and both places.",
        triggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro", marked: true),
                                      remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_YEAR")])],
        nonTriggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro"),
                                         remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_MONTH")])])

    /// Each field the catalog states that the snapshot holds otherwise, product by product.
    static func check(_ join: DriftJoin, into found: inout FindingCollector) {
        for product in join.catalog.products {
            guard let remote = join.byID[product.id] else { continue }
            let here = product.location
            let there = join.location(of: product.id)
            for difference in differences(product, remote, in: join.snapshot) {
                found.add(at: here) {
                    description.finding(
                        "\(Quote.bounded(product.id)): \(difference.field) is \(difference.here) here (\(difference.at)) but \(difference.there) in App Store Connect (\(there))",
                        at: here, related: [RelatedLocation(there, "in App Store Connect")],
                        fix: SuggestedFix(difference.fix ?? "change one to match the other; App Store Connect is what StoreKit serves"))
                }
            }
        }
    }

    struct Difference {
        var field: String
        var here: String
        var at: SourceLocation
        var there: String
        /// What to do, where it is not "change one to match the other".
        var fix: String?
    }

    static func differences(_ product: Product, _ remote: DriftCheck.Remote, in snapshot: ASCSnapshot) -> [Difference] {
        var found: [Difference] = []
        let metadata = product.metadata
        if case .declared(let at, _) = product.kindReason, let kind = product.kind, kind != remote.kind {
            found.append(Difference(field: "the kind", here: kind.displayName, at: at, there: remote.kind.displayName))
        }
        if let period = metadata.subscriptionPeriod, let name = remote.period, let theirs = DriftCheck.period(name),
           DriftCheck.normalized(period.value) != theirs {
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
        // A price declared from a day (`priceStartDate`) agrees with App Store Connect once it
        // holds that price from that day; a snapshot without prices to come (no
        // --all-storefronts) cannot say, and nothing is reported.
        let start = metadata.priceStartDate?.value
        func scheduled(_ storefront: String, _ mine: Located<ProductPrice>) -> Bool {
            guard let start else { return false }
            return remote.prices == nil || remote.scheduled.holds(storefront, mine.value.amount, from: start)
        }
        func held(_ amount: Decimal, _ currency: String) -> String {
            "\(amount) \(currency)" + (start.map { " (nothing scheduled from \($0))" } ?? "")
        }
        if let storefront = snapshot.storefront, let theirs = remote.price, let currency = theirs.currency, let amount = theirs.decimal,
           let mine = metadata.price(in: storefront, currency: currency), mine.value.amount != amount || mine.value.currency.map({ $0 != currency }) == true {
            if !scheduled(storefront, mine) {
                found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount) \(mine.value.currency ?? currency)",
                                        at: mine.location, there: held(amount, currency)))
            }
        } else if let storefront = snapshot.storefront, remote.price == nil, let currency = try? Storefronts.find(storefront).currency,
                  let mine = metadata.price(in: storefront, currency: currency) {
            // Pulled for this storefront and none there: no price schedule yet, or none in effect today.
            found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount) \(mine.value.currency ?? currency)",
                                    at: mine.location, there: "none (no price in \(storefront) today)",
                                    fix: "set its price in App Store Connect (Pricing and Availability), then pull the snapshot again: "
                                        + "StoreKit does not sell a product without a price"))
        }
        if let prices = remote.prices {
            // Every other storefront the catalog gives a price in by name (a metadata plist's
            // `prices`, a `.storekit` file's storefront), against App Store Connect's price there.
            // A base price with no storefront is not compared: App Store Connect's price in each
            // territory of its currency is its own (taxes differ), not the base.
            var compared: Set<String> = snapshot.storefront.map { [$0] } ?? []
            for mine in [metadata.price].compactMap({ $0 }) + metadata.storefrontPrices {
                guard let storefront = mine.value.storefront, compared.insert(storefront).inserted else { continue }
                if let theirs = prices[storefront], let currency = theirs.currency, let amount = theirs.decimal {
                    if mine.value.amount != amount || mine.value.currency.map({ $0 != currency }) == true, !scheduled(storefront, mine) {
                        found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount) \(mine.value.currency ?? currency)",
                                                at: mine.location, there: held(amount, currency)))
                    }
                } else if prices[storefront] == nil {
                    found.append(Difference(field: "the price in \(storefront)", here: "\(mine.value.amount)\(mine.value.currency.map { " \($0)" } ?? "")",
                                            at: mine.location, there: "none (no price in \(storefront) today)",
                                            fix: "set its price in \(storefront) in App Store Connect, then pull the snapshot again: "
                                                + "StoreKit does not sell a product without a price"))
                }
            }
        }
        if snapshot.storefront != nil, remote.kind == .autoRenewable, let mine = metadata.introductoryOffer {
            let theirs = remote.offer.flatMap(DriftCheck.offer)
            if let theirs, theirs != DriftCheck.offerText(mine) {
                found.append(Difference(field: "the introductory offer", here: DriftCheck.offerText(mine), at: mine.location, there: theirs))
            } else if theirs == nil, remote.offer == nil {
                found.append(Difference(field: "the introductory offer", here: DriftCheck.offerText(mine), at: mine.location,
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

}
