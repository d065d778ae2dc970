@testable import PriceFormatting
import XCTest

/// Text with no decimal digit (in any script) and no placeholder is no price, and is told so
/// without compiling the patterns; text with one is matched as before.
final class PricePatternTests: XCTestCase {
    func testOnlyTextWithADigitOrPlaceholderIsMatched() {
        XCTAssertFalse(PricePattern.mayHoldPrice("Unlock all maps"))
        XCTAssertFalse(PricePattern.mayHoldPrice("Débloquez toutes les cartes — €"))
        XCTAssertFalse(PricePattern.mayHoldPrice(""))
        XCTAssertTrue(PricePattern.mayHoldPrice("Only $0.99"))
        XCTAssertTrue(PricePattern.mayHoldPrice("Prix : \u{1} €"))
        // Arabic-Indic and full-width digits are decimal digits to the patterns' `\d` too.
        XCTAssertTrue(PricePattern.mayHoldPrice("٠٫٩٩ ر.س"))
        XCTAssertTrue(PricePattern.mayHoldPrice("価格 ￥１２０"))
        XCTAssertNil(PricePattern.firstMatch(in: "Unlock all maps"))
        XCTAssertEqual(PricePattern.firstMatch(in: "Only $0.99 today"), "$0.99")
        XCTAssertEqual(PricePattern.firstMatch(in: "Prix : \u{1} €"), "… €")
    }
}
