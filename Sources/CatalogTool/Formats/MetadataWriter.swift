import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import PropertyList

/// Writes a catalog as our metadata plist (docs/metadata.md) or as a plain product-ID
/// list: what `iap convert` turns a `.storekit` file into. Products keep the catalog's order; each
/// product's keys are in the order docs/metadata.md documents them, so the file reads like a
/// hand-written one and diffs cleanly.
public struct MetadataWriter: Sendable {
    public init() {}

    /// `.storekit` locales are `en_US`; metadata plists write `en-US`.
    public static func plistLocale(_ locale: String) -> String { locale.replacingOccurrences(of: "_", with: "-") }

    public func metadataPlist(_ catalog: Catalog) -> String {
        var top: [PlistDictionary.Entry] = [entry("IAPCatalogMetadata", .integer(PlistInteger(1)))]
        if let bundle = catalog.bundleID?.value { top.append(entry("bundleID", .string(bundle))) }
        if !catalog.requiredLocales.isEmpty {
            top.append(entry("requiredLocales", .array(catalog.requiredLocales.map { PlistNode(.string($0)) })))
        }
        // A StoreKit configuration's storefront, when it is not the USA's (the default both ways).
        if let origin = Self.priceOrigin(catalog), let storefront = try? Storefronts.find(origin.storefront) {
            if storefront.alpha3 != "USA" { top.append(entry("storefront", .string(storefront.alpha3))) }
            if let locale = origin.locale, StoreKitWriter.storeKitLocale(locale) != StoreKitWriter.storeKitLocale(storefront.locale) {
                top.append(entry("locale", .string(locale)))
            }
        }
        top.append(entry("products", .dictionary(PlistDictionary(catalog.products.map { entry($0.id, .dictionary(fields(of: $0))) }))))
        return PlistWriter().write(.dictionary(PlistDictionary(top)))
    }

    /// The one storefront (and locale) every single price of the catalog is for, when they agree.
    public static func priceOrigin(_ catalog: Catalog) -> (storefront: String, locale: String?)? {
        var storefronts = Set<String>()
        var locales = Set<String>()
        for product in catalog.products {
            guard let price = product.metadata.price?.value else { continue }
            guard let storefront = price.storefront else { return nil }
            storefronts.insert(storefront)
            if let locale = price.locale { locales.insert(locale) }
        }
        guard storefronts.count == 1, let storefront = storefronts.first, locales.count <= 1 else { return nil }
        return (storefront, locales.first)
    }

    public func idList(_ catalog: Catalog) -> String {
        PlistWriter().write(.array(catalog.products.map { PlistNode(.string($0.id)) }))
    }

    private func entry(_ key: String, _ value: PlistValue) -> PlistDictionary.Entry {
        PlistDictionary.Entry(key: key, value: PlistNode(value))
    }

    private func amount(_ value: Decimal) -> PlistValue { .string(value.description) }

