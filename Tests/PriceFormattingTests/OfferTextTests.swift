import XCTest
@testable import PriceFormatting

final class OfferTextTests: XCTestCase {
    let prices = PriceFormatter()

    func price(_ amount: String, _ currency: String, _ locale: String) throws -> String {
        try prices.string(AmountText.parse(amount)!, currency: currency, locale: locale)
    }

    func testPeriodsParse() throws {
        XCTAssertEqual(try SubscriptionPeriod(iso8601: "P1M"), SubscriptionPeriod(value: 1, unit: .month))
        XCTAssertEqual(try SubscriptionPeriod(iso8601: "p2w"), SubscriptionPeriod(value: 2, unit: .week))
        XCTAssertEqual(try SubscriptionPeriod(iso8601: "P1Y").months, 12)
        for bad in ["", "P", "1M", "PM", "P0M", "P1X", "P1Y6M", "P-1M", "PT1H", "P1000D"] {
            XCTAssertThrowsError(try SubscriptionPeriod(iso8601: bad), bad)
        }
    }

    func testDurationsWithPluralRules() throws {
        let ru = OfferText(locale: "ru_RU")
        XCTAssertEqual([1, 2, 5, 11, 21, 22, 25, 112].map { ru.duration(SubscriptionPeriod(value: $0, unit: .month)) },
                       ["1 месяц", "2 месяца", "5 месяцев", "11 месяцев", "21 месяц", "22 месяца", "25 месяцев", "112 месяцев"])
        XCTAssertEqual([1, 3, 5].map { ru.duration(SubscriptionPeriod(value: $0, unit: .year)) }, ["1 год", "3 года", "5 лет"])
        let en = OfferText(locale: "en_US")
        XCTAssertEqual(en.duration(try SubscriptionPeriod(iso8601: "P1M")), "1 month")
        XCTAssertEqual(en.duration(try SubscriptionPeriod(iso8601: "P3M")), "3 months")
        XCTAssertEqual(OfferText(locale: "fr_FR").duration(try SubscriptionPeriod(iso8601: "P1Y")), "1 an")
        XCTAssertEqual(OfferText(locale: "pt-BR").duration(try SubscriptionPeriod(iso8601: "P6M")), "6 meses")
        XCTAssertEqual(OfferText(locale: "ja_JP").duration(try SubscriptionPeriod(iso8601: "P3M")), "3か月")
        XCTAssertEqual(OfferText(locale: "zh_Hans_CN@currency=CNY").duration(try SubscriptionPeriod(iso8601: "P2W")), "2周")
        // Languages without a translation use English words.
        XCTAssertEqual(OfferText(locale: "sv_SE").duration(try SubscriptionPeriod(iso8601: "P1W")), "1 week")
    }

    func testPerPeriodAndMonthlyEquivalent() throws {
        let en = OfferText(locale: "en_US")
        XCTAssertEqual(en.perPeriod(try price("9.99", "USD", "en_US"), try SubscriptionPeriod(iso8601: "P1M")), "$9.99/month")
        XCTAssertEqual(en.perPeriod(try price("59.99", "USD", "en_US"), try SubscriptionPeriod(iso8601: "P1Y")), "$59.99/year")
        XCTAssertEqual(en.perPeriod(try price("19.99", "USD", "en_US"), try SubscriptionPeriod(iso8601: "P3M")), "$19.99/3 months")
        XCTAssertEqual(en.perMonthEquivalent(perMonth: try price("4.99", "USD", "en_US"), billed: try price("59.99", "USD", "en_US"),
                                             try SubscriptionPeriod(iso8601: "P1Y")), "$4.99/month, billed $59.99/year")
        XCTAssertEqual(OfferText(locale: "de_DE").perPeriod(try price("9.99", "EUR", "de_DE"), try SubscriptionPeriod(iso8601: "P1M")),
                       "9,99\u{00A0}€/Monat")
        XCTAssertEqual(OfferText(locale: "ru_RU").perPeriod(try price("999", "RUB", "ru_RU"), try SubscriptionPeriod(iso8601: "P1M")),
                       "999,00\u{00A0}₽/мес.")
    }

    func testIntroductoryOffers() throws {
        let month = try SubscriptionPeriod(iso8601: "P1M")
        let en = OfferText(locale: "en_US")
        XCTAssertEqual(en.freeTrial(try SubscriptionPeriod(iso8601: "P1W"), thenPrice: try price("9.99", "USD", "en_US"), every: month),
                       "1 week free, then $9.99/month")
        XCTAssertEqual(en.payAsYouGo(try price("0.99", "USD", "en_US"), month, periods: 3), "$0.99/month for 3 months")
        XCTAssertEqual(en.payUpFront(try price("1.99", "USD", "en_US"), try SubscriptionPeriod(iso8601: "P2M")), "$1.99 for 2 months")
        let ru = OfferText(locale: "ru_RU")
        XCTAssertEqual(ru.payUpFront(try price("99", "RUB", "ru_RU"), try SubscriptionPeriod(iso8601: "P1W")), "99,00\u{00A0}₽ за 1 неделю")
        XCTAssertEqual(ru.payAsYouGo(try price("99", "RUB", "ru_RU"), month, periods: 5), "99,00\u{00A0}₽/мес. на 5 месяцев")
        XCTAssertEqual(OfferText(locale: "de_DE").freeTrial(try SubscriptionPeriod(iso8601: "P1W"), thenPrice: try price("9.99", "EUR", "de_DE"), every: month),
                       "1 Woche kostenlos, danach 9,99\u{00A0}€/Monat")
        XCTAssertEqual(OfferText(locale: "ja_JP").freeTrial(try SubscriptionPeriod(iso8601: "P1W"), thenPrice: try price("980", "JPY", "ja_JP"), every: month),
                       "1週間無料、その後¥980/月")
        XCTAssertEqual(OfferText(locale: "fr_FR").payUpFront(try price("1.99", "EUR", "fr_FR"), try SubscriptionPeriod(iso8601: "P2M")),
                       "1,99\u{00A0}€ pour 2 mois")
    }

    func testEverySupportedLanguageHasEveryForm() {
        for locale in ["en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "ja_JP", "ko_KR", "zh_Hans_CN", "pt_BR", "ru_RU"] {
            let text = OfferText(locale: locale)
            for unit in SubscriptionPeriod.Unit.allCases {
                for n in [1, 2, 3, 5, 11, 21] {
                    let words = text.duration(SubscriptionPeriod(value: n, unit: unit))
                    XCTAssertTrue(words.contains(String(n)), "\(locale) \(n) \(unit): \(words)")
                    XCTAssertFalse(words.contains("{"), "\(locale): \(words)")
                }
                let offer = text.payAsYouGo("P", SubscriptionPeriod(value: 1, unit: unit), periods: 2)
                XCTAssertFalse(offer.contains("{"), "\(locale): \(offer)")
            }
        }
    }
}
