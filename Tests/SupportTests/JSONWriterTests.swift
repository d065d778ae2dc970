import Foundation
import Support
import XCTest

final class JSONWriterTests: XCTestCase {
    /// `{"a": [1, "x", {}, []], "b": {"c": true, "d": null}, "e": []}` in `style`.
    func sample(_ style: JSONWriter.Style) -> String {
        var json = JSONWriter(capacity: 64, style: style)
        json.openObject()
        json.key("a")
        json.openArray()
        json.int(1)
        json.string("x")
        json.openObject(); json.closeObject()
        json.openArray(); json.closeArray()
        json.closeArray()
        json.key("b")
        json.openObject()
        json.key("c"); json.bool(true)
        json.key("d"); json.null()
        json.closeObject()
        json.key("e")
        json.openArray(); json.closeArray()
        json.closeObject()
        return json.finish()
    }

    func testPretty() {
        XCTAssertEqual(sample(.pretty), """
        {
          "a": [
            1,
            "x",
            {},
            []
          ],
          "b": {
            "c": true,
            "d": null
          },
          "e": []
        }

        """)
    }

    func testCompact() {
        XCTAssertEqual(sample(.compact), "{\"a\":[1,\"x\",{},[]],\"b\":{\"c\":true,\"d\":null},\"e\":[]}\n")
    }

    func testXcodeWritesEmptyContainersOnTwoLines() {
        XCTAssertEqual(sample(.xcode), """
        {
          "a" : [
            1,
            "x",
            {

            },
            [

            ]
          ],
          "b" : {
            "c" : true,
            "d" : null
          },
          "e" : [

          ]
        }

        """)
    }

    func testRowsOnOneLineBelowTheLineDepth() {
        let style = JSONWriter.Style(colon: ": ", comma: ", ", lineDepth: 1, emptyOnTwoLines: true)
        var json = JSONWriter(capacity: 64, style: style)
        json.openArray()
        json.openObject(); json.key("a"); json.string("1"); json.key("b"); json.int(-20); json.closeObject()
        json.openObject(); json.closeObject()
        json.closeArray()
        XCTAssertEqual(json.finish(), "[\n  {\"a\": \"1\", \"b\": -20},\n  {}\n]\n")
        var empty = JSONWriter(capacity: 8, style: style)
        empty.openArray(); empty.closeArray()
        XCTAssertEqual(empty.finish(), "[\n\n]\n")
    }

    /// A colon no preset has: keys known when compiling and keys known at run time end alike.
    func testAnyColon() {
        var json = JSONWriter(capacity: 32, style: JSONWriter.Style(colon: " = ", comma: "; ", lineDepth: 0, emptyOnTwoLines: false))
        json.openObject(); json.key("a"); json.int(1); json.key(String("b")); json.int(2); json.closeObject()
        XCTAssertEqual(json.finish(), "{\"a\" = 1; \"b\" = 2}\n")
    }

    func testTopLevelScalarsAndNumbers() {
        var json = JSONWriter(capacity: 8)
        json.number("1.5e+20")
        XCTAssertEqual(json.finish(), "1.5e+20\n")
        var ints = JSONWriter(capacity: 8, style: .compact)
        ints.openArray(); ints.int(0); ints.int(-7); ints.int(Int.min); ints.int(Int.max); ints.closeArray()
        XCTAssertEqual(ints.finish(), "[0,-7,-9223372036854775808,9223372036854775807]\n")
    }

    static let awkward = ["", "q\"b\\s/", "tab\tcr\rlf\n", "\u{7F}del", "é€", "😀", "\u{2028}", "\u{0}",
                          String(String.UnicodeScalarView((1...0x1F).map { Unicode.Scalar($0)! }))]

    func testEscapingInKeysAndValues() {
        var json = JSONWriter(capacity: 64, style: .compact)
        json.openObject()
        json.key("k\"\\/\u{1}"); json.string("\u{8}\u{C}\u{1F}\u{7F}é😀/")
        json.closeObject()
        XCTAssertEqual(json.finish(), "{\"k\\\"\\\\/\\u0001\":\"\\u0008\\u000c\\u001f\u{7F}é😀/\"}\n")
        var foundation = JSONWriter(capacity: 64, style: .foundation)
        foundation.string("\u{8}\u{C}\u{B}")
        XCTAssertEqual(foundation.finish(), "\"\\b\\f\\u000b\"\n")
    }

    struct Row: Encodable {
        var name: String
        var note: String?
        var tags: [String]
        var count: Int
    }

    /// The `.foundation` style gives JSONEncoder's bytes (pretty, sorted keys, slashes unescaped),
    /// absent optionals left out, on strings that need every kind of escape.
    func testFoundationStyleMatchesJSONEncoder() throws {
        let rows = Self.awkward.enumerated().map { n, text in
            Row(name: text, note: n % 2 == 0 ? nil : text, tags: n % 3 == 0 ? [] : [text, "x"], count: n - 3)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for value in [rows, []] {
            let expected = String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
            var json = JSONWriter(capacity: 1024, style: .foundation)
            json.openArray()
            for row in value {
                json.openObject()
                json.key("count"); json.int(row.count)
                json.key("name"); json.string(row.name)
                if let note = row.note { json.key("note"); json.string(note) }
                json.key("tags")
                json.openArray()
                for tag in row.tags { json.string(tag) }
                json.closeArray()
                json.closeObject()
            }
            json.closeArray()
            XCTAssertEqual(json.finish(), expected)
        }
    }

    func testJSONValueSortsKeysAndRendersPretty() {
        let value = JSONValue.object([("b", .array([.int(1), .bool(false), .null])), ("a", .string("x/y")), ("c", .object([]))])
        XCTAssertEqual(value.rendered(), "{\n  \"a\": \"x/y\",\n  \"b\": [\n    1,\n    false,\n    null\n  ],\n  \"c\": {}\n}\n")
    }
}