    private func fields(of product: Product) -> PlistDictionary {
        let m = product.metadata
        var out: [PlistDictionary.Entry] = []
        // Only a declared kind: a guess written as `kind` would become a fact.
        if let kind = m.kind?.value ?? (product.kindReason.isDeclared ? product.kind : nil) { out.append(entry("kind", .string(kind.rawValue))) }
        if let name = m.referenceName?.value { out.append(entry("referenceName", .string(name))) }
        if let price = m.price?.value {
            out.append(entry("price", .string(price.amountText)))
            if let currency = price.currency { out.append(entry("currency", .string(currency))) }
        }
        if !m.storefrontPrices.isEmpty {
            out.append(entry("prices", .dictionary(PlistDictionary(m.storefrontPrices.compactMap { price in
                price.value.storefront.map { entry($0, amount(price.value.amount)) }
            }))))
        }
        if let start = m.priceStartDate?.value { out.append(entry("priceStartDate", .string(start))) }
        if let shareable = m.familyShareable { out.append(entry("familyShareable", .bool(shareable))) }
        if let note = m.reviewNote?.value { out.append(entry("reviewNote", .string(note))) }
        if let availability = m.availability?.value {
            let territories: PlistValue = availability.all ? .string("all") : .array(availability.territories.map { PlistNode(.string($0)) })
            out.append(entry("availability", .dictionary(PlistDictionary([entry("territories", territories),
                                                                          entry("newTerritories", .bool(availability.newTerritories))]))))
        }
        if let group = m.subscriptionGroup?.value { out.append(entry("subscriptionGroup", .string(group))) }
        if let level = m.groupLevel?.value { out.append(entry("groupLevel", .integer(PlistInteger(Int64(level))))) }
        if let period = m.subscriptionPeriod?.value { out.append(entry("subscriptionPeriod", .string("\(period)"))) }
        if let offer = m.introductoryOffer {
            out.append(entry("introductoryOffer", .dictionary(PlistDictionary(
                offerFields(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price)))))
        }
        if !m.promotionalOffers.isEmpty {
            out.append(entry("promotionalOffers", .array(m.promotionalOffers.map { offer in
                var fields = [entry("id", .string(offer.id))]
                if let name = offer.referenceName { fields.append(entry("referenceName", .string(name))) }
                fields += offerFields(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price)
                return PlistNode(.dictionary(PlistDictionary(fields)))
            })))
        }
        if !m.winBackOffers.isEmpty {
            out.append(entry("winBackOffers", .array(m.winBackOffers.map { offer in
                var fields = [entry("id", .string(offer.terms.id))]
                if let name = offer.terms.referenceName { fields.append(entry("referenceName", .string(name))) }
                fields += offerFields(mode: offer.terms.paymentMode, period: offer.terms.period, periods: offer.terms.numberOfPeriods, price: offer.terms.price)
                fields.append(entry("paidMonths", .integer(PlistInteger(Int64(offer.paidMonths)))))
                fields.append(entry("lapsedMonths", .dictionary(PlistDictionary([entry("min", .integer(PlistInteger(Int64(offer.lapsedMonths.lowerBound)))),
                                                                                 entry("max", .integer(PlistInteger(Int64(offer.lapsedMonths.upperBound))))]))))
                if let wait = offer.waitMonths { fields.append(entry("waitMonths", .integer(PlistInteger(Int64(wait))))) }
                fields.append(entry("startDate", .string(offer.startDate)))
                if let end = offer.endDate { fields.append(entry("endDate", .string(end))) }
                if offer.highPriority { fields.append(entry("priority", .string("high"))) }
                return PlistNode(.dictionary(PlistDictionary(fields)))
            })))
        }
        if !m.offerCodes.isEmpty {
            out.append(entry("offerCodes", .array(m.offerCodes.map { code in
                var fields = [entry("referenceName", .string(code.terms.id))]
                fields += offerFields(mode: code.terms.paymentMode, period: code.terms.period, periods: code.terms.numberOfPeriods, price: code.terms.price)
                fields.append(entry("eligibility", .array(code.eligibility.map { PlistNode(.string($0.rawValue)) })))
                if code.stackable { fields.append(entry("stackable", .bool(true))) }
                if !code.customCodes.isEmpty {
                    fields.append(entry("customCodes", .array(code.customCodes.map { custom in
                        var codeFields = [entry("code", .string(custom.code)), entry("numberOfCodes", .integer(PlistInteger(Int64(custom.numberOfCodes))))]
                        if let day = custom.expirationDate { codeFields.append(entry("expirationDate", .string(day))) }
                        return PlistNode(.dictionary(PlistDictionary(codeFields)))
                    })))
                }
                return PlistNode(.dictionary(PlistDictionary(fields)))
            })))
        }
        if !m.localizations.isEmpty {
            out.append(entry("localizations", .dictionary(PlistDictionary(Self.onePerLocale(m.localizations).map { localization in
                var fields: [PlistDictionary.Entry] = []
                if let name = localization.displayName { fields.append(entry("displayName", .string(name))) }
                if let text = localization.description { fields.append(entry("description", .string(text))) }
                return entry(Self.plistLocale(localization.locale), .dictionary(PlistDictionary(fields)))
            }))))
        }
        return PlistDictionary(out)
    }

    /// A plist holds one localization per locale: the first of each (`en_US` and `en-US` are one).
    static func onePerLocale(_ localizations: [Localization]) -> [Localization] {
        var seen = Set<String>()
        return localizations.filter { seen.insert(plistLocale($0.locale)).inserted }
    }

    /// Products whose kind is inferred, not declared, which the plist leaves without `kind`.
    public static func inferredKinds(_ catalog: Catalog) -> [String] {
        let inferred = catalog.products.filter { $0.kind != nil && !$0.kindReason.isDeclared && $0.metadata.kind == nil }
        guard let first = inferred.first else { return [] }
        return ["the kind of \(inferred.count == 1 ? "\(Quote.bounded(first.id))" : "\(inferred.count) products (the first \(Quote.bounded(first.id)))"), inferred from words, not declared: written without <key>kind</key> (iap list says what it was inferred from)"]
    }

    /// Products with a second localization in one locale, which `onePerLocale` leaves out: what
    /// a conversion to a metadata plist lists as not carried over.
    public static func repeatedLocales(_ catalog: Catalog) -> [String] {
        catalog.products.compactMap { product in
            var counts: [String: Int] = [:]
            for localization in product.metadata.localizations { counts[plistLocale(localization.locale), default: 0] += 1 }
            let repeated = counts.filter { $0.value > 1 }.keys.sorted()
            guard !repeated.isEmpty else { return nil }
            return "\(Quote.bounded(product.id)): a second localization in \(repeated.joined(separator: ", ")) (the metadata plist holds one per locale; the first is kept)"
        }
    }

    private func offerFields(mode: PaymentMode, period: SubscriptionPeriod, periods: Int, price: Decimal?) -> [PlistDictionary.Entry] {
        var fields = [entry("paymentMode", .string(mode.rawValue)), entry("period", .string("\(period)"))]
        if periods != 1 { fields.append(entry("periods", .integer(PlistInteger(Int64(periods))))) }
        if mode != .freeTrial, let price { fields.append(entry("price", amount(price))) }
        return fields
    }
}
