import Foundation
import PriceFormatting
import TestSupport
import XCTest

/// The price-amount parser's fast path (up to 18 digits, no scanner) gives what Foundation's
/// `Decimal(string:)` gives: the same value and the same text, on fixed cases and 20,000 seeded ones.
final class AmountTextTests: XCTestCase {
    func assertSameAsFoundation(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let foundation = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        let ours = AmountText.parse(text)
        XCTAssertEqual(ours, foundation, text, file: file, line: line)
        XCTAssertEqual(ours?.description, foundation?.description, text, file: file, line: line)
    }

    func testFixedCases() {
        for text in ["0", "0.99", "0.990", "5.00", "1.05", "100", "1000.10", "-4.99", "+2.50", "0.000001", "007.50",
                     "999999999999999999", "99999999999999999.9", "0.00", "-0", "12345678.87654321"] {
            assertSameAsFoundation(text)
        }
        XCTAssertNil(AmountText.parse("1,99"))
        XCTAssertNil(AmountText.parse("."))
        XCTAssertNil(AmountText.parse("1."))
        XCTAssertNil(AmountText.parse("1.2.3"))
    }

    func testSeededAmounts() {
        var random = SeededGenerator(seed: 0x2545F4914F6CDD1D)
        func next(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        for _ in 0..<20_000 {
            let whole = String((0..<(1 + next(9))).map { _ in Character(String(next(10))) })
            let fraction = String((0..<next(6)).map { _ in Character(String(next(10))) })
            let sign = ["", "", "-", "+"][next(4)]
            assertSameAsFoundation(sign + whole + (fraction.isEmpty ? "" : "." + fraction))
        }
    }
}
