import Foundation
import XCTest
@testable import PriceFormatting

final class StorefrontTests: XCTestCase {
    func testTheTable() throws {
        XCTAssertEqual(Storefronts.all.count, 175)
        XCTAssertEqual(Set(Storefronts.all.map(\.alpha3)).count, 175)
        XCTAssertEqual(Set(Storefronts.all.map(\.alpha2)).count, 175)
        XCTAssertEqual(Set(Storefronts.all.map(\.currency)).count, 43)   // the App Store's 43 pricing currencies
        let formatter = PriceFormatter()
        for storefront in Storefronts.all {
            XCTAssertTrue(CurrencyCodes.known.contains(storefront.currency), storefront.alpha3)
            // Every display locale is for the storefront's own country.
            XCTAssertTrue(storefront.locale.hasSuffix("_" + storefront.alpha2), storefront.alpha3)
            XCTAssertNoThrow(try formatter.string(Decimal(string: "0.99")!, currency: storefront.currency, locale: storefront.locale),
                             storefront.alpha3)
        }
        XCTAssertEqual(try Storefronts.find("jpn").currency, "JPY")
        XCTAssertEqual(try Storefronts.find("DE").alpha3, "DEU")
        XCTAssertEqual(try Storefronts.find("KWT").currency, "USD")   // priced in USD, not KWD
        XCTAssertEqual(try Storefronts.parseList("USA, JPN,DEU").map(\.alpha3), ["USA", "JPN", "DEU"])
        XCTAssertThrowsError(try Storefronts.find("ATA"))
        XCTAssertThrowsError(try Storefronts.parseList("USA,,JPN"))
    }
}
