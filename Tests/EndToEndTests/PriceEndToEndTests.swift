import Foundation
import XCTest

final class PriceEndToEndTests: XCTestCase {
    func testOnePrice() throws {
        let cases: [([String], String)] = [
            (["0.99", "--locale", "en_US", "--currency", "USD"], "$0.99\n"),
            (["1.005", "--locale", "en_US", "--currency", "USD"], "$1.00\n"),
            (["1000000", "--locale", "en_IN", "--currency", "INR"], "₹10,00,000.00\n"),
            (["1234.56", "--locale", "ja_JP@currency=JPY"], "¥1,235\n"),
            (["-4.99", "--locale", "de_DE", "--currency", "EUR"], "-4,99\u{00A0}€\n"),
            (["0.99", "--locale", "en_US", "--currency", "USD", "--iso-code"], "USD\u{00A0}0.99\n"),
        ]
        for (arguments, expected) in cases {
            let result = try IAPRunner.run(["price"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertEqual(result.stdout, expected, "\(arguments)")
        }
    }

    func testBadInputIsAUsageError() throws {
        let cases: [([String], String)] = [
            (["1,99", "--locale", "en_US", "--currency", "USD"], "iap: error: '1,99' is not an amount: write digits with '.' for decimals, e.g. 0.99 or -12.50\n"),
            (["abc", "--locale", "en_US", "--currency", "USD"], "iap: error: 'abc' is not an amount: write digits with '.' for decimals, e.g. 0.99 or -12.50\n"),
            (["1e999999", "--locale", "en_US", "--currency", "USD"], "iap: error: '1e999999' is not an amount: write digits with '.' for decimals, e.g. 0.99 or -12.50\n"),
            (["1", "--locale", "en_US", "--currency", "XYZ"], "iap: error: 'XYZ' is not an ISO 4217 currency code Foundation knows (e.g. USD, EUR, JPY)\n"),
            (["1", "--locale", "12_!!", "--currency", "USD"], "iap: error: '12_!!' is not a locale identifier: use forms like en_US, pt-BR, ja_JP@currency=JPY\n"),
            (["1", "--locale", "en_US"], "iap: error: no currency for locale 'en_US': pass --currency CODE or a locale like en_US@currency=EUR\n"),
            (["1", "--currency", "USD", "--storefronts", "USA,XXX"], "iap: error: 'XXX' is not an App Store storefront: use an alpha-3 or alpha-2 code such as USA, JPN, DE (see iap storefronts)\n"),
        ]
        for (arguments, message) in cases {
            let result = try IAPRunner.run(["price"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertEqual(result.stderr, message, "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testStorefrontTableAndFormats() throws {
        let text = try IAPRunner.run(["price", "0.99", "--currency", "EUR", "--storefronts", "DEU,USA"])
        XCTAssertEqual(text.stdout, "STOREFRONT  LOCALE  PRICE\nDEU         de_DE   0,99\u{00A0}€\nUSA         en_US   €0.99\n")
        let csv = try IAPRunner.run(["price", "0.99", "--currency", "EUR", "--storefronts", "DEU,USA", "--format", "csv"])
        XCTAssertEqual(csv.stdout, "STOREFRONT,LOCALE,PRICE\nDEU,de_DE,0,99\u{00A0}€\nUSA,en_US,€0.99\n".replacingOccurrences(of: "DEU,de_DE,0,99\u{00A0}€", with: "DEU,de_DE,\"0,99\u{00A0}€\""))
        let json = try IAPRunner.run(["price", "0.99", "--currency", "EUR", "--storefronts", "all", "--format", "json"])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
        XCTAssertEqual(rows.count, 175)
        XCTAssertEqual(rows.first { $0["storefront"] == "JPN" }?["price"], "€0.99")
        let storefronts = try IAPRunner.run(["storefronts", "--format", "csv"])
        XCTAssertEqual(storefronts.stdout.split(separator: "\n").count, 176)
        XCTAssertTrue(storefronts.stdout.contains("\nIND,IN,INR,en_IN,India\n"))
    }

    func testCatalogPrices() throws {
        let result = try IAPRunner.run(["price", "--catalog", "catalogs/RazeFaces", "--format", "csv"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.split(separator: "\n").suffix(2).joined(separator: "\n"), """
        com.razeware.razefaces.club.monthly,en_US,$2.99,$2.99/month,"1 week free, then $2.99/month"
        com.razeware.razefaces.club.yearly,en_US,$29.99,"$2.50/month, billed $29.99/year",$0.99/month for 3 months
        """)
    }
}
