import Foundation
import TestSupport
import XCTest
@testable import PropertyList

/// Inputs an attacker or a broken tool could hand us: each must give an error or literal text,
/// never a crash, a hang, a network access or another file's content.
final class HostileInputTests: XCTestCase {
    let reader = PlistReader()

    func error(_ bytes: [UInt8]) -> PlistError? { readingError(bytes) }

    func error(_ text: String) -> PlistError? { error(Array(text.utf8)) }

    func testExternalEntityNeverReadsTheFile() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("iap-xxe-\(UUID()).txt")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        for doctype in ["<!DOCTYPE plist [", "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\" ["] {
            let text = """
            <?xml version="1.0"?>
            \(doctype)
              <!ENTITY xxe SYSTEM "file://\(secret.path)">
              <!ENTITY passwd SYSTEM "file:///etc/passwd">
            ]>
            <plist version="1.0"><array><string>&xxe;</string><string>&passwd;</string></array></plist>
            """
            do {
                let doc = try reader.read(string: text)
                XCTAssertFalse(String(describing: doc.root).contains("TOP-SECRET"))
                XCTAssertFalse(String(describing: doc.root).contains("root:"))
            } catch {
                XCTAssertFalse(error.message.contains("TOP-SECRET"))
                XCTAssertTrue(error.message.contains("xxe"), error.message)
                XCTAssertEqual(error.line, 6)
            }
        }
    }

    func testExternalDTDIsNotLoaded() {
        // A DTD on disk that would define an entity if it were loaded.
        let dtd = FileManager.default.temporaryDirectory.appendingPathComponent("iap-\(UUID()).dtd")
        try? "<!ENTITY leak \"LEAKED\">".write(to: dtd, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: dtd) }
        let e = error("<?xml version=\"1.0\"?><!DOCTYPE plist SYSTEM \"file://\(dtd.path)\"><plist><string>&leak;</string></plist>")
        XCTAssertNotNil(e)
        XCTAssertFalse(e?.message.contains("LEAKED") ?? true)
    }

    func testBillionLaughsFailsFast() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY lol \"lol\">\n"
        text += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for i in 2...9 {
            text += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n"
        }
        text += "]>\n<plist><string>&lol9;</string></plist>\n"
        let start = Date()
        let e = error(text)
        XCTAssertNotNil(e)
        XCTAssertTrue(e?.message.contains("lol9") ?? false, e?.message ?? "")
        XCTAssertEqual(e?.line, 14)
        // Not a timing assertion on speed: a guard against an expansion that would run for minutes.
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testNestingDepthIsBounded() {
        let depth = 10_000
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let e = error(text)
        XCTAssertEqual(e?.kind, .refused)
        XCTAssertEqual(e?.message, "nesting is deeper than 128 levels; refusing to read further")
        XCTAssertEqual(e?.line, 1)
    }

    func testEmptyFile() {
        XCTAssertEqual(error([UInt8]())?.message, "empty file (0 bytes): not a property list")
    }

    func testRandomBytesNeverCrash() {
        var generator = SeededGenerator(seed: 0x1AB)
        for length in [1, 2, 3, 5, 17, 100, 1000, 70_000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            XCTAssertNotNil(error(bytes), "random bytes of length \(length) parsed as a plist")
        }
        // Plist-like random mutations: flip bytes of a valid document.
        let valid = Array("<plist><dict><key>a</key><array><string>x</string><integer>1</integer></array></dict></plist>".utf8)
        for _ in 0..<500 {
            var mutated = valid
            for _ in 0..<3 { mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next()) }
            _ = error(mutated) // must return, valid or not
        }
    }

    func testInvalidUTF8() {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist><string>".utf8) + [0xC3, 0x28, 0xFF] + Array("</string></plist>".utf8)
        let e = error(bytes)
        XCTAssertEqual(e?.kind, .malformedXML)
        XCTAssertEqual(e?.line, 2)
        XCTAssertTrue(e?.message.contains("UTF-8") ?? false, e?.message ?? "")
    }

    func testUTF8ByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist><string>é</string></plist>".utf8)
        XCTAssertEqual(try reader.read(bytes: bytes).root.value, .string("é"))
    }

    func testUTF16PlistsAsXcodeWritesThem() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\">\n<array>\n\t<string>日本語 ✓</string>\n</array>\n</plist>\n"
        let little: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            let doc = try reader.read(bytes: bytes)
            XCTAssertEqual(doc.root.value, .array([PlistNode(.string("日本語 ✓"))]))
            XCTAssertEqual(doc.root.value.arrayValue?.first?.position.line, 4)
        }
    }

    func testNonXMLFilesSayWhatTheyAre() {
        let convert = "convert it to an XML property list (`plutil -convert xml1 FILE` on macOS)"
        for text in ["{ products = (\"com.a.b\"); }", "  (\"a\", \"b\")", "// comment\n{}"] {
            XCTAssertEqual(error(text)?.message, "old-style (OpenStep) property list, not XML — \(convert)")
        }
        for text in ["{\"products\": [\"com.a.b\"]}", "\n  [\"com.a.b\"]", "{ }"] {
            XCTAssertEqual(error(text)?.message, "JSON, not a property list — \(convert)")
        }
        XCTAssertEqual(error("com.a.b\ncom.a.c\n")?.message,
                       "a text file, not a property list (it begins 'com.a.b'); an XML property list begins with '<?xml' or '<plist'")
        XCTAssertEqual(error([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])?.message,
                       "binary data, not a property list (it begins 89 50 4E 47 0D 0A 1A 0A)")
        XCTAssertEqual(error("   \n\t ")?.kind, .malformedXML)
    }

    func testUTF16WithoutAByteOrderMark() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\">\n<string>ü</string>\n</plist>\n"
        let little: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            let doc = try reader.read(bytes: bytes)
            XCTAssertEqual(doc.root.value, .string("ü"))
            XCTAssertEqual(doc.root.position.line, 3)
        }
    }

    func testNULBytesSurrogateReferencesAndOverlongUTF8AreErrors() {
        let nul = error(Array("<plist><string>a".utf8) + [0] + Array("b</string></plist>".utf8))
        XCTAssertEqual(nul?.kind, .malformedXML)
        XCTAssertEqual(nul?.line, 1)
        let surrogate = error("<plist>\n<string>&#xD800;</string></plist>")
        XCTAssertEqual(surrogate?.kind, .malformedXML)
        XCTAssertEqual(surrogate?.line, 2)
        let overlong = error(Array("<plist>\n\n<string>".utf8) + [0xC0, 0xAF] + Array("</string></plist>".utf8))
        XCTAssertEqual(overlong?.kind, .malformedXML)
        XCTAssertEqual(overlong?.line, 3)
    }

    func testCRLFLineEndsKeepLinePositions() throws {
        let doc = try reader.read(string: "<plist>\r\n<array>\r\n\t<string>a</string>\r\n</array>\r\n</plist>\r\n")
        XCTAssertEqual(doc.root.value.arrayValue?.first?.position, PlistPosition(line: 3, column: 2))
    }

    func testLargeFileStreamsInChunks() throws {
        // Small chunks force every boundary case: tags, entities and UTF-8 split across chunks.
        let small = PlistReader(chunkSize: 64)
        var text = "<plist><array>"
        for i in 0..<2000 { text += "<string>id.\(i) &amp; é😀</string>" }
        text += "</array></plist>"
        let root = try small.read(string: text).root
        XCTAssertEqual(root.value.arrayValue?.count, 2000)
        XCTAssertEqual(root.value.arrayValue?.last?.value, .string("id.1999 & é😀"))
    }
}

/// The error reading `bytes` gives, or nil when they read.
func readingError(_ bytes: [UInt8], with reader: PlistReader = PlistReader()) -> PlistError? {
    do {
        _ = try reader.read(bytes: bytes)
        return nil
    } catch {
        return error
    }
}
