import Diagnostics
import Foundation
import Support
import XCTest
@testable import IAPCatalog

/// `.storekit` files no tool should write: each is one positioned `malformed-catalog` error, never
/// a crash, a hang or a catalog silently missing products.
final class HostileStoreKitTests: XCTestCase {
    func finding(_ bytes: [UInt8]) -> String {
        let reading = StoreKitReader(path: "x.storekit").read(Data(bytes))
        return reading.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }.joined(separator: "\n")
    }

    func finding(_ text: String) -> String { finding(Array(text.utf8)) }

    let prefix = "not valid JSON, so not a StoreKit configuration file: "

    func testDeepNesting() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertEqual(finding(text), "1:512: \(prefix)nesting deeper than 511 levels")
    }

    func testNumbersBeyondADouble() {
        XCTAssertEqual(finding("{\n  \"version\" : { \"major\" : 1e400, \"minor\" : 0 }\n}"),
                       "2:27: \(prefix)number 1e400 is out of range")
        XCTAssertEqual(finding("{\"a\": -" + String(repeating: "9", count: 400) + "}"),
                       "1:7: \(prefix)number -999999999999999999999999999999999999999… is out of range")
        XCTAssertEqual(finding("{\"a\": 1.2.3}"), "1:7: \(prefix)'1.2.3' is not a number")
    }

    func testARepeatedKeyIsNotSilentlyDropped() {
        // JSONDecoder keeps one of the two "products" arrays and says nothing.
        let text = """
        {
          "products" : [ { "productID" : "com.a.one" } ],
          "products" : [ ],
          "version" : { "major" : 4, "minor" : 0 }
        }
        """
        XCTAssertEqual(finding(text),
                       "3:3: \(prefix)key \"products\" appears twice in one object; JSON readers keep only one of the values")
        // The same key in two different objects is fine.
        XCTAssertEqual(JSONSyntax.firstError(in: Array("[{\"a\":1},{\"a\":2,\"b\":{\"a\":3}}]".utf8)), nil)
    }

    func testInvalidUTF8() {
        XCTAssertEqual(finding(Array("{\n \"products\": [\"com.a.".utf8) + [0xC3, 0x28] + Array("\"]}".utf8)),
                       "2:22: \(prefix)invalid UTF-8 in a string (byte 0xC3)")
        // Overlong forms and surrogates encoded in UTF-8 are invalid too.
        XCTAssertNotNil(JSONSyntax.firstError(in: [0x22, 0xC0, 0xAF, 0x22]))
        XCTAssertNotNil(JSONSyntax.firstError(in: [0x22, 0xED, 0xA0, 0x80, 0x22]))
        XCTAssertNil(JSONSyntax.firstError(in: Array("\"Münzen 💎\"".utf8)))
    }
}
