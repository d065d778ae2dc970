import XCTest
@testable import SourceLint

/// The byte-level shortcuts of the Swift linter read what the slower forms read: a search over a
/// file's bytes finds what a search over any collection of the same bytes finds, and the words of
/// an ASCII name are the words its characters make.
final class ByteSearchTests: XCTestCase {
    /// The same bytes as a String's UTF-8 (contiguous, memchr) and as an array slice that does not
    /// start at 0 (contiguous too), and as a lazy collection (not contiguous: the generic search).
    func found(_ text: String, _ needle: StaticString) -> [Bool] {
        let padded = Array(("xx" + text).utf8)
        return [text.utf8.containsASCII(needle), padded[2...].containsASCII(needle), text.utf8.lazy.map { $0 }.containsASCII(needle)]
    }

    func testContainsASCIIFindsANeedleWhereverItIs() {
        XCTAssertEqual(found("SKProduct", "SKProduct"), [true, true, true])
        XCTAssertEqual(found("let p: SKProduct", "SKProduct"), [true, true, true])
        XCTAssertEqual(found("SKProductsRequest()", "SKProduct"), [true, true, true])
        XCTAssertEqual(found("x.currencyCode", "currencyCode"), [true, true, true])
        XCTAssertEqual(found("currencyCod", "currencyCode"), [false, false, false])
        XCTAssertEqual(found("urrencyCode", "currencyCode"), [false, false, false])
        XCTAssertEqual(found("currencyCodeX", "currencyCode"), [true, true, true])
        // The capital the search starts from, with no room before it for the needle's start.
        XCTAssertEqual(found("Code currencyCode", "currencyCode"), [true, true, true])
        XCTAssertEqual(found("Code", "currencyCode"), [false, false, false])
        XCTAssertEqual(found("yCode cyCode rencyCode", "currencyCode"), [false, false, false])
        XCTAssertEqual(found("// iap: disable", "iap:"), [true, true, true])
        XCTAssertEqual(found("iap", "iap:"), [false, false, false])
        XCTAssertEqual(found("", "iap:"), [false, false, false])
        XCTAssertEqual(found("GENERATED", "ENERATED"), [true, true, true])
    }

    func testContainsASCIIIgnoringCaseFindsEveryCase() {
        XCTAssertTrue("let kProPrice = 4.99".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertTrue("PRICE".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertTrue("pRiCe".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertTrue("price".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertFalse("pric e".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertFalse("pric".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertFalse("PRIC3".utf8.containsASCIIIgnoringCase("price"))
        XCTAssertTrue(Array("xxPrice".utf8)[2...].containsASCIIIgnoringCase("price"))
    }

    /// An ASCII name's words (read as bytes) are what its characters give: the same name with a
    /// non-ASCII separator after it (`·`, neither letter nor digit) takes the Character path.
    func testASCIIWordsAreTheCharactersWords() {
        let names = ["MembershipTier+Mocks", "URLSession2Fast", "kProAnnualPrice", "priceLocale", "HTTPSConnection", "a", "A", "AB", "ABc",
                     "x_y__z", "version120beta", "iOS17", "__preview__", "ProductID", "productIDs", "Preview Content", "99", "a1b2C3",
                     "tabs\tand\r\nlines", "ALLCAPS", "camelCaseHTTP", ""]
        for name in names {
            XCTAssertEqual(LintScope.words(name), LintScope.words(name + "·"), name)
        }
        XCTAssertEqual(LintScope.words("URLSession2Fast"), ["url", "session", "2", "fast"])
        XCTAssertEqual(LintScope.words("MembershipTier+Mocks"), ["membership", "tier", "mocks"])
    }
}
