import Foundation
import TestSupport
import XCTest
@testable import PriceFormatting

/// Our strings equal Foundation's `Decimal.FormatStyle.Currency` (which has none of
/// NumberFormatter's Linux defects), computed in the same test, for storefront locales × amounts.
final class CrossCheckTests: XCTestCase {
    /// (locale, currency): the required ones from the issue, and the App Store's larger storefronts.
    static let locales: [(String, String)] = [
        ("en_US", "USD"), ("en_US@currency=EUR", "EUR"), ("ar_SA", "SAR"), ("he_IL", "ILS"), ("hi_IN", "INR"), ("en_IN", "INR"),
        ("ar_KW", "KWD"), ("ar_BH", "BHD"), ("de_CH", "CHF"), ("fr_CA", "CAD"), ("ja_JP", "JPY"), ("ko_KR", "KRW"),
        ("id_ID", "IDR"), ("vi_VN", "VND"), ("es_CL", "CLP"), ("es_CO", "COP"), ("ur_PK", "PKR"), ("zh_Hant_TW", "TWD"),
        ("en_GB", "GBP"), ("de_DE", "EUR"), ("fr_FR", "EUR"), ("it_IT", "EUR"), ("es_ES", "EUR"), ("nl_NL", "EUR"),
        ("pt_BR", "BRL"), ("pt_PT", "EUR"), ("ru_RU", "RUB"), ("tr_TR", "TRY"), ("pl_PL", "PLN"), ("sv_SE", "SEK"),
        ("nb_NO", "NOK"), ("da_DK", "DKK"), ("fi_FI", "EUR"), ("cs_CZ", "CZK"), ("hu_HU", "HUF"), ("ro_RO", "RON"),
        ("th_TH", "THB"), ("ms_MY", "MYR"), ("en_SG", "SGD"), ("zh_Hans_CN", "CNY"), ("zh_Hant_HK", "HKD"),
        ("en_AU", "AUD"), ("en_NZ", "NZD"), ("en_ZA", "ZAR"), ("es_MX", "MXN"), ("ar_AE", "AED"), ("ar_EG", "EGP"),
        ("uk_UA", "UAH"), ("en_NG", "NGN"), ("fil_PH", "PHP"), ("kk_KZ", "KZT"), ("el_GR", "EUR"), ("en_CA", "CAD"),
        ("de_AT", "EUR"), ("fr_CH", "CHF"), ("en_US", "JPY"),
    ]
    static let amounts = ["0", "0.29", "0.99", "1", "1.005", "9.99", "12.5", "99.99", "1234.56", "1000000", "12345678901234567.89"]

    func testMatchesFormatStyleEverywhere() throws {
        XCTAssertGreaterThanOrEqual(Self.locales.count, 45)
        let formatter = PriceFormatter()
        var mismatches: [String] = []
        for (locale, currency) in Self.locales {
            let base = try PriceLocale(parsing: locale).identifier
            for text in Self.amounts + Self.amounts.dropFirst().map({ "-" + $0 }) {
                let amount = try XCTUnwrap(AmountText.parse(text))
                let ours = try formatter.string(amount, currency: currency, locale: locale)
                let reference = amount.formatted(.currency(code: currency).locale(Locale(identifier: base)))
                if ours != reference { mismatches.append("\(locale) \(currency) \(text): ours \(ours.debugDescription) FormatStyle \(reference.debugDescription)") }
            }
        }
        XCTAssertEqual(mismatches, [], "\(mismatches.count) mismatches")
    }

    /// Random amounts with up to 8 fraction digits (rounding, ties, carries into new digits).
    func testRandomAmountsRoundLikeFormatStyle() throws {
        let formatter = PriceFormatter()
        var rng = SeededGenerator(seed: 20261121)
        var mismatches: [String] = []
        for (locale, currency) in [("en_US", "USD"), ("ja_JP", "JPY"), ("ar_KW", "KWD"), ("en_IN", "INR"), ("de_CH", "CHF")] {
            for _ in 0..<800 {
                let integer = String(UInt64.random(in: 0...(UInt64(1) << UInt64.random(in: 0...50, using: &rng)), using: &rng))
                let places = Int.random(in: 0...8, using: &rng)
                var fraction = (0..<places).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
                if places > 0 && Bool.random(using: &rng) { fraction = String(fraction.dropLast()) + "5" }   // ties
                let text = (Bool.random(using: &rng) ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
                let amount = try XCTUnwrap(AmountText.parse(text), text)
                let ours = try formatter.string(amount, currency: currency, locale: locale)
                let reference = amount.formatted(.currency(code: currency).locale(Locale(identifier: locale)))
                if ours != reference { mismatches.append("\(locale) \(text): ours \(ours.debugDescription) FormatStyle \(reference.debugDescription)") }
            }
        }
        XCTAssertEqual(Array(mismatches.prefix(10)), [], "\(mismatches.count) mismatches")
    }

    /// The ISO-code style against FormatStyle's `.presentation(.isoCode)`.
    func testISOCodeStyleMatchesFormatStyle() throws {
        let formatter = PriceFormatter()
        var mismatches: [String] = []
        for (locale, currency) in Self.locales {
            let base = try PriceLocale(parsing: locale).identifier
            for text in ["0.99", "1234.56", "-12.5"] {
                let amount = try XCTUnwrap(AmountText.parse(text))
                let ours = try formatter.string(amount, currency: currency, locale: locale, style: .isoCode)
                let reference = amount.formatted(.currency(code: currency).presentation(.isoCode).locale(Locale(identifier: base)))
                if ours != reference { mismatches.append("\(locale) \(currency) \(text): ours \(ours.debugDescription) FormatStyle \(reference.debugDescription)") }
            }
        }
        XCTAssertEqual(mismatches, [], "\(mismatches.count) mismatches")
        XCTAssertEqual(try formatter.string(Decimal(string: "0.99")!, currency: "USD", locale: "en_US", style: .isoCode), "USD\u{00A0}0.99")
    }

    /// Every storefront's own (locale, currency) pair, over amounts from 0 to 1,000,000 with every
    /// count of integer digits (grouping starts at different lengths in different locales).
    func testEveryStorefrontMatchesFormatStyle() throws {
        XCTAssertEqual(Storefronts.all.count, 175)
        let formatter = PriceFormatter()
        let amounts = ["0", "0.99", "1", "9.99", "12", "99.99", "100", "999.99", "1000", "1234.56", "9999.99", "10000",
                       "12345.67", "99999.99", "100000", "123456.78", "999999.99", "1000000"]
        var mismatches: [String] = []
        for storefront in Storefronts.all {
            let base = try PriceLocale(parsing: storefront.locale).identifier
            for text in amounts {
                let amount = try XCTUnwrap(AmountText.parse(text))
                let ours = try formatter.string(amount, currency: storefront.currency, locale: storefront.locale)
                let reference = amount.formatted(.currency(code: storefront.currency).locale(Locale(identifier: base)))
                if ours != reference {
                    mismatches.append("\(storefront.alpha3) \(storefront.locale) \(storefront.currency) \(text): ours \(ours.debugDescription) FormatStyle \(reference.debugDescription)")
                }
            }
        }
        XCTAssertEqual(mismatches, [], "\(mismatches.count) mismatches")
    }
}
