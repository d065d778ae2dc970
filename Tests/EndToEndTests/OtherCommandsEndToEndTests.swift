import Foundation
import IAPTool
import XCTest

final class OtherCommandsEndToEndTests: XCTestCase {
    func testListTable() throws {
        let result = try IAPRunner.run(["list", "catalogs/FakeGame"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, """
        catalogs/FakeGame: 3 products, bundle ID com.appcoda.FakeGame
        ID                                KIND            WHY                         REFERENCE NAME  DISPLAY NAME  PRICE
        com.appcoda.fakegame.extra-lives  consumable      declared Metadata.plist:17  Extra Lives     Extra Lives   0.99 USD
        com.appcoda.fakegame.superpowers  non-consumable  declared Metadata.plist:47  Superpowers     Superpowers   1.99 USD
        com.appcoda.fakegame.unlock_maps  non-consumable  declared Metadata.plist:77  Unlock Maps     All Maps      2.99 USD

        """)
    }

    func testListVerboseAndJSON() throws {
        let verbose = try IAPRunner.run(["list", "--verbose", "catalogs/FakeGame", "catalogs/RazeFaces", "catalogs/SpeakEnglish"])
        XCTAssertEqual(verbose.status, 0)
        try IAPRunner.assertGolden(verbose.stdout, "list-verbose.txt")
        let decoys = try IAPRunner.run(["list", "-v", "catalogs/broken/Decoy_Products.plist", "catalogs/broken/Broken_ProductIDs.plist"])
        XCTAssertEqual(decoys.status, 1)
        XCTAssertEqual(decoys.stdout, """
        catalogs/broken: 0 products
          catalogs/broken/Broken_ProductIDs.plist: unreadable: XML error: Opening and ending tag mismatch: string line 5 and strin
          catalogs/broken/Decoy_Products.plist: not a product list: looks like an over-the-air install manifest (items → assets, metadata), not a product list

        """)
        XCTAssertEqual(decoys.stderr, "iap: some files could not be read as catalogs; for the details run: iap validate catalogs/broken/Decoy_Products.plist catalogs/broken/Broken_ProductIDs.plist\n")
        let json = try IAPRunner.run(["list", "--format", "json", "catalogs/SpeakEnglish"])
        XCTAssertEqual(json.status, 0)
        let catalogs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let products = try XCTUnwrap(catalogs.first?["products"] as? [[String: Any]])
        XCTAssertEqual(products.count, 5)
        XCTAssertEqual(products[3]["id"] as? String, "com.speakenglish.app.premium.monthly")
        XCTAssertEqual(products[3]["price"] as? String, "6.99")
        XCTAssertEqual(products[3]["subscriptionPeriod"] as? String, "P1M")
        let files = try XCTUnwrap(catalogs.first?["files"] as? [[String: Any]])
        XCTAssertEqual(files.first { ($0["path"] as? String)?.hasSuffix("iapdemo.plist") == true }?["shape"] as? String, "array-of-dicts")
    }

    /// Issue 33: JSON says why a file is not a catalog file, as validate and `list -v` do.
    func testListJSONSaysWhyAFileIsNotACatalog() throws {
        let json = try IAPRunner.run(["list", "--format", "json", "catalogs/broken/Decoy_Products.plist", "catalogs/broken/Broken_ProductIDs.plist"])
        XCTAssertEqual(json.status, 1)
        let catalogs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let files = try XCTUnwrap(catalogs.first?["files"] as? [[String: Any]])
        let problems = files.map { ($0["path"] as? String ?? "", $0["problem"] as? [String: Any] ?? [:]) }
        XCTAssertEqual(problems.map(\.0), ["catalogs/broken/Broken_ProductIDs.plist", "catalogs/broken/Decoy_Products.plist"])
        XCTAssertEqual(problems[0].1["rule"] as? String, "malformed-catalog")
        XCTAssertEqual(problems[0].1["line"] as? Int, 5)
        XCTAssertEqual(problems[1].1["rule"] as? String, "unrecognized-catalog")
        XCTAssertEqual(problems[1].1["message"] as? String,
                       "not a product list: looks like an over-the-air install manifest (items → assets, metadata), not a product list")
        // A catalog file has no problem key.
        let clean = try IAPRunner.run(["list", "--format", "json", "catalogs/FakeGame"])
        XCTAssertFalse(clean.stdout.contains("\"problem\""), clean.stdout)
    }

    /// Issue 33: a kind from a tier word alone ("pro", "premium") is told as a guess, in list
    /// and in undeclared-kind; a kind word beside it is still an inference.
    func testAKindFromATierWordAloneIsToldAsAGuess() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-guess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = ["com.acme.app.pro", "com.acme.app.PremiumAccess", "com.acme.app.PRO-2", "com.acme.app.pro_unlock", "com.acme.app.premium.monthly"]
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
            + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n")
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let list = try IAPRunner.run(["list", "."], in: folder)
        XCTAssertEqual(list.stdout, """
        .: 5 products
        ID                            KIND            WHY                       REFERENCE NAME  DISPLAY NAME  PRICE
        com.acme.app.pro              non-consumable  a guess: 'pro'
        com.acme.app.PremiumAccess    non-consumable  a guess: 'premium'
        com.acme.app.PRO-2            non-consumable  a guess: 'pro'
        com.acme.app.pro_unlock       non-consumable  inferred: 'unlock','pro'
        com.acme.app.premium.monthly  auto-renewable  inferred: 'monthly'

        """)
        let validate = try IAPRunner.run(["validate", ".", "--bundle-id", "com.acme.app"], in: folder)
        XCTAssertEqual(validate.status, 0)
        XCTAssertEqual(validate.stdout.components(separatedBy: "\n").filter { $0.contains("undeclared-kind") }, [
            "IAP_ProductIDs.plist:4:2: info: kind of 'com.acme.app.pro' is a guess: non-consumable from 'pro' in the ID, a word one-time unlocks and subscriptions both use; declare the kind in metadata [undeclared-kind]",
            "IAP_ProductIDs.plist:5:2: info: kind of 'com.acme.app.PremiumAccess' is a guess: non-consumable from 'premium' in the ID, a word one-time unlocks and subscriptions both use; declare the kind in metadata [undeclared-kind]",
            "IAP_ProductIDs.plist:6:2: info: kind of 'com.acme.app.PRO-2' is a guess: non-consumable from 'pro' in the ID, a word one-time unlocks and subscriptions both use; declare the kind in metadata [undeclared-kind]",
            "IAP_ProductIDs.plist:7:2: info: kind of 'com.acme.app.pro_unlock' is non-consumable, inferred from 'unlock', 'pro' in the ID; declare it in metadata [undeclared-kind]",
            "IAP_ProductIDs.plist:8:2: info: kind of 'com.acme.app.premium.monthly' is auto-renewable subscription, inferred from 'monthly' in the ID; declare it in metadata [undeclared-kind]",
        ])
    }

