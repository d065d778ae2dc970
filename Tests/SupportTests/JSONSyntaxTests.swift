import Support
import XCTest

/// What `JSONDecoder` on Linux does not say: where JSON is wrong, whether it was cut short, and
/// which integer it refuses for not fitting in 64 bits.
final class JSONSyntaxTests: XCTestCase {
    func testTheErrorIsAtItsLineAndColumnAndACutShortTextEndsAtItsLastByte() throws {
        let wrong = try XCTUnwrap(JSONSyntax.firstError(in: Array("{\"a\": [1,\n  }".utf8)))
        XCTAssertEqual([wrong.line, wrong.column, wrong.offset], [2, 3, 12])
        XCTAssertEqual(wrong.message, "expected a value, found '}'")
        for cut in ["{\"a\": [1,", "{\"a\": \"tex", "[", "{\"a\":"] {
            let failure = try XCTUnwrap(JSONSyntax.firstError(in: Array(cut.utf8)), cut)
            XCTAssertGreaterThanOrEqual(failure.offset, cut.utf8.count, cut)
        }
    }

    func testIntegersPast64BitsAreFoundWhenAsked() throws {
        let text = Array("{\"n\": [9223372036854775807, -9223372036854775808, 1.5e300,\n 9223372036854775808]}".utf8)
        XCTAssertNil(JSONSyntax.firstError(in: text))
        let failure = try XCTUnwrap(JSONSyntax.firstError(in: text, integersIn64Bits: true))
        XCTAssertEqual([failure.line, failure.column], [2, 2])
        XCTAssertEqual(failure.message, "the integer 9223372036854775808 does not fit in 64 bits")
        XCTAssertNil(JSONSyntax.firstError(in: Array("[-9223372036854775808, 1e30, 0.5]".utf8), integersIn64Bits: true))
        XCTAssertEqual(JSONSyntax.firstError(in: Array("[-9223372036854775809]".utf8), integersIn64Bits: true)?.message,
                       "the integer -9223372036854775809 does not fit in 64 bits")
    }
}
