import Diagnostics
import Foundation
import TestSupport
import IAPCatalog
import IAPTool
import PriceFormatting
import XCTest

/// Reading what iap writes gives the same catalog: the shipped catalogs through `.storekit`, and
/// every corpus `.storekit` file through a metadata plist and back. Compared as data, field by
/// field, by the comparison below (not by the writers' or the drift rule's code).
final class RoundTripTests: XCTestCase {
    static let root = Prerequisite.packageRoot
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func load(_ paths: [String]) -> Catalog {
        CatalogLoader().loadCatalog(name: "t", paths: paths, explicit: Set(paths))
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The facts a product carries, spelled so that two sources can be compared: locales as
    /// `en-US`, amounts as decimals, a free offer without its (meaningless) price.
    struct Facts: Equatable, CustomStringConvertible {
        var kind: String?
        var referenceName: String?
        var price: String?
        var familyShareable: Bool
        var group: String?
        var level: Int?
        var period: String?
        var intro: String?
        var promotional: [String]
        var localizations: [String]

        var description: String {
            "kind \(kind ?? "-") ref \(referenceName ?? "-") price \(price ?? "-") family \(familyShareable) group \(group ?? "-")/\(level.map(String.init) ?? "-") period \(period ?? "-") intro \(intro ?? "-") promo \(promotional) loc \(localizations)"
        }

        init(_ product: Product, storefront: String) {
            let m = product.metadata
            // A kind counts when declared: a guess is not a fact the formats carry.
            kind = product.kindReason.isDeclared ? product.kind?.rawValue : nil
            referenceName = m.referenceName?.value
            let price = m.storefrontPrices.first { $0.value.storefront == storefront }?.value ?? m.price?.value
            self.price = price.map { "\($0.amount) \($0.currency ?? "?")" }
            familyShareable = m.familyShareable ?? false
            group = m.subscriptionGroup?.value
            level = m.groupLevel?.value
            period = m.subscriptionPeriod.map { "\($0.value)" }
            func offer(_ mode: PaymentMode, _ period: SubscriptionPeriod, _ periods: Int, _ price: Decimal?) -> String {
                "\(mode.rawValue) \(periods)x\(period)" + (mode == .freeTrial ? "" : " \(price.map { "\($0)" } ?? "-")")
            }
            intro = m.introductoryOffer.map { offer($0.paymentMode, $0.period, $0.numberOfPeriods, $0.price) }
            promotional = m.promotionalOffers.map { "\($0.id) \($0.referenceName ?? "-") " + offer($0.paymentMode, $0.period, $0.numberOfPeriods, $0.price) }
            localizations = m.localizations.map {
                "\($0.locale.replacingOccurrences(of: "_", with: "-")): \($0.displayName ?? "-") / \($0.description ?? "-")"
            }.sorted()
        }
    }

    func assertSameProducts(_ original: Catalog, _ copy: Catalog, storefront: String, name: String,
                            referenceNameFilled: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(original.products.map(\.id).sorted(), copy.products.map(\.id).sorted(), name, file: file, line: line)
        let copies = Dictionary(copy.products.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for product in original.products {
            guard let other = copies[product.id] else { continue }
            var expected = Facts(product, storefront: storefront)
            let actual = Facts(other, storefront: storefront)
            // A product without a reference name gets its display name or ID: Xcode needs one.
            if referenceNameFilled, expected.referenceName == nil { expected.referenceName = actual.referenceName }
            // A subscription without a level gets the next one in its group.
            if expected.group != nil, expected.level == nil { expected.level = actual.level }
            XCTAssertEqual(expected, actual, "\(name): \(product.id)", file: file, line: line)
        }
    }

    /// Every object's keys in Xcode's order (case-insensitive, as every real file has them), read
    /// from the text: a stack of the last key seen per open object.
    func assertXcodeKeyOrder(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        var last: [String?] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.drop { $0 == " " }
            if trimmed.hasPrefix("}") || trimmed.hasPrefix("]") { last.removeLast() }
            if trimmed.hasPrefix("\""), let end = trimmed.dropFirst().firstIndex(of: "\""),
               trimmed[trimmed.index(after: end)...].hasPrefix(" : ") {
                let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
                if let previous = last[last.count - 1] {
                    XCTAssertTrue(previous.lowercased() < key.lowercased(), "\(name):\(number + 1): '\(key)' after '\(previous)'",
                                  file: file, line: line)
                }
                last[last.count - 1] = key
            }
            if trimmed.hasSuffix("{") || trimmed.hasSuffix("[") { last.append(nil) }
        }
        XCTAssertEqual(last.count, 0, "\(name): brackets do not balance", file: file, line: line)
    }

    func testShippedCatalogsSurviveTheStoreKitWriter() throws {
        let shipped = ["FakeGame": 3, "RazeFaces": 6, "SpeakEnglish": 5]
        for (name, count) in shipped.sorted(by: { $0.key < $1.key }) {
            let folderPath = Self.root.appendingPathComponent("catalogs/\(name)").path
            // The catalog without its own .storekit file: the metadata plist and ID list alone.
            let sources = try FileManager.default.contentsOfDirectory(atPath: folderPath).sorted()
                .filter { !$0.hasSuffix(".storekit") }.map { folderPath + "/" + $0 }
            let original = load(sources)
            XCTAssertEqual(original.products.count, count, name)
            let output = try StoreKitWriter().write(original)
            XCTAssertEqual(output.findings.map(\.message), [], name)
            assertXcodeKeyOrder(output.text, name)
            let copy = load([try write(output.text, "\(name).storekit")])
            XCTAssertEqual(copy.loadDiagnostics.map(\.message), [], name)
            assertSameProducts(original, copy, storefront: "USA", name: name)
        }
    }

    /// Every corpus product-ID plist (names, kinds, prices and groups where its entries carry
    /// them) written as a metadata plist and read back: the same products with the same facts.
    func testCorpusProductListsSurviveAMetadataPlist() throws {
        let corpus = Self.root.deletingLastPathComponent().appendingPathComponent("shared/corpus/plists")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path).filter({ $0.hasSuffix(".plist") }).sorted(),
              !names.isEmpty else {
            print("RoundTripTests: ../shared/corpus/plists is absent; the product-list round trip is skipped")
            throw XCTSkip("../shared/corpus/plists is absent")
        }
        var compared = 0
        for name in names {
            let original = load([corpus.appendingPathComponent(name).path])
            guard !original.products.isEmpty else { continue }
            let copy = load([try write(MetadataWriter().metadataPlist(original), "\(name)")])
            XCTAssertEqual(copy.loadDiagnostics.filter { $0.ruleID != "unknown-price-currency" }.map(\.message), [], name)
            assertSameProducts(original, copy, storefront: "USA", name: name)
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 30, "corpus product lists with products")
    }

