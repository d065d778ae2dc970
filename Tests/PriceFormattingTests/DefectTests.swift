import Foundation
import TestSupport
import XCTest
@testable import PriceFormatting

/// One test per defect of Foundation's NumberFormatter on Linux (Swift 6.3.1); each fails if its
/// workaround in PriceFormatter is removed. The comment says what the plain formatter prints.
final class DefectTests: XCTestCase {
    let formatter = PriceFormatter()

    func format(_ amount: String, _ currency: String?, _ locale: String) throws -> String {
        try formatter.string(try XCTUnwrap(AmountText.parse(amount)), currency: currency, locale: locale)
    }

    func testDecimalNeverGoesThroughDouble() throws {
        // NumberFormatter: "$1.01" (1.005 as a Double is 1.00499…, then rounded half-up).
        XCTAssertEqual(try format("1.005", "USD", "en_US"), "$1.00")
        XCTAssertEqual(try format("1.015", "USD", "en_US"), "$1.02")   // half-even: to the even cent
        XCTAssertEqual(try format("2.5", "JPY", "ja_JP"), "¥2")
        // NumberFormatter: "$12,345,678,901,234,568.00".
        XCTAssertEqual(try format("12345678901234567.89", "USD", "en_US"), "$12,345,678,901,234,567.89")
        XCTAssertEqual(try format("99999999999999999999999999999999999999", "USD", "en_US"),
                       "$99" + String(repeating: ",999", count: 12) + ".00")
    }

    func testIndianGrouping() throws {
        // NumberFormatter: "₹1,000,000.00" (its secondary grouping size is forced to 0).
        XCTAssertEqual(try format("1000000", "INR", "en_IN"), "₹10,00,000.00")
        XCTAssertEqual(try format("1000000", "INR", "hi_IN"), "₹10,00,000.00")
        XCTAssertEqual(try format("123456789.5", "INR", "en_IN"), "₹12,34,56,789.50")
        XCTAssertEqual(PriceFormatter.grouping(locale: "en_IN", currency: "INR").0, 3)
        XCTAssertEqual(PriceFormatter.grouping(locale: "en_IN", currency: "INR").1, 2)
        XCTAssertEqual(PriceFormatter.grouping(locale: "en_US", currency: "USD").1, 0)
    }

    /// Bhutan's English groups plain numbers the Indian way but amounts of money the Western way:
    /// the grouping must come from the currency pattern (found by the every-storefront cross-check).
    func testGroupingComesFromTheCurrencyPattern() throws {
        XCTAssertEqual(try format("1000000", "USD", "en_BT"), "US$1,000,000.00")
        XCTAssertEqual(try format("123456.78", "USD", "en_BT"), "US$123,456.78")
        XCTAssertEqual(PriceFormatter.grouping(locale: "en_BT", currency: "USD").1, 0)
    }

    func testCurrencyDigitsComeFromWhatIsPrinted() throws {
        // NumberFormatter's minimum/maximumFractionDigits say 2 for all of these.
        let digits = try ["USD": "en_US", "JPY": "ja_JP", "KWD": "ar_KW", "BHD": "ar_BH", "IDR": "id_ID", "COP": "es_CO", "PKR": "ur_PK", "CLP": "es_CL"]
            .mapValues { _ in 0 }.keys.sorted().map { code -> (String, Int) in
                let locale = ["USD": "en_US", "JPY": "ja_JP", "KWD": "ar_KW", "BHD": "ar_BH", "IDR": "id_ID", "COP": "es_CO", "PKR": "ur_PK", "CLP": "es_CL"][code]!
                return (code, try formatter.fractionDigits(currency: code, locale: locale))
            }
        // Foundation's data (Apple's ICU) gives IDR, COP and PKR 0 digits; upstream CLDR says 2.
        XCTAssertEqual(digits.map { "\($0.0)=\($0.1)" }, ["BHD=3", "CLP=0", "COP=0", "IDR=0", "JPY=0", "KWD=3", "PKR=0", "USD=2"])
        XCTAssertEqual(try format("1234.5678", "KWD", "ar_KW"), "\u{200F}١٬٢٣٤٫٥٦٨\u{00A0}د.ك.\u{200F}")
        XCTAssertEqual(try format("1234.56", "JPY", "ja_JP"), "¥1,235")
    }

    func testCodeWinsOverTheLocalesCurrency() throws {
        // With currencySymbol set, NumberFormatter ignores currencyCode (and its digits).
        XCTAssertEqual(try format("9.99", "EUR", "en_US"), "€9.99")
        XCTAssertEqual(try format("1234.56", "JPY", "en_US"), "¥1,235")
        XCTAssertEqual(try format("9.99", nil, "en_US@currency=EUR"), "€9.99")
        XCTAssertEqual(try format("9.99", "GBP", "en_US@currency=EUR"), "£9.99")
        XCTAssertEqual(try format("120", nil, "ja_JP@currency=JPY"), "¥120")
        XCTAssertEqual(try format("6", nil, "zh_Hans_CN@currency=CNY"), "¥6.00")
        XCTAssertEqual(try format("5.9", "BRL", "pt-BR"), "R$\u{00A0}5,90")
    }

