import Foundation
import TestSupport
import XCTest

/// `iap report`: the price matrix and the sales report in every format, against goldens; the
/// exit status and findings; the HTML in a real browser.
final class ReportEndToEndTests: XCTestCase {
    static let sales = "Tests/Fixtures/Sales"
    static let salesFiles = ["S_D_80012345_20261102.txt", "S_D_80012345_20261103.txt.gz", "S_D_80012345_20261104_v1_0.txt",
                             "S_D_80012345_20261105.txt"].map { "\(sales)/\($0)" }

    /// A temporary folder, removed when the test ends.
    func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// A metadata plist whose `products` entries start on line 7.
    static func metadataPlist(_ products: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>IAPCatalogMetadata</key><integer>1</integer>
        <key>products</key>
        <dict>
        \(products)
        </dict>
        </dict>
        </plist>

        """
    }

    func salesRun(_ format: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> IAPRunner.Result {
        try IAPRunner.run(["report", "--sales"] + Self.salesFiles + ["--catalog", "\(Self.sales)/Catalog", "--format", format] + extra,
                          environment: environment)
    }

    func testSalesReportInEveryFormatMatchesGoldens() throws {
        for format in ["md", "csv", "json", "html"] {
            let result = try salesRun(format)
            XCTAssertEqual(result.status, 1, "unreadable rows are errors: \(format)")
            try IAPRunner.assertGolden(result.stdout, "report-sales.\(format)")
            try IAPRunner.assertGolden(result.stderr, "report-sales-findings.txt")
        }
    }

    func testSalesReportIsTheSameInAnyProcessLocaleAndFileOrder() throws {
        let plain = try salesRun("md")
        let german = try salesRun("md", environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        XCTAssertEqual(plain.stdout, german.stdout)
        let reversed = try IAPRunner.run(["report", "--sales"] + Self.salesFiles.reversed() + ["--catalog", "\(Self.sales)/Catalog"])
        XCTAssertEqual(plain.stdout, reversed.stdout)
        let readerLocale = try salesRun("md", ["--locale", "de_DE"])
        XCTAssertTrue(readerLocale.stdout.contains("| USD | 58 | 2 | 135,44\u{A0}USD | 94,86\u{A0}USD |"), readerLocale.stdout)
    }

    func testSalesJSONIsVersionedAndExact() throws {
        let result = try salesRun("json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["kind"] as? String, "sales")
        let currencies = try XCTUnwrap(object["currencies"] as? [[String: Any]])
        XCTAssertEqual(currencies.map { "\($0["currency"]!) \($0["customerTotal"]!) \($0["proceeds"]!)" },
                       // USD: in-app purchases only (SalesReaderTests adds them up by hand; the sticker
                       // pack's unknown IAZ row, 0.99 and 0.70, and the app's free downloads are apart).
                       ["EUR 19.96 14.12", "GBP 3.96 2.76", "JPY 1120 784", "KWD 0.87 0.609", "USD 135.44 94.86"])
    }

    /// docs/schemas/iap-report-v1.schema.json describes both documents exactly (no field it does not
    /// name, amounts as decimal strings): checked with Python's jsonschema, which .ci/run installs.
    func testJSONMatchesItsPublishedSchema() throws {
        try Prerequisite.python(["jsonschema"], install: "python3 -m pip install jsonschema; .ci/run installs it")
        let folder = try temporaryFolder("schema")
        let documents = [
            ("sales", try IAPRunner.run(["report", "--sales", Self.sales, "--catalog", "\(Self.sales)/Catalog", "--format", "json"]).stdout),
            ("prices", try IAPRunner.run(["report", "\(Self.sales)/Catalog", "--storefronts", "all", "--format", "json"]).stdout),
        ]
        var paths: [String] = []
        for (name, text) in documents {
            let file = folder.appendingPathComponent("\(name).json")
            try text.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let check = try IAPRunner.runProgram("/usr/bin/env", ["python3", "-c", """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        validator = jsonschema.Draft7Validator(schema)
        for path in sys.argv[2:]:
            document = json.load(open(path))
            validator.validate(document)
            print(document["kind"], "valid")
            # The schema refuses what it does not describe: a binary number for an amount.
            if document["kind"] == "sales":
                document["currencies"][0]["customerTotal"] = 1.5
                assert not validator.is_valid(document), "a float amount passed"
                print("float refused")
        """, IAPRunner.packageRoot.appendingPathComponent("docs/schemas/iap-report-v1.schema.json").path] + paths)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, "sales valid\nfloat refused\nprices valid\n")
    }

    func testFinancialAndSubscriptionReports() throws {
        let result = try IAPRunner.run(["report", "--sales", "\(Self.sales)/80012345_1126_EU.txt", "\(Self.sales)/Subscription_80012345_20261102.txt",
                                        "\(Self.sales)/Subscription_Event_80012345_20261102.txt", "--catalog", "\(Self.sales)/Catalog"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try IAPRunner.assertGolden(result.stdout, "report-financial.md")
        XCTAssertEqual(result.stderr, """
            Tests/Fixtures/Sales/80012345_1126_EU.txt:3:1: warning: 'com.acme.puzzle.pro' was refunded for 1 of 4 units sold (25%) [high-refund-rate]
            Tests/Fixtures/Sales/80012345_1126_EU.txt:3:1: note: fix: read its reviews and check that its name, description and price say what it is
            Tests/Fixtures/Sales/Catalog/Metadata.plist:29:3: info: 'com.acme.puzzle.hints' is in the catalog but sold nothing from 2026-11-01 to 2026-11-28 [unsold-catalog-product]
            Tests/Fixtures/Sales/Catalog/Metadata.plist:86:3: info: 'com.acme.puzzle.club.yearly' is in the catalog but sold nothing from 2026-11-01 to 2026-11-28 [unsold-catalog-product]
            Tests/Fixtures/Sales/Catalog/Metadata.plist:104:3: info: 'com.acme.puzzle.themes' is in the catalog but sold nothing from 2026-11-01 to 2026-11-28 [unsold-catalog-product]

            """)
        let both = try IAPRunner.run(["report", "--sales", "\(Self.sales)/80012345_1126_EU.txt", Self.salesFiles[0]])
        XCTAssertTrue(both.stderr.contains("Tests/Fixtures/Sales/80012345_1126_EU.txt:1:1: warning: Summary Sales and Financial reports are totalled together"), both.stderr)
    }

    func testAFolderOfReportsIsReadFileByFile() throws {
        let result = try IAPRunner.run(["report", "--sales", Self.sales, "--format", "json"])
        XCTAssertEqual(result.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { ($0["path"] as? String ?? "").replacingOccurrences(of: "\(Self.sales)/", with: "") }, [
            "80012345_1126_EU.txt", "S_D_80012345_20261102.txt", "S_D_80012345_20261103.txt.gz", "S_D_80012345_20261104_v1_0.txt",
            "S_D_80012345_20261105.txt", "Subscription_80012345_20261102.txt", "Subscription_Event_80012345_20261102.txt",
        ])
        XCTAssertTrue(result.stderr.hasPrefix("Tests/Fixtures/Sales/80012345_1126_EU.txt:1:1: warning: Summary Sales and Financial reports are totalled together"), result.stderr)
        let empty = try IAPRunner.run(["report", "--sales", "Sources"])
        XCTAssertEqual(empty.status, 2)
        XCTAssertEqual(empty.stderr, "iap: error: Sources: no report files in this folder (.txt, .txt.gz or .tsv, as App Store Connect downloads them)\n")
    }

    func testIapYmlNamesTheCatalogSetsSeveritiesAndTheRefundRateLimit() throws {
        let folder = try temporaryFolder("yml")
        let catalog = IAPRunner.packageRoot.appendingPathComponent("\(Self.sales)/Catalog").path
        let config = folder.appendingPathComponent("iap.yml")
        try """
        catalogs: [\(catalog)]
        rules:
          unsold-catalog-product: off
          high-refund-rate: {severity: error, limit: 25}

        """.write(to: config, atomically: true, encoding: .utf8)
        let report = IAPRunner.packageRoot.appendingPathComponent("\(Self.sales)/80012345_1126_EU.txt").path
        let strict = try IAPRunner.run(["report", "--sales", report, "--config", config.path, "--format", "json"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stderr, """
            \(report):3:1: error: 'com.acme.puzzle.pro' was refunded for 1 of 4 units sold (25%) [high-refund-rate]
            \(report):3:1: note: fix: read its reviews and check that its name, description and price say what it is

            """)
        try """
        catalogs: [\(catalog)]
        rules:
          unsold-catalog-product: off
          high-refund-rate: {limit: 30}

        """.write(to: config, atomically: true, encoding: .utf8)
        let lenient = try IAPRunner.run(["report", "--sales", report, "--config", config.path])
        XCTAssertEqual(lenient.status, 0)
        XCTAssertEqual(lenient.stderr, "")
        XCTAssertTrue(lenient.stdout.contains("- **Findings**: none\n"), lenient.stdout)
    }

    func testPriceMatrixInEveryFormat() throws {
        for format in ["md", "csv", "json", "html"] {
            let result = try IAPRunner.run(["report", "\(Self.sales)/Catalog", "--storefronts", "USA,JPN,KWT,DEU,GBR", "--format", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "")
            try IAPRunner.assertGolden(result.stdout, "report-prices.\(format)")
        }
    }

    func testPriceMatrixDefaultsToPricedStorefrontsAndWritesAtomically() throws {
        let folder = try temporaryFolder("report")
        let out = folder.appendingPathComponent("prices.csv").path
        let result = try IAPRunner.run(["report", "\(Self.sales)/Catalog", "--format", "csv", "-o", out])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "iap: wrote \(out): 6 products × 4 storefronts: 14 prices declared, 0 errors, 0 warnings, 0 infos\n")
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(csv.components(separatedBy: "\r\n").count, 1 + 6 * 4 + 1)
        XCTAssertTrue(csv.hasPrefix("catalog,product,kind,period,storefront,storefront_name,declared,currency,locale,amount,price,per_period,introductory_offer\r\n"))
    }

    func testCatalogWithoutCurrenciesIsAFindingNotAnEmptyTable() throws {
        let folder = try temporaryFolder("nocur")
        try Self.metadataPlist("""
            <key>com.acme.app.coins</key>
            <dict><key>kind</key><string>consumable</string><key>price</key><string>0.99</string></dict>
            """).write(to: folder.appendingPathComponent("Metadata.plist"), atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["report", folder.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("Metadata.plist:8:65: info: the price 0.99 of 'com.acme.app.coins' has no currency: it cannot be shown in any storefront [unknown-price-currency]"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("iap: error: no price to show in \(folder.path): its prices carry no currency or storefront (1 finding below); declare prices in a .storekit file (with its storefront) or the metadata plist (price + currency, or prices by storefront)\n"), result.stderr)
    }

    func testStoreKitFileWithoutStorefrontIsPricedInStoreKitTestingsDefaultUSA() throws {
        let folder = try temporaryFolder("sk")
        func storekit(_ settings: String) -> String {
            """
            {
              "identifier" : "A1B2C3D4",
              "products" : [
                {
                  "displayPrice" : "0.99",
                  "familyShareable" : false,
                  "internalID" : "6E000001",
                  "localizations" : [],
                  "productID" : "com.acme.app.coins",
                  "referenceName" : "Coins",
                  "type" : "Consumable"
                }
              ],
              "settings" : { \(settings) },
              "subscriptionGroups" : [],
              "version" : { "major" : 2, "minor" : 0 }
            }

            """
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Plain"), withIntermediateDirectories: true)
        try storekit("").write(to: folder.appendingPathComponent("Plain/Products.storekit"), atomically: true, encoding: .utf8)
        let plain = try IAPRunner.run(["report", folder.appendingPathComponent("Plain").path, "--format", "csv"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout.components(separatedBy: "\r\n")[1], "\(folder.appendingPathComponent("Plain").path),com.acme.app.coins,consumable,,USA,United States,yes,USD,en_US,0.99,$0.99,,")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Odd"), withIntermediateDirectories: true)
        try storekit(#""_storefront" : "XYZ""#).write(to: folder.appendingPathComponent("Odd/Products.storekit"), atomically: true, encoding: .utf8)
        let odd = try IAPRunner.run(["report", folder.appendingPathComponent("Odd").path])
        XCTAssertEqual(odd.status, 2)
        XCTAssertTrue(odd.stderr.contains("info: the price of this StoreKit configuration has no currency: its storefront 'XYZ' is not one of the App Store's 175 [unknown-price-currency]"), odd.stderr)
    }

    func testMetadataPricesWithAnUnknownStorefrontOrAmountAreInvalidMetadata() throws {
        let folder = try temporaryFolder("prices")
        try Self.metadataPlist("""
            <key>com.acme.app.coins</key>
            <dict>
            <key>kind</key><string>consumable</string>
            <key>prices</key>
            <dict>
            <key>XYZ</key><string>0.99</string>
            <key>JP</key><string>1,60</string>
            <key>DEU</key><string>0.99</string>
            </dict>
            </dict>
            """).write(to: folder.appendingPathComponent("Metadata.plist"), atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["report", folder.path, "--format", "csv"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, """
            catalog,product,kind,period,storefront,storefront_name,declared,currency,locale,amount,price,per_period,introductory_offer\r
            \(folder.path),com.acme.app.coins,consumable,,DEU,Germany,yes,EUR,de_DE,0.99,"0,99\u{A0}€",,\r

            """)
        let plist = folder.appendingPathComponent("Metadata.plist").path
        XCTAssertEqual(result.stderr, """
            \(plist):12:1: error: prices: 'XYZ' is not one of the App Store's 175 storefronts (iap storefronts lists them) [invalid-metadata]
            \(plist):13:14: error: prices.JP '1,60' is not an amount: write digits with a '.' for decimals, e.g. 0.99 [invalid-metadata]

            """)
    }

    func testUsageErrors() throws {
        let storefronts = try IAPRunner.run(["report", "--sales", Self.salesFiles[0], "--storefronts", "USA"])
        XCTAssertEqual(storefronts.status, 64)
        XCTAssertEqual(storefronts.stderr, "iap: error: --storefronts is for the price matrix; sales reports show the storefronts that sold\n")
        let missing = try IAPRunner.run(["report", "--sales", "nope.txt"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "iap: error: nope.txt: no such report file\n")
        let unknown = try IAPRunner.run(["report", "\(Self.sales)/Catalog", "--storefronts", "USA,XYZ"])
        XCTAssertEqual(unknown.status, 64)
    }
}