    func testRules() throws {
        let text = try IAPRunner.run(["rules"])
        XCTAssertEqual(text.status, 0)
        // One line per rule of every registry (catalog, lint, tool, sales-report, App Store Connect drift).
        XCTAssertEqual(text.stdout.split(separator: "\n").count, RuleRegistry.all.count)
        XCTAssertEqual(Set(text.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }), Set(RuleRegistry.all.map(\.id)))
        XCTAssertTrue(text.stdout.hasPrefix("malformed-catalog            error    A catalog file that does not parse"))
        XCTAssertTrue(text.stdout.contains("\nstale-generated-file         error    A generated file that no longer matches its catalog (or is missing) lets code use IDs the catalog dropped and miss the ones it added; regenerate it with iap gen.\n"))
        let markdown = try IAPRunner.run(["rules", "--format", "markdown"])
        // The header, its rule, and a row per rule.
        XCTAssertEqual(markdown.stdout.split(separator: "\n").count, RuleRegistry.all.count + 2)
        XCTAssertTrue(markdown.stdout.contains("| `unreadable-report-row` | report | error |"))
        XCTAssertTrue(markdown.stdout.contains("| `similar-ids` | catalog | warning |"))
        XCTAssertTrue(markdown.stdout.contains("| `hardcoded-price` | lint | warning |"))
        XCTAssertTrue(markdown.stdout.contains("| `asc-missing-product` | asc | error |"))
        let json = try IAPRunner.run(["rules", "--format", "json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        let rules = try XCTUnwrap(object["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, RuleRegistry.all.map(\.id))
        XCTAssertEqual(rules.first { $0["id"] as? String == "report-total-mismatch" }?["defaultSeverity"] as? String, "warning")
        XCTAssertEqual(rules.first { $0["id"] as? String == "report-totals-missing" }?["defaultSeverity"] as? String, "error")
        XCTAssertEqual(rules.first { $0["id"] as? String == "duplicate-report" }?["defaultSeverity"] as? String, "warning")
        XCTAssertEqual(rules.first { $0["id"] as? String == "unknown-product-id" }?["defaultSeverity"] as? String, "error")
        XCTAssertEqual(rules.first { $0["id"] as? String == "unknown-metadata-key" }?["defaultSeverity"] as? String, "warning")
    }

