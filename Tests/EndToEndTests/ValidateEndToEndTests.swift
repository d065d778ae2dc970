import Foundation
import IAPCatalog
import XCTest

final class ValidateEndToEndTests: XCTestCase {
    func testBrokenCatalogFiresEveryRuleOnce() throws {
        // A walk passes over plists that are not catalogs: the decoy fires unrecognized-catalog
        // only when it is named on the command line.
        let result = try IAPRunner.run(["validate", "catalogs/broken", "catalogs/broken/Decoy_Products.plist"])
        XCTAssertEqual(result.status, 1)
        try IAPRunner.assertGolden(result.stdout, "validate-broken.txt")
        XCTAssertEqual(result.stderr, "14 files checked: \(IAPRunner.counts(ofText: result.stdout).summary), 10029 products in 5 catalogs\n")
        let json = try IAPRunner.run(["rules", "--format", "json"]).stdout
        let listed = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["rules"] as? [[String: Any]])
        let rules = listed.filter { $0["kind"] as? String == "catalog" }.compactMap { $0["id"] as? String }
        XCTAssertEqual(rules, CatalogRules.descriptions.map(\.id))
        for rule in rules {
            let lines = result.stdout.split(separator: "\n").filter { $0.hasSuffix("[\(rule)]") }
            XCTAssertEqual(lines.count, 1, "rule \(rule) should fire exactly once in catalogs/broken")
        }
        let walked = try IAPRunner.run(["validate", "--verbose", "catalogs/broken"])
        XCTAssertFalse(walked.stdout.contains("Decoy_Products.plist"))
        XCTAssertTrue(walked.stderr.hasPrefix("""
        iap: passed over catalogs/broken/Decoy_Products.plist: not a product list: looks like an over-the-air install manifest (items → assets, metadata), not a product list
        iap: passed over catalogs/broken/unresolved-bundle/Info.plist: the app's Info.plist, whose bundle ID '$(PRODUCT_BUNDLE_IDENTIFIER)' is not written out

        """), walked.stderr)
    }

    func testShippedAppCatalogsAreClean() throws {
        let result = try IAPRunner.run(["validate", "catalogs/FakeGame", "catalogs/RazeFaces", "catalogs/SpeakEnglish"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, """
        catalogs/FakeGame/IAP_ProductIDs.plist:5:2: info: 3 product IDs start with 'com.appcoda.fakegame.', the bundle ID 'com.appcoda.FakeGame' in another case; bundle IDs are case-insensitive, so the prefix is accepted [bundle-prefix-convention]
        catalogs/RazeFaces/IAP_ProductIDs.plist:5:2: info: 6 product IDs start with 'com.razeware.razefaces.', the bundle ID 'com.razeware.RazeFaces' in another case; bundle IDs are case-insensitive, so the prefix is accepted [bundle-prefix-convention]

        """)
        XCTAssertEqual(result.stderr, "12 files checked: 0 errors, 0 warnings, 2 infos, 14 products in 3 catalogs\n")
    }

    func testNoPathMeansCatalogsFolder() throws {
        let explicit = try IAPRunner.run(["validate", "catalogs"])
        let implicit = try IAPRunner.run(["validate"])
        XCTAssertEqual(implicit.status, 1)
        XCTAssertEqual(implicit.stdout, explicit.stdout)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("iap-empty-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try IAPRunner.run(["validate"], in: empty)
        XCTAssertEqual(none.status, 2)
        // No ./catalogs: the folder is walked, as by every command (CatalogDefaultTests).
        XCTAssertEqual(none.stderr, "iap: error: no catalog found in .: no product-ID list, metadata plist or .storekit file\n")
    }

    func testExitCodes() throws {
        let missing = try IAPRunner.run(["validate", "no/such/place"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "iap: error: no/such/place: no such file or folder\n")
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(try IAPRunner.run(["validate", "--no-such-flag"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["validate", "--display-name-limit", "0", "catalogs/FakeGame"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["frobnicate"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["validate", "--retired", "missing.txt", "catalogs/FakeGame"]).status, 2)
        // A folder with no catalog file is not a pass: it is a check that could not run.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("iap-nothing-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        try "<plist><dict/></plist>".write(to: empty.appendingPathComponent("Settings.plist"), atomically: true, encoding: .utf8)
        let nothing = try IAPRunner.run(["validate", empty.path])
        XCTAssertEqual(nothing.status, 2)
        XCTAssertEqual(nothing.stderr, "iap: error: no catalog found in \(empty.path): no product-ID list, metadata plist or .storekit file (1 other plist passed over; --verbose says why)\n")
        let verbose = try IAPRunner.run(["validate", "--verbose", empty.path])
        XCTAssertEqual(verbose.status, 2)
        XCTAssertEqual(verbose.stderr, """
        iap: passed over \(empty.path)/Settings.plist: not a product list: an empty <dict>
        iap: error: no catalog found in \(empty.path): no product-ID list, metadata plist or .storekit file (1 other plist passed over)

        """)
        XCTAssertEqual(try IAPRunner.run(["list", empty.path]).status, 2)
    }

    func testStrictTurnsWarningsIntoFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-strict-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.plist("<array><string>com.acme.app.goldpack</string><string>com.acme.app.goldpak</string></array>")
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try IAPRunner.run(["validate", folder.path]).status, 0)
        XCTAssertEqual(try IAPRunner.run(["validate", "--strict", folder.path]).status, 1)
    }

    func testRetiredFileAndRequiredLocaleFlags() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-flags-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "# deleted in 2023\ncom.appcoda.fakegame.superpowers\n".write(to: folder.appendingPathComponent("retired.txt"), atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["validate", "--retired", folder.appendingPathComponent("retired.txt").path,
                                        "--require-locale", "fr-FR", "catalogs/FakeGame"])
        XCTAssertEqual(result.status, 1)
        let rules = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
        XCTAssertEqual(rules, ["bundle-prefix-convention", "missing-localization", "missing-localization", "retired-id", "missing-localization"])
        XCTAssertTrue(result.stdout.contains("retired.txt:2:1: note: listed as retired here"))
    }

    func testBundleIDFlagWins() throws {
        // None of FakeGame's IDs starts with the given bundle ID: a convention, said once.
        let result = try IAPRunner.run(["validate", "--bundle-id", "com.other.app", "catalogs/FakeGame"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, """
        catalogs/FakeGame/IAP_ProductIDs.plist:5:2: info: none of the 3 product IDs starts with the bundle ID 'com.other.app.' (the first is 'com.appcoda.fakegame.extra-lives'); existing IDs cannot be renamed, but new ones are safest under the bundle ID, e.g. 'com.other.app.fakegame.extra-lives' [bundle-prefix-convention]
        --bundle-id: note: bundle ID from here

        """)
        // Some IDs with the prefix and one without: the one is a slip, reported on its own.
        let mixed = try IAPRunner.run(["validate", "--bundle-id", "com.appcoda.fakegame", "catalogs/FakeGame/IAP_ProductIDs.plist",
                                       "catalogs/broken/Extra_Products.plist"])
        XCTAssertTrue(mixed.stdout.contains("warning: product ID 'com.acme.broken.tip' does not start with the bundle ID 'com.appcoda.fakegame.' [missing-bundle-prefix]"), mixed.stdout)
        XCTAssertTrue(mixed.stdout.contains("note: fix: use 'com.appcoda.fakegame.broken.tip' for new products"), mixed.stdout)
    }

    func testJSONFormat() throws {
        let result = try IAPRunner.run(["validate", "--format", "json", "catalogs/broken"])
        XCTAssertEqual(result.status, 1)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["version"] as? Int, 1)
        let counts = IAPRunner.counts(ofText: try IAPRunner.run(["validate", "catalogs/broken"]).stdout)
        XCTAssertEqual(document["summary"] as? [String: Int], ["errors": counts.errors, "warnings": counts.warnings, "infos": counts.infos, "files": 13])
        let array = try XCTUnwrap(document["findings"] as? [[String: Any]])
        XCTAssertEqual(array.count, counts.findings)
        let first = try XCTUnwrap(array.first)
        XCTAssertEqual(first["ruleID"] as? String, "kind-conflict")
        XCTAssertEqual(first["severity"] as? String, "error")
        let location = try XCTUnwrap(first["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "catalogs/broken/Broken.storekit")
        XCTAssertEqual(location["line"] as? Int, 16)
    }

    func testOutputIsTheSameWhateverTheLocaleAndRun() throws {
        let base = try IAPRunner.run(["validate", "catalogs"])
        for env in [["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"], ["LANG": "ja_JP.UTF-8"], ["TZ": "Asia/Tokyo"]] {
            let other = try IAPRunner.run(["validate", "catalogs"], environment: env)
            XCTAssertEqual(other.stdout, base.stdout, "\(env)")
        }
        XCTAssertFalse(base.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    func testCorpusDictRootedListsAreFlagged() throws {
        guard let corpus = IAPRunner.corpus else { throw XCTSkip("../shared/corpus not found: skipped") }
        for name in ["nilshah31__ontrejectoryiOS__IAP_ProductIDs.plist", "NiftyTreeStudios__Bean-Juice__IAP_ProductIDs.plist"] {
            let result = try IAPRunner.run(["validate", corpus.appendingPathComponent("plists/\(name)").path])
            XCTAssertEqual(result.status, 0, name)
            XCTAssertTrue(result.stdout.contains("[dict-rooted-id-list]"), name)
        }
    }

    /// 150 placeholder IDs: the first 100 findings and a summary; `--all-findings` lists all 150.
    func testARuleThatFiresOnEveryProductIsSummarisedAfterAHundred() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-many-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = (0..<150).map { "\t<string>com.example.coins.pack\($0)</string>" }.joined(separator: "\n")
        try Self.plist("<array>\n\(ids)\n</array>").write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("IAP_ProductIDs.plist").path
        let capped = try IAPRunner.run(["validate", path, "--bundle-id", "com.acme.app"])
        let lines = capped.stdout.split(separator: "\n").filter { $0.hasSuffix("[placeholder-prefix]") }
        XCTAssertEqual(lines.count, 101)
        XCTAssertEqual(lines.first, "\(path):4:2: warning: 50 more 'placeholder-prefix' findings not shown (150 in all, the first 100 above): one cause is likely behind them all; fix it and run again [placeholder-prefix]")
        XCTAssertEqual(lines.last, "\(path):103:2: warning: product ID 'com.example.coins.pack99' uses the placeholder prefix 'com.example.' [placeholder-prefix]")
        XCTAssertEqual(capped.status, 0) // warnings only
        XCTAssertTrue(capped.stderr.contains("0 errors, 101 warnings"), capped.stderr)
        let all = try IAPRunner.run(["validate", path, "--bundle-id", "com.acme.app", "--all-findings"])
        XCTAssertEqual(all.stdout.split(separator: "\n").filter { $0.hasSuffix("[placeholder-prefix]") }.count, 150)
        XCTAssertTrue(all.stderr.contains("0 errors, 150 warnings"), all.stderr)
    }

    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
    }
}
