import Foundation
import TestSupport
import IAPCatalog
import IAPTool
import XCTest

/// `iap list --format json` was Foundation's `JSONEncoder` until issue 23; it is `JSONWriter` now,
/// and must still give JSONEncoder's bytes. The structs below are the ones it encoded, kept here as
/// the oracle.
final class ListJSONTests: XCTestCase {
    static let root = Prerequisite.packageRoot

    struct CatalogJSON: Encodable {
        var name: String
        var bundleID: String?
        var files: [FileJSON]
        var products: [ProductJSON]
    }

    struct FileJSON: Encodable {
        var path: String
        var content: String
        var shape: String?
        var products: Int
    }

    struct ProductJSON: Encodable {
        var id: String
        var kind: String?
        var kindReason: String
        var declared: Bool
        var referenceName: String?
        var displayName: String?
        var price: String?
        var currency: String?
        var subscriptionGroup: String?
        var subscriptionPeriod: String?
        var locations: [String]
    }

    static func encoded(_ catalogs: [Catalog]) throws -> String {
        let value = catalogs.map { catalog in
            CatalogJSON(
                name: catalog.name, bundleID: catalog.bundleID?.value,
                files: catalog.files.map { file in
                    var shape: String?
                    if case .productList(let s) = file.content { shape = s.rawValue }
                    return FileJSON(path: file.path, content: file.content.label, shape: shape, products: file.productCount)
                },
                products: catalog.products.map { p in
                    ProductJSON(id: p.id, kind: p.kind?.rawValue, kindReason: p.kindReason.description, declared: p.kindReason.isDeclared,
                                referenceName: p.metadata.referenceName?.value, displayName: p.displayName,
                                price: p.metadata.price.map { $0.value.amountText }, currency: p.metadata.price?.value.currency,
                                subscriptionGroup: p.metadata.subscriptionGroup?.value,
                                subscriptionPeriod: p.metadata.subscriptionPeriod?.value.description,
                                locations: p.occurrences.map(\.location.description))
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    func load(_ name: String, _ paths: [String]) -> Catalog {
        CatalogLoader().loadCatalog(name: name, paths: paths, explicit: Set(paths))
    }

    func testShippedCatalogsAsJSONEncoderWroteThem() throws {
        var catalogs: [Catalog] = []
        for name in ["FakeGame", "RazeFaces", "SpeakEnglish"] {
            let folder = Self.root.appendingPathComponent("catalogs/\(name)").path
            let paths = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
            catalogs.append(load("catalogs/\(name)", paths))
        }
        let storeKit = Self.root.appendingPathComponent("Tests/Fixtures/StoreKit").path
        catalogs.append(load("offers", [storeKit + "/Offers.storekit"]))
        XCTAssertGreaterThan(catalogs.map(\.products.count).reduce(0, +), 14)
        XCTAssertEqual(ListJSON.render(catalogs), try Self.encoded(catalogs))
        XCTAssertEqual(ListJSON.render([]), try Self.encoded([]))
        XCTAssertEqual(ListJSON.render([]), "[\n\n]\n")
    }

    /// Names with quotes, backslashes, slashes, every control character, DEL, non-ASCII and emoji,
    /// read from a StoreKit file (JSON can carry them all).
    func testAwkwardNamesAsJSONEncoderWroteThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ListJSONTests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = try String(contentsOfFile: Self.root.appendingPathComponent("Tests/Fixtures/StoreKit/Offers.storekit").path, encoding: .utf8)
        let controls = (1...0x1F).map { String(format: "\\u%04X", $0) }.joined()
        let awkward = "q\\\"b\\\\s/\(controls)\u{7F}é€😀"
        var replaced = 0
        for key in ["\"referenceName\" : \"", "\"displayName\" : \""] {
            let parts = text.components(separatedBy: key)
            replaced += parts.count - 1
            text = parts.enumerated().map { n, part in n == 0 ? part : (n % 2 == 0 ? "" : awkward) + part }.joined(separator: key)
        }
        XCTAssertGreaterThan(replaced, 1)
        let path = folder.appendingPathComponent("Awkward.storekit").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let catalog = load("awkward/\u{8}\u{C}", [path])
        XCTAssertTrue(catalog.products.contains { $0.metadata.referenceName?.value.contains("\u{8}") == true })
        let rendered = ListJSON.render([catalog])
        XCTAssertEqual(rendered, try Self.encoded([catalog]))
        // JSONEncoder writes U+0008 and U+000C short; Escape.json elsewhere writes \u0008, \u000c.
        XCTAssertTrue(rendered.contains("\\b\\t\\n\\u000b\\f\\r"), rendered)
    }
}