    /// A `.storekit` file with two localizations in one locale (seen in a real app's synced
    /// file): the plist keeps the first, is still a valid plist, and the second is listed.
    func testARepeatedLocaleKeepsTheFirstAndIsListed() throws {
        let source = try write("""
            { "products" : [ { "displayPrice" : "0.99", "productID" : "com.acme.app.coins", "type" : "Consumable",
              "localizations" : [ { "description" : "First", "displayName" : "Coins", "locale" : "en_US" },
                                  { "description" : "Second", "displayName" : "Coins", "locale" : "en_US" },
                                  { "description" : "Münzen", "displayName" : "Münzen", "locale" : "de_DE" } ] } ],
              "version" : { "major" : 4, "minor" : 0 } }
            """, "Twice.storekit")
        let original = load([source])
        XCTAssertEqual(original.products.first?.metadata.localizations.count, 3)
        XCTAssertEqual(MetadataWriter.repeatedLocales(original), [
            "'com.acme.app.coins': a second localization in en-US (the metadata plist holds one per locale; the first is kept)",
        ])
        let copy = load([try write(MetadataWriter().metadataPlist(original), "Twice.plist")])
        XCTAssertEqual(copy.loadDiagnostics.map(\.message), [])
        XCTAssertEqual(copy.products.first?.metadata.localizations.map { "\($0.locale) \($0.description ?? "")" }, ["en-US First", "de-DE Münzen"])
    }

    /// Every corpus `.storekit` file: to a metadata plist and back, for its own storefront.
    func testCorpusStoreKitFilesSurviveAMetadataPlistAndBack() throws {
        let corpus = Self.root.deletingLastPathComponent().appendingPathComponent("shared/corpus/storekit")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path).filter({ $0.hasSuffix(".storekit") }).sorted(),
              !names.isEmpty else {
            print("RoundTripTests: ../shared/corpus/storekit is absent; the corpus round trip is skipped")
            throw XCTSkip("../shared/corpus/storekit is absent")
        }
        XCTAssertEqual(names.count, 51)
        var products = 0
        for name in names {
            let path = corpus.appendingPathComponent(name).path
            let original = load([path])
            guard case .storeKit(_, let storefrontCode, _)? = original.files.first?.content else {
                XCTFail("\(name) did not load as a StoreKit configuration")
                continue
            }
            let storefront = storefrontCode ?? "USA"
            let plist = load([try write(MetadataWriter().metadataPlist(original), "\(name).plist")])
            XCTAssertEqual(plist.loadDiagnostics.map(\.message), [], name)
            assertSameProducts(original, plist, storefront: storefront, name: "\(name) → plist")

            let output = try StoreKitWriter(storefront: storefront).write(plist)
            XCTAssertEqual(output.findings.filter { $0.severity == .error }.map(\.message), [], name)
            assertXcodeKeyOrder(output.text, name)
            let back = load([try write(output.text, name)])
            assertSameProducts(original, back, storefront: storefront, name: "\(name) → plist → storekit", referenceNameFilled: true)
            products += back.products.count
        }
        XCTAssertEqual(products, 230, "distinct product IDs per file, over all 51 files")
    }
}
