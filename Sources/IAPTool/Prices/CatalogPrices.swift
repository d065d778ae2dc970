import Foundation
import IAPCatalog
import PriceFormatting

/// `iap price --catalog`: every declared price of the catalogs as customers see it, with its
/// period, a monthly equivalent for longer periods, and the introductory offer in words. A
/// price's currency and locale come with it from loading (a `.storekit` file's storefront); a
/// metadata plist's price is shown in `locale` (default en_US). Prices without a currency are
/// left out: loading reported them (unknown-price-currency).
public enum CatalogPrices {
    public static let header = ["ID", "LOCALE", "PRICE", "PER PERIOD", "INTRODUCTORY OFFER"]

    public static func rows(_ catalogs: [Catalog], locale: String?, style: PriceFormatter.Style,
                            formatter: PriceFormatter = PriceFormatter()) throws(PriceError) -> [[String]] {
        var rows: [[String]] = []
        for catalog in catalogs {
            for product in catalog.products {
                guard let declared = product.metadata.price?.value, let currency = declared.currency else { continue }
                let locale = declared.locale ?? locale ?? "en_US"
                let (price, period, offer) = try texts(product, amount: declared.amount, currency: currency, locale: locale,
                                                       style: style, formatter: formatter)
                rows.append([product.id, locale, price, period, offer])
            }
        }
        return rows
    }

    /// A price as customers see it in `locale`, its period in words (with the monthly equivalent
    /// of longer periods, rounded like any price in that currency), and its introductory offer.
    public static func texts(_ product: Product, amount: Decimal, currency: String, locale: String, style: PriceFormatter.Style,
                             formatter: PriceFormatter) throws(PriceError) -> (price: String, period: String, offer: String) {
        let price = try formatter.string(amount, currency: currency, locale: locale, style: style)
        let words = OfferText(locale: locale)
        var period = ""
        var offer = ""
        if let p = product.metadata.subscriptionPeriod?.value {
            period = words.perPeriod(price, p)
            if let months = p.months, months > 1 {
                let monthly = try formatter.string(amount / Decimal(months), currency: currency, locale: locale)
                period = words.perMonthEquivalent(perMonth: monthly, billed: price, p)
            }
            if let intro = product.metadata.introductoryOffer {
                let ip = intro.period
                var introPrice: String?
                if let value = intro.price { introPrice = try formatter.string(value, currency: currency, locale: locale) }
                switch intro.paymentMode {
                case .freeTrial: offer = words.freeTrial(ip, thenPrice: price, every: p)
                case .payAsYouGo: offer = introPrice.map { words.payAsYouGo($0, ip, periods: intro.numberOfPeriods) } ?? ""
                case .payUpFront:
                    offer = introPrice.map { words.payUpFront($0, ip.times(intro.numberOfPeriods) ?? SubscriptionPeriod(value: .max, unit: ip.unit)) } ?? ""
                }
            }
        }
        return (price, period, offer)
    }
}
