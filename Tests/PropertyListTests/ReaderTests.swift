import Foundation
import XCTest
@testable import PropertyList

final class ReaderTests: XCTestCase {
    let reader = PlistReader()

    func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    func read(_ text: String) throws -> PlistNode {
        try reader.read(string: text).root
    }

    func readError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> PlistError? {
        do {
            _ = try reader.read(string: text)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: A root array of strings, kept without a tree

    func testARootArrayOfStringsIsKeptAsStringsAndPositions() throws {
        let content = try reader.readContent(bytes: Array(plist("<array>\n\t<string>com.a.one</string>\n  <string>b &amp; c</string>\n</array>").utf8))
        guard case .strings(let list) = content else { return XCTFail("expected the strings, got \(content)") }
        XCTAssertEqual(list.position, PlistPosition(line: 4, column: 1))
        XCTAssertEqual(list.strings, ["com.a.one", "b & c"])
        XCTAssertEqual(list.positions, [PlistPosition(line: 5, column: 2), PlistPosition(line: 6, column: 3)])
        // The tree of the same file holds the same strings at the same places.
        let root = try read(plist("<array>\n\t<string>com.a.one</string>\n  <string>b &amp; c</string>\n</array>"))
        XCTAssertEqual(root.value.arrayValue?.map(\.position), list.positions)
        XCTAssertEqual(root.value.arrayValue?.compactMap(\.value.stringValue), list.strings)
    }

    func testAnEmptyRootArrayIsAnEmptyStringList() throws {
        guard case .strings(let list) = try reader.readContent(bytes: Array(plist("<array/>").utf8)) else { return XCTFail("expected the strings") }
        XCTAssertEqual(list.count, 0)
        XCTAssertEqual(try read(plist("<array/>")).value, .array([]))
    }

    func testARootArrayThatIsNotAllStringsIsATreeWithEveryPosition() throws {
        // The first item of another type turns the strings kept so far into nodes, at any index.
        let mixed = plist("<array>\n<string>a</string>\n<string>b</string>\n<integer>7</integer>\n<string>c</string>\n</array>")
        let nested = plist("<array>\n<string>a</string>\n<array><string>b</string></array>\n</array>")
        let dicts = plist("<array>\n<dict><key>k</key><string>v</string></dict>\n<string>a</string>\n</array>")
        for (text, expected, lines) in [
            (mixed, PlistValue.array([.init(.string("a")), .init(.string("b")), .init(.integer(.signed(7))), .init(.string("c"))]), [5, 6, 7, 8]),
            (nested, .array([.init(.string("a")), .init(.array([.init(.string("b"))]))]), [5, 6]),
            (dicts, .array([.init(.dictionary(PlistDictionary([.init(key: "k", value: .init(.string("v")))]))), .init(.string("a"))]), [5, 6]),
        ] {
            let content = try reader.readContent(bytes: Array(text.utf8))
            guard case .tree(let root) = content else { return XCTFail("expected a tree for \(text)") }
            XCTAssertEqual(root.value, expected)
            XCTAssertEqual(root.position, PlistPosition(line: 4, column: 1))
            XCTAssertEqual(root.value.arrayValue?.map { Int($0.position.line) }, lines)
            XCTAssertEqual(root.value.arrayValue?.map(\.position.column), Array(repeating: 1, count: lines.count))
        }
    }

    func testASecondRootValueAfterAStringListIsStillAnError() {
        let error = readError(plist("<array><string>a</string></array>\n<string>b</string>"))
        XCTAssertEqual(error?.message, "a property list holds one root value; found a second one, <string>")
        XCTAssertEqual(error?.line, 5)
    }

    /// Every value of a tree with its position, in file order, for comparing two readings whole
    /// (node equality compares values only).
    func flattened(_ node: PlistNode, _ path: String = "") -> [String] {
        var out = ["\(path) \(node.position)"]
        switch node.value {
        case .array(let items): for (i, item) in items.enumerated() { out += flattened(item, "\(path)[\(i)]") }
        case .dictionary(let dictionary): for entry in dictionary.entries { out += ["\(path).\(entry.key) key \(entry.keyPosition)"] + flattened(entry.value, "\(path).\(entry.key)") }
        default: out[0] += " \(node.value)"
        }
        return out
    }

    /// `read` builds nodes from the start and `readContent` keeps a list of strings as strings:
    /// the same tree, every position included, and the same error at the same place, for every
    /// shape of root (strings only, strings then another type at any index, empty, other roots).
    func testTheTreeIsTheSameWhetherStringsWereKeptOrNot() throws {
        let bodies = [
            "<array>\n\t<string>com.a.one</string>\n  <string>b &amp; c</string>\n</array>",
            "<array/>", "<array></array>",
            "<array>\n<string>a</string>\n<string>b</string>\n<integer>7</integer>\n<string>c</string>\n</array>",
            "<array><integer>1</integer><string>a</string></array>",
            "<array>\n<string>a</string>\n<array><string>b</string></array>\n</array>",
            "<array>\n<dict><key>k</key><string>v</string></dict>\n<string>a</string>\n</array>",
            "<array><string><![CDATA[x<y]]></string><!-- c --><string/></array>",
            "<dict><key>ids</key><array><string>a</string></array></dict>",
            "<string>alone</string>",
        ]
        for body in bodies {
            let bytes = Array(plist(body).utf8)
            let tree = try reader.read(bytes: bytes).root
            let kept = try reader.readContent(bytes: bytes).tree
            XCTAssertEqual(flattened(tree), flattened(kept), body)
        }
        let broken = [
            "<array><string>a</string></array>\n<string>b</string>",
            "<array><string>a</string>\n<string>b</strin></array>",
            "<array><string>a</string>\n<string>&bogus;</string></array>",
            "<array><string>a</string>\n<key>k</key></array>",
        ]
        for body in broken {
            let bytes = Array(plist(body).utf8)
            func error(_ read: () throws(PlistError) -> Void) -> String {
                do { try read(); return "no error" } catch { return "\(error.line):\(error.column) \(error.message)" }
            }
            let fromTree = error { () throws(PlistError) in _ = try reader.read(bytes: bytes) }
            XCTAssertNotEqual(fromTree, "no error", body)
            XCTAssertEqual(fromTree, error { () throws(PlistError) in _ = try reader.readContent(bytes: bytes) }, body)
        }
    }

    // MARK: Positions, however a tag is spelled and wherever a chunk ends

    /// A value's position is the `<` of its tag whether the tag is `<name>`, has a space or an
    /// attribute, is empty (`<name/>`), has a namespace prefix, or is an unknown name longer than
    /// any plist element's; and wherever libxml2's input chunks end (the padding of the first
    /// item moves every later tag across the 64-byte chunk boundaries); `read` and `readContent`
    /// agree.
    func testATagsPositionIsItsLessThanSignHoweverSpelledAndWhereverAChunkEnds() throws {
        let rest = "\n\t<string>a</string>\n\t<string >b</string>\n\t<string a=\"1\">c</string>\n\t<string/>\n"
            + "  <x:string xmlns:x=\"urn:x\">e</x:string><string>f</string>\n</array>\n"
        let expected = [(1, 8), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3), (6, 41)].map { PlistPosition(line: $0.0, column: $0.1) }
        for padding in 0..<80 {
            let pad = String(repeating: "p", count: padding)
            let text = Array(("<array><string>" + pad + "</string>" + rest).utf8)
            let unknown = Array("<array><string>\(pad)</string>\n<string>b</string><strings>c</strings></array>\n".utf8)
            for reader in [PlistReader(chunkSize: 64), PlistReader()] {
                let root = try reader.read(bytes: text).root
                let context = "padding \(padding), chunk \(reader.chunkSize)"
                XCTAssertEqual(root.position, PlistPosition(line: 1, column: 1), context)
                XCTAssertEqual(root.value.arrayValue?.map(\.position), expected, context)
                XCTAssertEqual(root.value.arrayValue?.compactMap(\.value.stringValue), [pad, "a", "b", "c", "", "e", "f"], context)
                guard case .strings(let list) = try reader.readContent(bytes: text) else { return XCTFail("expected the strings, \(context)") }
                XCTAssertEqual(list.positions, expected, context)
                do {
                    _ = try reader.read(bytes: unknown)
                    XCTFail("expected an error, \(context)")
                } catch {
                    XCTAssertEqual("\(error.line):\(error.column) \(error.message)",
                                   "2:19 unknown element <strings>: not part of the plist format", context)
                }
            }
        }
    }

    func testEveryTypeWithPositions() throws {
        let root = try read(plist("""
        <dict>
        \t<key>s</key>
        \t<string>hello</string>
        \t<key>i</key>
        \t<integer>-42</integer>
        \t<key>r</key>
        \t<real>1.5e3</real>
        \t<key>t</key>
        \t<true/>
        \t<key>f</key>
        \t<false/>
        \t<key>d</key>
        \t<date>2004-10-26T10:33:33Z</date>
        \t<key>b</key>
        \t<data>
        \tAAEC
        \tAw==
        \t</data>
        \t<key>a</key>
        \t<array>
        \t\t<string>x</string>
        \t</array>
        </dict>
        """))
        XCTAssertEqual(root.position, PlistPosition(line: 4, column: 1))
        let dict = try XCTUnwrap(root.value.dictionaryValue)
        XCTAssertEqual(dict.keys, ["s", "i", "r", "t", "f", "d", "b", "a"])
        XCTAssertEqual(dict["s"]?.value, .string("hello"))
        XCTAssertEqual(dict["s"]?.position, PlistPosition(line: 6, column: 2))
        XCTAssertEqual(dict.entry("s")?.keyPosition, PlistPosition(line: 5, column: 2))
        XCTAssertEqual(dict["i"]?.value, .integer(.signed(-42)))
        XCTAssertEqual(dict["r"]?.value, .real(PlistReal(1500)))
        if case .real(let r) = dict["r"]?.value { XCTAssertEqual(r.text, "1.5e3") }
        XCTAssertEqual(dict["t"]?.value, .bool(true))
        XCTAssertEqual(dict["f"]?.value, .bool(false))
        XCTAssertEqual(dict["d"]?.value, .date(Date(timeIntervalSince1970: 1_098_786_813)))
        XCTAssertEqual(dict["b"]?.value, .data(Data([0, 1, 2, 3])))
        XCTAssertEqual(dict["a"]?.value, .array([PlistNode(.string("x"))]))
        XCTAssertEqual(dict["a"]?.value.arrayValue?.first?.position, PlistPosition(line: 24, column: 3))
    }

    func testStringsKeepEntitiesCDATAAndWhitespaceExactly() throws {
        let root = try read(plist("""
        <array>
        <string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</string>
        <string>&#x1F600;&#65;</string>
        <string><![CDATA[<raw> & stuff]]></string>
        <string>  two  spaces\n\tand a tab  </string>
        <string></string>
        <string/>
        </array>
        """))
        XCTAssertEqual(root.value.arrayValue?.map(\.value), [
            .string("a & b <c> \"d\" 'e'"),
            .string("😀A"),
            .string("<raw> & stuff"),
            .string("  two  spaces\n\tand a tab  "),
            .string(""),
            .string(""),
        ])
    }

    func testIntegerRange() throws {
        let root = try read(plist("""
        <array>
        <integer>9223372036854775807</integer>
        <integer>-9223372036854775808</integer>
        <integer>18446744073709551615</integer>
        <integer> 7 </integer>
        <integer>0x1F</integer>
        <integer>-0</integer>
        </array>
        """))
        XCTAssertEqual(root.value.arrayValue?.map(\.value), [
            .integer(.signed(.max)), .integer(.signed(.min)), .integer(.unsigned(.max)),
            .integer(.signed(7)), .integer(.signed(31)), .integer(.signed(0)),
        ])
        for bad in ["18446744073709551616", "-9223372036854775809", "12a", "", "1.5", "--1"] {
            let error = readError(plist("<integer>\(bad)</integer>"))
            XCTAssertEqual(error?.kind, .invalidValue, bad)
            XCTAssertEqual(error?.line, 4, bad)
        }
        XCTAssertEqual(readError(plist("<integer>18446744073709551616</integer>"))?.message,
                       "integer '18446744073709551616' is out of range (-9223372036854775808 to 18446744073709551615)")
    }

    func testReals() throws {
        let root = try read(plist("""
        <array><real>0.5</real><real>-2.5E-3</real><real>nan</real><real>inf</real><real>-inf</real><real>+infinity</real><real>42</real></array>
        """))
        let values = try XCTUnwrap(root.value.arrayValue).map { node -> Double in
            guard case .real(let r) = node.value else { return -1 }
            return r.doubleValue
        }
        XCTAssertEqual(values[0], 0.5)
        XCTAssertEqual(values[1], -0.0025)
        XCTAssertTrue(values[2].isNaN)
        XCTAssertEqual(values[3], .infinity)
        XCTAssertEqual(values[4], -.infinity)
        XCTAssertEqual(values[5], .infinity)
        XCTAssertEqual(values[6], 42)
        for bad in ["abc", "1.2.3", "0x10", "1e", ""] {
            XCTAssertEqual(readError(plist("<real>\(bad)</real>"))?.kind, .invalidValue, bad)
        }
    }

    func testDatesAndData() throws {
        XCTAssertEqual(try read(plist("<date>1970-01-01T00:00:00Z</date>")).value, .date(Date(timeIntervalSince1970: 0)))
        XCTAssertEqual(try read(plist("<date>2000-02-29T23:59:59Z</date>")).value,
                       .date(Date(timeIntervalSince1970: 951_868_799)))
        for bad in ["2001-02-29T00:00:00Z", "2004-10-26 10:33:33", "yesterday", "2004-13-01T00:00:00Z"] {
            XCTAssertEqual(readError(plist("<date>\(bad)</date>"))?.kind, .invalidValue, bad)
        }
        XCTAssertEqual(try read(plist("<data>\n  SGVs\n  bG8=\n</data>")).value, .data(Data("Hello".utf8)))
        XCTAssertEqual(readError(plist("<data>!!!</data>"))?.message, "<data> is not valid base64")
    }

    func testDuplicateKeyNamesBothLines() {
        let error = readError(plist("""
        <dict>
        \t<key>a</key>
        \t<string>1</string>
        \t<key>a</key>
        \t<string>2</string>
        </dict>
        """))
        XCTAssertEqual(error?.kind, .duplicateKey)
        XCTAssertEqual(error?.message, "duplicate key 'a' in one <dict>: first at line 5, again at line 7")
        XCTAssertEqual(error?.line, 7)
        XCTAssertEqual(error?.column, 2)
    }

    func testDuplicateKeyInLargeDict() {
        var body = "<dict>\n"
        for i in 0..<40 { body += "<key>k\(i)</key><integer>\(i)</integer>\n" }
        body += "<key>k3</key><integer>0</integer>\n</dict>"
        XCTAssertEqual(readError(plist(body))?.message, "duplicate key 'k3' in one <dict>: first at line 8, again at line 45")
    }

    func testStructuralErrors() {
        let cases: [(String, String)] = [
            ("<dict><key>a</key></dict>", "key 'a' has no value"),
            ("<dict><string>x</string></dict>", "<string> in a <dict> without a <key> before it"),
            ("<array><key>x</key></array>", "<key> outside a <dict>"),
            ("<dict><key>a</key><key>b</key></dict>", "key 'a' at line 4 has no value (another <key> follows it)"),
            ("<foo/>", "unknown element <foo>: not part of the plist format"),
            ("<string>a<b/></string>", "<string> cannot contain elements (found <b>)"),
            ("<array>text</array>", "unexpected text 'text' inside <array>; values go in elements such as <string>"),
            ("<string>a</string><string>b</string>", "a property list holds one root value; found a second one, <string>"),
            ("<true>yes</true>", "<true/> must be empty"),
        ]
        for (body, message) in cases {
            let error = readError(plist(body))
            XCTAssertEqual(error?.message, message, body)
            XCTAssertEqual(error?.line, 4, body)
        }
        XCTAssertEqual(readError("<plist version=\"1.0\"></plist>")?.message, "the <plist> element holds no value")
    }

    func testMalformedXMLIsPositioned() {
        let error = readError(plist("<dict>\n<key>a</key>\n<string>x</strin>\n</dict>"))
        XCTAssertEqual(error?.kind, .malformedXML)
        XCTAssertEqual(error?.line, 6)
        XCTAssertTrue(error?.message.hasPrefix("XML error: Opening and ending tag mismatch") ?? false, error?.message ?? "")
    }

    func testBareRootWithoutPlistElement() throws {
        XCTAssertEqual(try read("<array><string>a</string></array>").value, .array([PlistNode(.string("a"))]))
    }
}
