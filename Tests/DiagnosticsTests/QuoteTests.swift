import Diagnostics
import XCTest

/// Input values are quoted whole up to 100 characters, and past that by their first 100, "…"
/// and their length (issue 22: a 300 MB product ID was quoted whole into 314 MB of output).
final class QuoteTests: XCTestCase {
    func testValuesAreQuotedWholeUpTo100Characters() {
        XCTAssertEqual(Quote.bounded("com.acme.coins"), "'com.acme.coins'")
        XCTAssertEqual(Quote.bounded(""), "''")
        let hundred = String(repeating: "a", count: 100)
        XCTAssertEqual(Quote.bounded(hundred), "'\(hundred)'")
        // 100 characters of 3 bytes each: more than 100 bytes, still whole.
        let wide = String(repeating: "日", count: 100)
        XCTAssertEqual(Quote.bounded(wide), "'\(wide)'")
    }

    func testLongerValuesSayWhatIsShown() {
        XCTAssertEqual(Quote.bounded(String(repeating: "a", count: 101)),
                       "'\(String(repeating: "a", count: 100))…' (101 characters; the first 100 shown)")
        XCTAssertEqual(Quote.bounded(String(repeating: "é", count: 250)),
                       "'\(String(repeating: "é", count: 100))…' (250 characters; the first 100 shown)")
        XCTAssertEqual(Quote.bounded(Substring(String(repeating: "x", count: 3 << 20))).utf8.count, 147)
    }

    /// Text someone else wrote (a server, a snapshot) reaches no terminal as an escape sequence.
    func testEscapedTextShowsControlCharactersAsEscapes() {
        XCTAssertEqual(Quote.escaped("RazeFaces"), "'RazeFaces'")
        XCTAssertEqual(Quote.escaped("a\u{1B}[2Jb\u{07}\nc\u{85}d"), "'a\\u{1B}[2Jb\\u{7}\\u{A}c\\u{85}d'")
        XCTAssertEqual(Quote.escaped("日本", open: "", close: ""), "日本")
        let long = "\u{1B}" + String(repeating: "x", count: 200)
        XCTAssertEqual(Quote.escaped(long), "'\\u{1B}\(String(repeating: "x", count: 99))…' (201 characters; the first 100 shown)")
    }
}
