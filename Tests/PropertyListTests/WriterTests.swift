import Foundation
import TestSupport
import XCTest
@testable import PropertyList

final class WriterTests: XCTestCase {
    func testAppleStyleOutput() throws {
        let value = PlistValue.dictionary(PlistDictionary([
            .init(key: "name", value: PlistNode(.string("Fish & <Chips>"))),
            .init(key: "count", value: PlistNode(.integer(.signed(3)))),
            .init(key: "big", value: PlistNode(.integer(.unsigned(.max)))),
            .init(key: "ratio", value: PlistNode(.real(PlistReal(0.25)))),
            .init(key: "on", value: PlistNode(.bool(true))),
            .init(key: "when", value: PlistNode(.date(Date(timeIntervalSince1970: 1_098_786_813)))),
            .init(key: "blob", value: PlistNode(.data(Data([0, 1, 2, 3])))),
            .init(key: "empty", value: PlistNode(.array([]))),
            .init(key: "none", value: PlistNode(.dictionary(PlistDictionary()))),
            .init(key: "list", value: PlistNode(.array([PlistNode(.string("a"))]))),
        ]))
        XCTAssertEqual(PlistWriter().write(value), """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>name</key>
        \t<string>Fish &amp; &lt;Chips&gt;</string>
        \t<key>count</key>
        \t<integer>3</integer>
        \t<key>big</key>
        \t<integer>18446744073709551615</integer>
        \t<key>ratio</key>
        \t<real>0.25</real>
        \t<key>on</key>
        \t<true/>
        \t<key>when</key>
        \t<date>2004-10-26T10:33:33Z</date>
        \t<key>blob</key>
        \t<data>
        \tAAECAw==
        \t</data>
        \t<key>empty</key>
        \t<array/>
        \t<key>none</key>
        \t<dict/>
        \t<key>list</key>
        \t<array>
        \t\t<string>a</string>
        \t</array>
        </dict>
        </plist>

        """)
    }

    func testRoundTripOfEveryType() throws {
        let text = PlistWriter().write(.array([
            PlistNode(.string("  keep  \n whitespace ")), PlistNode(.integer(.signed(.min))),
            PlistNode(.real(PlistReal(.nan))), PlistNode(.real(PlistReal(-.infinity))),
            PlistNode(.data(Data((0..<200).map { UInt8($0) }))), PlistNode(.bool(false)),
        ]))
        let back = try PlistReader().read(string: text)
        XCTAssertEqual(PlistWriter().write(back.root), text)
    }

    func testJSON() throws {
        let doc = try PlistReader().read(string: """
        <plist><dict><key>z</key><integer>18446744073709551615</integer><key>a</key><array><real>nan</real><real>-inf</real><real>1.5</real><true/><date>2004-10-26T10:33:33Z</date><data>AAE=</data><string>q"\\&#9;</string></array><key>e</key><dict/></dict></plist>
        """)
        XCTAssertEqual(PlistJSONWriter().write(doc.root.value), """
        {
          "z": 18446744073709551615,
          "a": [
            "nan",
            "-inf",
            1.5,
            true,
            "2004-10-26T10:33:33Z",
            "AAE=",
            "q\\"\\\\\\t"
          ],
          "e": {}
        }

        """)
    }
}

/// Every real plist in the shared corpus: read → write → read gives the same values, and files
/// already in Apple's canonical form are written back byte for byte.
final class CorpusRoundTripTests: XCTestCase {
    func testCorpusPlistsRoundTrip() throws {
        guard let folder = CorpusLocator.folder("plists") else {
            throw XCTSkip("../shared/corpus/plists not found: corpus round-trip skipped")
        }
        var canonical = 0
        var read = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let path = folder + "/" + name
            guard let doc = try? PlistReader().read(path: path) else { continue }
            read += 1
            let written = PlistWriter().write(doc.root)
            let again = try PlistReader().read(string: written)
            XCTAssertEqual(again.root, doc.root, name)
            let original = try String(contentsOfFile: path, encoding: .utf8)
            if original == written || original + "\n" == written { canonical += 1 }
        }
        // 39 of the 40 files are well-formed (one is malformed on purpose).
        XCTAssertEqual(read, 39)
        // Files in Apple's own tab-indented form come back identical; the others differ only in
        // layout (spaces, comments, a split DOCTYPE).
        XCTAssertEqual(canonical, 33)
    }
}

enum CorpusLocator {
    /// `../shared/corpus/<sub>` next to the package checkout, when it exists.
    static func folder(_ sub: String) -> String? {
        let packageRoot = Prerequisite.packageRoot
        let path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(sub)").path
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? path : nil
    }
}
