import Foundation
import Diagnostics
import IAPCatalog
import TestSupport
import XCTest

/// `iap storekit`, `iap convert` and the plugins' `iap-gen`, run as a user runs them.
final class StoreKitEndToEndTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-storekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    static let shipped: [(name: String, products: Int, stderr: String)] = [
        ("FakeGame", 3, "iap: not carried over: requiredLocales (en-US, de-DE): a StoreKit configuration has no such list\n"),
        ("RazeFaces", 6, ""),
        ("SpeakEnglish", 5, "iap: not carried over: requiredLocales (en-US, zh-Hans): a StoreKit configuration has no such list\n"),
    ]

    func testEachShippedCatalogWritesItsGoldenFileWhichValidatesClean() throws {
        for catalog in Self.shipped {
            let output = folder.appendingPathComponent("\(catalog.name).storekit").path
            let result = try IAPRunner.run(["storekit", "catalogs/\(catalog.name)", "-o", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, catalog.stderr + "iap: wrote \(output) (\(catalog.products) products)\n")
            try IAPRunner.assertGolden(try String(contentsOfFile: output, encoding: .utf8), "storekit-\(catalog.name).storekit")

            let validate = try IAPRunner.run(["validate", output])
            XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr)
            XCTAssertEqual(validate.stdout + validate.stderr, "1 file checked: 0 errors, 0 warnings, 0 infos, \(catalog.products) products in 1 catalog\n")

            // The shipped catalog already holds a .storekit file: the generated one replaces it
            // without a single drift finding, since both describe the same products.
            let again = try IAPRunner.run(["storekit", "catalogs/\(catalog.name)", "-o", output])
            XCTAssertEqual(again.stderr, catalog.stderr + "iap: \(output) unchanged\n")
        }
    }

    func testCheckSaysUpToDateStaleOrMissingWithADiff() throws {
        let output = folder.appendingPathComponent("RazeFaces.storekit").path
        var result = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output, "--check"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "iap: \(output) is missing: run iap storekit catalogs/RazeFaces -o \(output) to create it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))

        _ = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output])
        result = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output, "--check"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "iap: \(output) is up to date\n")

        let edited = try String(contentsOfFile: output, encoding: .utf8).replacingOccurrences(of: "\"29.99\"", with: "\"24.99\"")
        try edited.write(toFile: output, atomically: true, encoding: .utf8)
        result = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output, "--check"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "iap: \(output) is stale: run iap storekit catalogs/RazeFaces -o \(output) to update it\n")
        XCTAssertTrue(result.stdout.contains("\n-          \"displayPrice\" : \"24.99\",\n+          \"displayPrice\" : \"29.99\",\n"), result.stdout)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), edited, "--check must not write")
    }

    /// A product the file would need to invent facts for is an error naming it, and nothing is
    /// written; a fact the file has no place for is a warning, and the file is written.
    func testMissingFactsAreErrorsAndFactsWithoutAPlaceAreWarnings() throws {
        let catalog = folder.appendingPathComponent("Shop")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        let metadata = catalog.appendingPathComponent("Metadata.plist")
        try Self.metadata([
            ("com.acme.shop.coins", "<key>kind</key><string>consumable</string><key>price</key><string>0.99</string><key>currency</key><string>USD</string><key>subscriptionPeriod</key><string>P1M</string>"),
            ("com.acme.shop.gems", "<key>kind</key><string>consumable</string><key>price</key><string>120</string><key>currency</key><string>JPY</string>"),
            ("com.acme.shop.club", "<key>kind</key><string>auto-renewable</string><key>price</key><string>2.99</string><key>currency</key><string>USD</string><key>subscriptionPeriod</key><string>P1M</string>"),
        ]).write(to: metadata, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Shop.storekit").path
        var result = try IAPRunner.run(["storekit", catalog.path, "-o", output])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, """
            \(metadata.path):18:4: warning: 'com.acme.shop.coins' is consumable and has a subscription period P1M: a StoreKit configuration gives that only to auto-renewable subscriptions, so it is not written [storekit-cannot-hold]
            \(metadata.path):25:4: error: 'com.acme.shop.gems' has a price in JPY only, and a StoreKit configuration for USA needs its price in USD [storekit-missing-field]
            \(metadata.path):25:4: note: fix: add <key>prices</key> with <key>USA</key> to its metadata, or choose another --storefront
            \(metadata.path):29:3: error: 'com.acme.shop.club' is an auto-renewable subscription with no subscription group: a StoreKit configuration puts every subscription in one [storekit-missing-field]
            \(metadata.path):29:3: note: fix: add <key>subscriptionGroup</key> to its metadata
            iap: error: \(output) not written: 2 products lack what the file needs (above)

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))

        // In Japan the yen price is the one, and the other two still need theirs.
        result = try IAPRunner.run(["storekit", catalog.path, "-o", output, "--storefront", "JPN"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.components(separatedBy: "[storekit-missing-field]").count - 1, 2, result.stderr)
    }

    /// 150 products without a price: the first 100 findings, one summary, and the count of all.
    func testManyMissingFactsAreCappedLikeValidateFindings() throws {
        let ids = (0..<150).map { "\t<string>com.acme.shop.coins\($0)</string>\n" }.joined()
        let list = folder.appendingPathComponent("IAP_ProductIDs.plist")
        try "<plist version=\"1.0\">\n<array>\n\(ids)</array>\n</plist>\n".write(to: list, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Shop.storekit").path
        let result = try IAPRunner.run(["storekit", list.path, "-o", output])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasSuffix("[storekit-missing-field]") }.count, 101)
        XCTAssertEqual(lines[2], "\(list.path):3:2: error: 50 more 'storekit-missing-field' findings not shown (150 in all, the first 100 above): one cause is likely behind them all; fix it and run again [storekit-missing-field]")
        XCTAssertEqual(lines.last, "iap: error: \(output) not written: 150 products lack what the file needs (above)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testABadStorefrontOrLocaleIsAUsageError() throws {
        let output = folder.appendingPathComponent("x.storekit").path
        var result = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output, "--storefront", "XYZ"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "iap: error: --storefront 'XYZ' is not one of the App Store's 175 storefronts (iap storefronts lists them)\n")
        result = try IAPRunner.run(["storekit", "catalogs/RazeFaces", "-o", output, "--locale", "xx_QQ"])
        XCTAssertEqual(result.status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// `.storekit` → metadata plist → `.storekit` on a shipped catalog gives back the same file,
    /// byte for byte (identifiers are derived, not random), and the ID list holds the IDs.
    func testConvertRoundTripsAShippedStoreKitFile() throws {
        let plist = folder.appendingPathComponent("Metadata.plist").path
        var result = try IAPRunner.run(["convert", "catalogs/RazeFaces/RazeFaces.storekit", "-o", plist])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "iap: wrote \(plist) (6 products)\n")
        try IAPRunner.assertGolden(try String(contentsOfFile: plist, encoding: .utf8), "convert-RazeFaces-Metadata.plist")
        // README's example: the same conversion, compared with the golden file.
        let check = try IAPRunner.run(["convert", "catalogs/RazeFaces/RazeFaces.storekit", "-o", "Tests/EndToEndTests/Golden/convert-RazeFaces-Metadata.plist", "--check"])
        XCTAssertEqual(check.status, 0, check.stderr)

        let back = folder.appendingPathComponent("Back.storekit").path
        result = try IAPRunner.run(["convert", plist, "-o", back])
        XCTAssertEqual(result.status, 0, result.stderr)
        let golden = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Golden/storekit-RazeFaces.storekit"),
                                encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: back, encoding: .utf8), golden)

        let ids = folder.appendingPathComponent("IAP_ProductIDs.plist").path
        result = try IAPRunner.run(["convert", "catalogs/RazeFaces/RazeFaces.storekit", "-o", ids, "--to", "ids"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, """
            iap: not carried over: kinds, names, prices, groups and offers: an ID list holds product IDs only
            iap: wrote \(ids) (6 products)

            """)
        let list = try IAPRunner.run(["list", ids, "--format", "json"])
        XCTAssertEqual(list.stdout.components(separatedBy: "\"id\" : \"com.razeware.razefaces.").count - 1, 6, list.stdout)
    }

    /// What a metadata plist cannot hold is listed, file by file.
    func testConvertListsWhatTheMetadataPlistCannotHold() throws {
        let plist = folder.appendingPathComponent("Metadata.plist").path
        let result = try IAPRunner.run(["convert", "Tests/Fixtures/StoreKit/Offers.storekit", "-o", plist])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, """
            iap: not carried over: Offers.storekit: win-back offers of com.acme.app.pro.monthly: iap does not read a StoreKit configuration's win-back offers yet; declare them in the metadata plist's winBackOffers
            iap: not carried over: Offers.storekit: the localized names of subscription group 'Pro'
            iap: not carried over: Offers.storekit: the app policies (EULA, privacy policy)
            iap: wrote \(plist) (1 product)

            """)
        let text = try String(contentsOfFile: plist, encoding: .utf8)
        XCTAssertTrue(text.contains("\t\t\t<key>groupLevel</key>\n\t\t\t<integer>2</integer>\n"), text)
        XCTAssertTrue(text.contains("\t\t\t\t\t<key>id</key>\n\t\t\t\t\t<string>comeback</string>\n"), text)
        // The offer code is carried over, and back into a StoreKit configuration as Xcode writes it.
        XCTAssertTrue(text.contains("\t\t\t<key>offerCodes</key>\n\t\t\t<array>\n\t\t\t\t<dict>\n\t\t\t\t\t<key>referenceName</key>\n\t\t\t\t\t<string>Free week</string>\n"), text)
        let back = folder.appendingPathComponent("Back.storekit").path
        XCTAssertEqual(try IAPRunner.run(["convert", plist, "-o", back, "--to", "storekit"]).status, 0)
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: back))) as? [String: Any]
        let sub = ((written?["subscriptionGroups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first
        let code = try XCTUnwrap((sub?["codeOffers"] as? [[String: Any]])?.first)
        XCTAssertEqual(code.keys.sorted(), ["eligibility", "internalID", "isStackable", "paymentMode", "referenceName", "subscriptionPeriod"])
        XCTAssertEqual(code["eligibility"] as? [String], ["new"])
        XCTAssertEqual(code["isStackable"] as? Bool, true)
        XCTAssertEqual(code["paymentMode"] as? String, "free")
        XCTAssertEqual(code["referenceName"] as? String, "Free week")
        XCTAssertEqual(code["subscriptionPeriod"] as? String, "P1W")
    }

    /// Issue 33: each loss names the format written, never a metadata plist that is not there.
    func testWhatIsLeftOutNamesTheFormatWritten() throws {
        let storekit = folder.appendingPathComponent("Copy.storekit").path
        let direct = try IAPRunner.run(["convert", "Tests/Fixtures/StoreKit/Offers.storekit", "-o", storekit])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertTrue(direct.stderr.hasPrefix("""
            iap: not carried over: Offers.storekit: win-back offers of com.acme.app.pro.monthly: iap writes no win-back offers into a StoreKit configuration; add them in Xcode's StoreKit editor

            """), direct.stderr)
        let ids = folder.appendingPathComponent("IAP_ProductIDs.plist").path
        let list = try IAPRunner.run(["convert", "Tests/Fixtures/StoreKit/Offers.storekit", "-o", ids, "--to", "ids"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stderr, """
            iap: not carried over: kinds, names, prices, groups and offers: an ID list holds product IDs only
            iap: wrote \(ids) (1 product)

            """)
        XCTAssertFalse((direct.stderr + list.stderr).contains("metadata plist"), direct.stderr + list.stderr)
    }

    /// The plugins' tool writes the same bytes as `iap` for `gen` and `storekit`.
    func testIapGenWritesWhatIapWrites() throws {
        let tool = IAPRunner.binary.deletingLastPathComponent().appendingPathComponent("iap-gen").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw XCTSkip("iap-gen is not built next to iap (swift build builds it)")
        }
        for (command, name) in [("gen", "ProductID.swift"), ("storekit", "FakeGame.storekit")] {
            let mine = folder.appendingPathComponent("iap-\(name)").path
            let theirs = folder.appendingPathComponent("iap-gen-\(name)").path
            let a = try IAPRunner.run([command, "catalogs/FakeGame", "-o", mine])
            let b = try IAPRunner.runProgram(tool, [command, "catalogs/FakeGame", "--output", theirs])
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: mine)), try Data(contentsOf: URL(fileURLWithPath: theirs)), command)
            let check = try IAPRunner.runProgram(tool, [command, "catalogs/FakeGame", "--output", theirs, "--check"])
            XCTAssertEqual(check.status, 0, check.stderr)
        }
        let bad = try IAPRunner.runProgram(tool, ["storekit", "catalogs/FakeGame", "--out", "x"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.hasPrefix("iap-gen: error: unknown option '--out' for storekit\n"), bad.stderr)
    }

    static func metadata(_ products: [(String, String)]) -> String {
        var body = ""
        for (id, fields) in products {
            body += "\t\t<key>\(id)</key>\n\t\t<dict>\n"
            // One field per line, so that findings have lines to point at.
            var rest = Substring(fields)
            while let end = rest.range(of: "</string>") ?? rest.range(of: "</integer>") {
                body += "\t\t\t" + rest[..<end.upperBound].replacingOccurrences(of: "</key><", with: "</key>\n\t\t\t<") + "\n"
                rest = rest[end.upperBound...]
            }
            body += "\t\t</dict>\n"
        }
        return RuleExample.metadataPlist(String(body.dropLast()))
    }

}

extension StoreKitEndToEndTests {
    /// A custom code lives in App Store Connect: a metadata plist keeps it, a StoreKit configuration
    /// has no place for it and says so at its line.
    func testACustomOfferCodeIsKeptByAMetadataPlistAndNamedWhereAStoreKitFileCannotHoldIt() throws {
        let metadata = folder.appendingPathComponent("Metadata.plist")
        try ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><true/>"
            + "<key>offerCodes</key><array><dict><key>referenceName</key><string>Spring</string><key>paymentMode</key><string>free-trial</string>"
            + "<key>period</key><string>P1M</string><key>eligibility</key><array><string>new</string></array>"
            + "<key>customCodes</key><array><dict><key>code</key><string>SPRING27</string><key>numberOfCodes</key><integer>500</integer>"
            + "<key>expirationDate</key><string>2027-06-30</string></dict></array></dict></array>")
            .write(to: metadata, atomically: true, encoding: .utf8)
        let storekit = folder.appendingPathComponent("Shop.storekit").path
        let written = try IAPRunner.run(["convert", metadata.path, "-o", storekit])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertTrue(written.stderr.contains("warning: 'com.acme.shop.club.monthly' has the custom offer code 'SPRING27': a StoreKit configuration has no place for it, "
                                              + "so it is not written (the metadata plist keeps it) [storekit-cannot-hold]"), written.stderr)
        let copy = folder.appendingPathComponent("Copy.plist").path
        XCTAssertEqual(try IAPRunner.run(["convert", metadata.path, "-o", copy]).status, 0)
        let text = try String(contentsOfFile: copy, encoding: .utf8)
        XCTAssertTrue(text.contains("<key>customCodes</key>\n\t\t\t\t\t<array>\n\t\t\t\t\t\t<dict>\n\t\t\t\t\t\t\t<key>code</key>\n\t\t\t\t\t\t\t<string>SPRING27</string>\n"
                                    + "\t\t\t\t\t\t\t<key>numberOfCodes</key>\n\t\t\t\t\t\t\t<integer>500</integer>\n"
                                    + "\t\t\t\t\t\t\t<key>expirationDate</key>\n\t\t\t\t\t\t\t<string>2027-06-30</string>\n"), text)
    }
}
