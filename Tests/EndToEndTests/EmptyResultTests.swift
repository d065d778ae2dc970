import Foundation
import XCTest

/// A command that finds nothing to do says why on stderr and exits non-zero; where empty is the
/// honest answer, it says so.
final class EmptyResultTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "hello\n".write(to: folder.appendingPathComponent("readme.txt"), atomically: true, encoding: .utf8)
        // Named like sources, holding none: binary data, and an AppleDouble copy under a plain name.
        let binary = folder.appendingPathComponent("binary")
        try FileManager.default.createDirectory(at: binary, withIntermediateDirectories: true)
        try Data([0x63, 0x00, 0x64]).write(to: binary.appendingPathComponent("Shop.swift"))
        try Data([0x00, 0x05, 0x16, 0x07, 0x00]).write(to: binary.appendingPathComponent("Zed.m"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testEveryCommandSaysWhyItFoundNothing() throws {
        let path = folder.path
        let noCatalog = "iap: error: no catalog found in \(path): no product-ID list, metadata plist or .storekit file\n"
        let cases: [([String], Int32, String)] = [
            (["validate", path], 2, noCatalog),
            (["list", path], 2, noCatalog),
            (["report", path], 2, noCatalog),
            (["price", "--catalog", path], 2, noCatalog),
            (["gen", path, "-o", folder.appendingPathComponent("P.swift").path], 2, "iap: error: no catalog found in \(path)\n"),
            (["lint", folder.appendingPathComponent("sub").path], 2,
             "iap: no catalog found in \(path)/sub: product titles and IDs are not checked (pass --catalog)\n"
                + "iap: error: no source file to lint in \(path)/sub: iap lints .swift, .m, .mm and .h files; test files and folders are skipped without --include-tests\n"),
            (["lint", folder.appendingPathComponent("binary").path], 2,
             "iap: no catalog found in \(path)/binary: product titles and IDs are not checked (pass --catalog)\n"
                + "iap: error: no source file to lint in \(path)/binary: iap lints .swift, .m, .mm and .h files; test files and folders are skipped without --include-tests"
                + "; passed over \(path)/binary/Shop.swift: binary data (a NUL byte), not source text: not read and 1 more (--verbose lists them)\n"),
            (["report", "--sales", folder.appendingPathComponent("sub").path], 2,
             "iap: error: \(path)/sub: no report files in this folder (.txt, .txt.gz or .tsv, as App Store Connect downloads them)\n"),
            (["price", "--catalog", "catalogs/broken/IAP_ProductIDs.plist"], 2,
             "iap: error: none of the 22 products in catalogs/broken/IAP_ProductIDs.plist has a price with a currency: give each a price and currency in the metadata plist, or keep a .storekit file beside it\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = try IAPRunner.run(arguments)
            XCTAssertEqual(result.status, status, arguments.joined(separator: " "))
            XCTAssertEqual(result.stdout, "", arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, stderr, arguments.joined(separator: " "))
        }
        // An empty product list is an honest answer, said as such.
        let empty = try IAPRunner.run(["validate", "catalogs/broken/Empty_ProductIDs.plist"])
        XCTAssertEqual(empty.stdout, "catalogs/broken/Empty_ProductIDs.plist:4:1: warning: the product list is empty: the app would request no products [empty-product-list]\n")
    }
}
