import Foundation
import XCTest

/// `iap validate .` at the root of an app repository: catalogs are found by what files are, grouped
/// by the app they belong to, and the bundle ID comes from the app's project.
final class DiscoveryEndToEndTests: XCTestCase {
    func testRepositoryRootFindsOneCatalogPerApp() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        let result = try IAPRunner.run(["validate", "."], in: repo.root)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        // ProductIds.plist and Products.storekit sit in different folders of one app, so the typo
        // between them is caught; Mahjong's "Klondike" is another app's reference name.
        XCTAssertEqual(result.stdout, """
        Solitaire/Resources/ProductIds.plist:5:2: warning: 'com.acme.solitaire.freecell' has no metadata: no metadata plist or .storekit file of this catalog describes it [missing-metadata]
        Solitaire/Resources/ProductIds.plist:5:2: info: kind of 'com.acme.solitaire.freecell' is unknown: nothing declares it and no word of its ID tells; declare it in metadata [undeclared-kind]
        Solitaire/Store/Products.storekit:13:7: warning: 'com.acme.solitaire.frecell' has metadata but no product list of this catalog holds it: the app never requests it [orphan-metadata]
        Solitaire/Store/Products.storekit:13:7: warning: product ID 'com.acme.solitaire.frecell' is one edit away from 'com.acme.solitaire.freecell': a typo? [similar-ids]
        Solitaire/Resources/ProductIds.plist:5:2: note: 'com.acme.solitaire.freecell' is here

        """)
        XCTAssertEqual(result.stderr, "3 files checked: 0 errors, 3 warnings, 1 info, 4 products in 2 catalogs\n")
    }

    /// `iap init` lists each app's folder (where its Xcode project is), so `iap check` still finds
    /// the bundle ID in the project and its .xcconfig files, and finds what `validate .` finds.
    func testInitListsAppFoldersSoCheckResolvesTheBundleID() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        XCTAssertEqual(try IAPRunner.run(["init"], in: repo.root).status, 0)
        let text = try String(contentsOf: repo.root.appendingPathComponent("iap.yml"), encoding: .utf8)
        XCTAssertTrue(text.contains("catalogs:\n  - .\n"), text)
        let check = try IAPRunner.run(["check", "--format", "json"], in: repo.root)
        XCTAssertEqual(check.status, 0, check.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let rules = Set((document["findings"] as? [[String: Any]] ?? []).compactMap { $0["ruleID"] as? String })
        XCTAssertFalse(rules.contains("unresolved-bundle-id"), "\(rules)")
        XCTAssertTrue(rules.contains("similar-ids"), "\(rules)")
    }

    func testVerboseSaysWhatWasPassedOverAndWhy() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        let result = try IAPRunner.run(["list", "--verbose", "."], in: repo.root)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.hasPrefix("""
        .: 3 products, bundle ID com.acme.solitaire
          Solitaire/Resources/ProductIds.plist: product list, shape array-of-ids: <array> of ID strings; 2 products
          Solitaire/Store/Products.storekit: storekit v4.0, storefront USA, locale en_US; 2 products
          bundle ID com.acme.solitaire from Solitaire.xcodeproj/project.pbxproj:41

        """), result.stdout)
        XCTAssertTrue(result.stdout.contains("Mahjong: 1 product, bundle ID com.acme.mahjong\n"))
        XCTAssertEqual(result.stderr, """
        iap: passed over Solitaire.help/Contents/Info.plist: a help book's Info.plist: lends no bundle ID to a catalog
        iap: passed over Solitaire/GoogleService-Info.plist: not a product list: a <dict> with keys 'API_KEY' (string), 'BUNDLE_ID' (string), 'IS_ADS_ENABLED' (boolean): no product-list shape matches
        iap: passed over Solitaire/Info.plist: an Info.plist of the app; the bundle ID comes from Solitaire.xcodeproj/project.pbxproj:41 (preprocessor lines evaluated with no macro defined)
        iap: passed over Solitaire/Settings.bundle/com.mono0926.LicensePlist/SwiftyStoreKit.plist: not a product list: a <dict> with keys 'PreferenceSpecifiers' (array): no product-list shape matches
        iap: passed over SolitaireTests/Info.plist: a test target's Info.plist: lends no bundle ID to a catalog
        iap: passed over Widget/Info.plist: an app extension's Info.plist: lends no bundle ID to a catalog

        """)
    }

    func testAFileNamedOnTheCommandLineIsStillReadStrictly() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        let result = try IAPRunner.run(["validate", "Solitaire/GoogleService-Info.plist"], in: repo.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.hasPrefix("Solitaire/GoogleService-Info.plist:4:1: error: not a product list: a <dict> with keys 'API_KEY'"), result.stdout)
    }

    func testUnresolvedBundleIDOnlyWhenACatalogNeedsIt() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        // Without the configuration files, $(BUNDLE_PREFIX) cannot be expanded.
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("Config"))
        let result = try IAPRunner.run(["validate", "."], in: repo.root)
        XCTAssertTrue(result.stdout.contains("Solitaire/Info.plist:6:2: warning: CFBundleIdentifier is '$(PRODUCT_BUNDLE_IDENTIFIER)', a build setting this tool cannot expand: pass --bundle-id com.your.app to check ID prefixes [unresolved-bundle-id]"), result.stdout)
        XCTAssertEqual(result.stdout.components(separatedBy: "[unresolved-bundle-id]").count - 1, 1)
        // The same app without a catalog: nothing needs its bundle ID, and nothing is said of it.
        for file in ["Solitaire/Resources/ProductIds.plist", "Solitaire/Store/Products.storekit", "Mahjong"] {
            try FileManager.default.removeItem(at: repo.root.appendingPathComponent(file))
        }
        let none = try IAPRunner.run(["validate", "."], in: repo.root)
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "iap: error: no catalog found in .: no product-ID list, metadata plist or .storekit file (6 other plists passed over; --verbose says why)\n")
    }

    func testBundleIDFlagStillWins() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        let result = try IAPRunner.run(["list", "--verbose", "--bundle-id", "com.acme.other", "Solitaire"], in: repo.root)
        XCTAssertTrue(result.stdout.contains("bundle ID com.acme.other from --bundle-id"), result.stdout)
    }

    func testLintUsesTheCatalogOfEachApp() throws {
        let repo = try AppRepository()
        defer { repo.remove() }
        try repo.write("Solitaire/Store/Shop.swift", """
        import StoreKit
        let ids = ["com.acme.solitaire.klondike", "com.acme.solitaire.klondyke"]
        let widget = "com.acme.solitaire.widget"
        """)
        try repo.write("Mahjong/Shop.swift", "let id = \"com.acme.solitaire.klondike\"\n")
        let result = try IAPRunner.run(["lint", "."], in: repo.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, """
        Solitaire/Store/Shop.swift:2:12: warning: product ID 'com.acme.solitaire.klondike' typed as a literal; use ProductID.klondike [hardcoded-product-id]
        Solitaire/Store/Shop.swift:2:43: error: 'com.acme.solitaire.klondyke' is not in the catalog; it looks like a typo of 'com.acme.solitaire.klondike' [unknown-product-id]

        """)
        XCTAssertEqual(result.stderr, """
        iap: using the catalog in . (3 products, bundle ID com.acme.solitaire)
        iap: using the catalog in Mahjong (1 product, bundle ID com.acme.mahjong)
        2 files checked: 1 error, 1 warning, 0 infos

        """)
        let flagged = try IAPRunner.run(["lint", "Solitaire", "--catalog", ".", "--bundle-id", "com.acme.other"], in: repo.root)
        XCTAssertEqual(flagged.status, 2)
        XCTAssertEqual(flagged.stderr, "iap: error: --catalog . holds 2 catalogs (., Mahjong); name one by the files "
                       + "`Solitaire/Resources/ProductIds.plist Solitaire/Store/Products.storekit` (.), the folder `Mahjong` (Mahjong); "
                       + "or leave out --catalog: each app's sources are checked with the catalog of their app\n")
    }
}
