/// Subscription periods and offers in words, with prices from `PriceFormatter`: "1 month",
/// "$9.99/month", "$4.99/month, billed $59.99/year", "1 week free, then $9.99/month",
/// "$0.99/month for 3 months", "$1.99 for 2 months".
public struct OfferText: Sendable {
    public let locale: String
    private let language: PeriodLanguage

    /// `locale` in any form `PriceFormatter` takes; languages beyond the ten supported fall back
    /// to English words (prices keep the locale's format).
    public init(locale: String) {
        self.locale = locale
        self.language = PeriodLanguage.forLocale(locale)
    }

    /// "3 months", "1 месяц", "5 месяцев".
    public func duration(_ period: SubscriptionPeriod) -> String {
        words(period, language.units)
    }

    /// "$9.99/month"; "$19.99/3 months" for periods of several units.
    public func perPeriod(_ price: String, _ period: SubscriptionPeriod) -> String {
        period.value == 1 ? price + "/" + language.perUnit[period.unit]! : price + "/" + duration(period)
    }

    /// "$4.99/month, billed $59.99/year": a long period's price as a monthly equivalent.
    public func perMonthEquivalent(perMonth: String, billed: String, _ period: SubscriptionPeriod) -> String {
        fill(language.billedAs, ["perMonth": perPeriod(perMonth, SubscriptionPeriod(value: 1, unit: .month)),
                                 "billed": perPeriod(billed, period)])
    }

    /// "1 week free, then $9.99/month".
    public func freeTrial(_ trial: SubscriptionPeriod, thenPrice recurring: String, every period: SubscriptionPeriod) -> String {
        fill(language.freeTrial, ["trial": duration(trial), "recurring": perPeriod(recurring, period)])
    }

    /// "$0.99/month for 3 months": `periods` periods at the offer price.
    public func payAsYouGo(_ price: String, _ period: SubscriptionPeriod, periods: Int) -> String {
        // Loaders keep `periods` to 1...1000 (`SubscriptionPeriod.offerPeriods`); past an Int, the longest there is.
        let total = period.times(periods) ?? SubscriptionPeriod(value: .max, unit: period.unit)
        return fill(language.payAsYouGo, ["perPeriod": perPeriod(price, period), "duration": words(total, afterPreposition)])
    }

    /// "$1.99 for 2 months": one payment for the whole offer.
    public func payUpFront(_ price: String, _ duration: SubscriptionPeriod) -> String {
        fill(language.payUpFront, ["price": price, "duration": words(duration, afterPreposition)])
    }

    /// Unit patterns after "for"/"за"/"на": the accusative where the language has one.
    private var afterPreposition: [SubscriptionPeriod.Unit: [PeriodLanguage.Plural: String]] {
        language.accusative.merging(language.units) { accusative, _ in accusative }
    }

    private func words(_ period: SubscriptionPeriod, _ table: [SubscriptionPeriod.Unit: [PeriodLanguage.Plural: String]]) -> String {
        let forms = table[period.unit]!
        let pattern = forms[language.plural(period.value)] ?? forms[.other] ?? forms[.one]!
        return pattern.replacingOccurrences(of: "{0}", with: String(period.value))
    }

    private func fill(_ template: String, _ values: [String: String]) -> String {
        var out = template
        for (key, value) in values { out = out.replacingOccurrences(of: "{" + key + "}", with: value) }
        return out
    }
}