    func testAmountsAreParsedStrictly() {
        // Decimal(string: "1,99") is 1.
        XCTAssertEqual(Decimal(string: "1,99"), 1)
        for bad in ["1,99", "abc", "1e999999", "1e3", "", ".5", "5.", "--1", "1.2.3", "0x10", "１２", String(repeating: "9", count: 39)] {
            XCTAssertNil(AmountText.parse(bad), bad)
        }
        XCTAssertEqual(AmountText.parse("-12.50"), Decimal(string: "-12.5"))
        XCTAssertEqual(AmountText.parse(" 0.99 "), Decimal(string: "0.99"))
        XCTAssertThrowsError(try Price(parsing: "1,99", currency: "USD")) { error in
            XCTAssertEqual("\(error)", "'1,99' is not an amount: write digits with '.' for decimals, e.g. 0.99 or -12.50")
        }
    }

    func testLocalesAndCurrencies() throws {
        XCTAssertEqual(try PriceLocale(parsing: "ja_JP@currency=JPY").identifier, "ja_JP")
        XCTAssertEqual(try PriceLocale(parsing: "ja_JP@currency=jpy").currency, "JPY")
        XCTAssertEqual(try PriceLocale(parsing: "pt-BR").identifier, "pt_BR")
        XCTAssertEqual(try PriceLocale(parsing: "zh_Hans_CN@currency=CNY").identifier, "zh_Hans_CN")
        for bad in ["", "1234", "en__US", "e", "en_US@currency", "en_US_POSIX_x_y", "en US"] {
            XCTAssertThrowsError(try PriceLocale(parsing: bad), bad)
        }
        XCTAssertThrowsError(try format("1", "XYZ", "en_US")) { XCTAssertEqual($0 as? PriceError, .unknownCurrency("XYZ")) }
        XCTAssertThrowsError(try format("1", nil, "en_US")) { XCTAssertEqual($0 as? PriceError, .missingCurrency("en_US")) }
    }

    func testNegativeAmountsAsTheLocaleShowsThem() throws {
        XCTAssertEqual(try format("-5", "USD", "en_US"), "-$5.00")
        XCTAssertEqual(try format("-1234.5", "CHF", "de_CH"), "CHF-1’234.50")
        XCTAssertEqual(try format("-0.29", "JPY", "ja_JP"), "-¥0")
    }

    func testConcurrentUseGivesTheSameStrings() throws {
        let shared = PriceFormatter()
        let cases = CrossCheckTests.locales.flatMap { locale, currency in ["0.99", "1234.56", "-12.5"].map { (locale, currency, $0) } }
        let expected = try cases.map { try format($0.2, $0.1, $0.0) }
        let results = LockedArray(count: 16)
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            var mine: [String] = []
            for (locale, currency, amount) in cases {
                mine.append((try? shared.string(AmountText.parse(amount)!, currency: currency, locale: locale)) ?? "error")
            }
            results.set(worker, mine)
        }
        for worker in 0..<16 { XCTAssertEqual(results.get(worker), expected, "worker \(worker)") }
    }
}

private final class LockedArray: @unchecked Sendable {
    private var items: [[String]]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: [], count: count) }
    func set(_ i: Int, _ value: [String]) { lock.withLock { items[i] = value } }
    func get(_ i: Int) -> [String] { lock.withLock { items[i] } }
}

final class DecimalDigitsTests: XCTestCase {
    /// The memory-layout fast path must agree with `description` wherever it applies.
    func testFastPathAgreesWithDescription() throws {
        XCTAssertTrue(DecimalDigits.layoutVerified, "Decimal's layout changed: formatting falls back to description (slower)")
        var rng = SeededGenerator(seed: 20261121)
        for _ in 0..<2000 {
            let text = (Bool.random(using: &rng) ? "-" : "") + String(UInt64.random(in: 0...UInt64.max >> UInt64.random(in: 0...60, using: &rng), using: &rng))
            let places = Int.random(in: 0...6, using: &rng)
            var value = try XCTUnwrap(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            value /= Decimal(sign: .plus, exponent: places, significand: 1)
            guard let parts = DecimalDigits.parts(of: value) else { continue }
            XCTAssertEqual(Decimal(sign: parts.negative ? .minus : .plus, exponent: parts.exponent, significand: Decimal(parts.mantissa)), value, "\(value)")
        }
    }
}
