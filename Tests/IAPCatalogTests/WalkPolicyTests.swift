import Foundation
import IAPCatalog
import Support
import XCTest

/// The one list of what walks pass over, and the one path form they report.
final class WalkPolicyTests: XCTestCase {
    func testFoldersAndFilesThatAreJunkByName() {
        for name in ["build", ".build", "DerivedData", "Pods", "Carthage", "node_modules", "__MACOSX", ".git"] {
            XCTAssertNotNil(WalkPolicy.folderReason(name), name)
        }
        for name in ["App", "Sources", "Builds", "Store", "_MACOSX", "pods"] {
            XCTAssertNil(WalkPolicy.folderReason(name), name)
        }
        XCTAssertEqual(WalkPolicy.fileReason("._Shop.swift"), "an AppleDouble file (macOS metadata, named ._…): not read")
        XCTAssertEqual(WalkPolicy.fileReason(".DS_Store"), "Finder's folder settings (.DS_Store): not read")
        XCTAssertNil(WalkPolicy.fileReason("Shop.swift"))
        XCTAssertNil(WalkPolicy.fileReason("_Shop.swift"))
    }

    func testContentThatIsNotText() {
        XCTAssertEqual(WalkPolicy.contentReason([0x00, 0x05, 0x16, 0x07, 0x00, 0x02]), "AppleDouble data (macOS metadata), not source text: not read")
        XCTAssertEqual(WalkPolicy.contentReason(Array("let a = 1\n".utf8) + [0]), "binary data (a NUL byte), not source text: not read")
        XCTAssertNil(WalkPolicy.contentReason(Array("let price = \"€1\"\n".utf8)))
        XCTAssertNil(WalkPolicy.contentReason([]))
    }

    func testOnePathForm() {
        XCTAssertEqual(WalkPolicy.normalized("./App/x.swift"), "App/x.swift")
        XCTAssertEqual(WalkPolicy.normalized("App//x.swift"), "App/x.swift")
        XCTAssertEqual(WalkPolicy.normalized("./"), ".")
        XCTAssertEqual(WalkPolicy.normalized("App/"), "App")
        XCTAssertEqual(WalkPolicy.normalized("/tmp/./a"), "/tmp/a")
        XCTAssertEqual(WalkPolicy.normalized("../Shared/x"), "../Shared/x")
        XCTAssertEqual(WalkPolicy.joined(".", "App"), "App")
        XCTAssertEqual(WalkPolicy.joined("App", "x.plist"), "App/x.plist")
        XCTAssertEqual(WalkPolicy.joined("/", "tmp"), "/tmp")
    }
}