    func testPlistLintAndPrint() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-plist-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.plist"), bad = folder.appendingPathComponent("bad.plist")
        try "<plist><dict><key>n</key><integer>18446744073709551615</integer><key>r</key><real>nan</real><key>d</key><date>2004-10-26T10:33:33Z</date></dict></plist>"
            .write(to: good, atomically: true, encoding: .utf8)
        try "<plist>\n<dict>\n<key>a</key>\n</dict>\n</plist>".write(to: bad, atomically: true, encoding: .utf8)
        let ok = try IAPRunner.run(["plist", "lint", good.path])
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(ok.stdout, "\(good.path): OK\n")
        let failing = try IAPRunner.run(["plist", "lint", good.path, bad.path])
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stdout, "\(good.path): OK\n\(bad.path):3:1: error: key 'a' has no value\n")
        XCTAssertEqual(try IAPRunner.run(["plist", "lint", folder.appendingPathComponent("none.plist").path]).status, 2)
        let json = try IAPRunner.run(["plist", "print", good.path])
        XCTAssertEqual(json.stdout, "{\n  \"n\": 18446744073709551615,\n  \"r\": \"nan\",\n  \"d\": \"2004-10-26T10:33:33Z\"\n}\n")
        let xml = try IAPRunner.run(["plist", "print", "--format", "xml", good.path])
        XCTAssertTrue(xml.stdout.contains("\t<key>n</key>\n\t<integer>18446744073709551615</integer>\n"))
        let binary = folder.appendingPathComponent("binary.plist")
        try Data("bplist00\u{D1}\u{01}".utf8).write(to: binary)
        let refused = try IAPRunner.run(["plist", "lint", binary.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "\(binary.path):1:1: error: binary property list: file of 11 bytes is too short to hold its trailer\n")
    }

    /// Binary plists written by CPython's plistlib (Tests/Fixtures/BinaryPlists/make.py) are read
    /// like their XML twins; positions are byte offsets.
    func testBinaryCatalogReadsLikeItsXMLTwin() throws {
        let binary = try IAPRunner.run(["list", "Tests/Fixtures/BinaryPlists/catalog"])
        XCTAssertEqual(binary.status, 0)
        XCTAssertEqual(binary.stdout, """
            Tests/Fixtures/BinaryPlists/catalog: 2 products
            ID                        KIND            WHY                        REFERENCE NAME  DISPLAY NAME  PRICE
            com.binarydemo.coins100   consumable      declared Metadata.plist:1  100 Coins       100 Coins     0.99 USD
            com.binarydemo.removeads  non-consumable  declared Metadata.plist:1  Remove Ads      Remove Ads    2.99 USD

            """)
        let validate = try IAPRunner.run(["validate", "Tests/Fixtures/BinaryPlists/catalog", "Tests/Fixtures/BinaryPlists/catalog-xml"])
        XCTAssertEqual(validate.status, 0)
        XCTAssertEqual(validate.stdout, "")
        XCTAssertEqual(validate.stderr, "4 files checked: 0 errors, 0 warnings, 0 infos, 4 products in 2 catalogs\n")
    }

    func testHelpAndVersion() throws {
        let help = try IAPRunner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("validate"))
        XCTAssertEqual(try IAPRunner.run(["--version"]).stdout, "0.3.0\n")
    }
}

/// Colour appears on a terminal and nowhere else; NO_COLOR turns it off. Runs `iap` under a real
/// pseudo-terminal through util-linux's `script`.
final class ColourEndToEndTests: XCTestCase {
    func run(onTerminal arguments: String, noColor: Bool) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("/usr/bin/script not found: terminal colour test skipped")
        }
        let command = (noColor ? "NO_COLOR=1 " : "") + IAPRunner.binary.path + " " + arguments
        return try IAPRunner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"]).stdout
    }

    func testColourOnlyOnATerminal() throws {
        let coloured = try run(onTerminal: "validate catalogs/broken/Legacy_ProductIDs.plist", noColor: false)
        XCTAssertTrue(coloured.contains("\u{1B}[1;33mwarning\u{1B}[0m"), coloured)
        let plain = try run(onTerminal: "validate catalogs/broken/Legacy_ProductIDs.plist", noColor: true)
        XCTAssertFalse(plain.contains("\u{1B}["), plain)
        XCTAssertTrue(plain.contains(": warning: the root is a <dict>"), plain)
    }
}
