import Foundation
import TestSupport
import XCTest

/// A workspace of several apps whose projects are generated and not committed: each app's own
/// `Info.plist` (with `$(PRODUCT_BUNDLE_IDENTIFIER)`) under one `.xcworkspace`, and one app's
/// catalog. The catalog pairs with the app it belongs to; an app that sells nothing is never
/// reported; when nothing tells the apps apart, that is said at the catalog.
final class WorkspacePairingTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-pairing" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("Apps.xcworkspace/contents.xcworkspacedata", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n</Workspace>\n")
    }

    /// An app's own Info.plist; `id` nil: `$(PRODUCT_BUNDLE_IDENTIFIER)`.
    func app(_ path: String, id: String? = nil, name: String? = nil) throws {
        try write(path, AppRepository.plist("""
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>\(id ?? "$(PRODUCT_BUNDLE_IDENTIFIER)")</string>
        \t<key>CFBundlePackageType</key>
        \t<string>APPL</string>\(name.map { "\n\t<key>CFBundleName</key>\n\t<string>\($0)</string>" } ?? "")
        </dict>
        """))
    }

    func ids(_ ids: [String]) -> String {
        AppRepository.plist("<array>\n" + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>")
    }

    /// The `unresolved-bundle-id` lines of `validate .`, each as "path: message".
    func unresolved() throws -> [String] {
        let result = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertNotEqual(result.status, 2, result.stderr)
        return result.stdout.split(separator: "\n").filter { $0.hasSuffix("[unresolved-bundle-id]") }.map(String.init)
    }

    func testACatalogInsideOneAppsFolderIsThatAppsAndTheOtherAppIsNeverReported() throws {
        // The app that sells nothing sorts first, and its Info.plist sits deeper.
        try app("Billing/Sources/Info.plist")
        try app("Invoices/Info.plist")
        try write("Invoices/Store/Products.storekit", AppRepository.storeKit([("com.acme.invoices.pro", "Pro")]))
        XCTAssertEqual(try unresolved(), [
            "Invoices/Info.plist:6:2: warning: CFBundleIdentifier is '$(PRODUCT_BUNDLE_IDENTIFIER)', a build setting this tool cannot expand: "
                + "pass --bundle-id com.your.app to check ID prefixes [unresolved-bundle-id]",
        ])
        let verbose = try IAPRunner.run(["list", "--verbose", "."], in: folder)
        XCTAssertTrue(verbose.stdout.hasPrefix("Invoices: 1 product\n"), verbose.stdout)
        XCTAssertTrue(verbose.stderr.contains("iap: passed over Billing/Sources/Info.plist: the app's Info.plist, but the app has no catalog\n"), verbose.stderr)
    }

    func testThreeAppsWithTheCatalogAtTheWorkspaceRootNamedLikeOne() throws {
        try app("Billing/Info.plist")
        try app("Freelance Timer/Info.plist")
        try app("Invoices/Info.plist")
        try write("FreelanceTimer.storekit", AppRepository.storeKit([("com.acme.timer.pro", "Pro")]))
        XCTAssertEqual(try unresolved().map { String($0.prefix { $0 != ":" }) }, ["Freelance Timer/Info.plist"])
        let verbose = try IAPRunner.run(["list", "--verbose", "."], in: folder)
        for other in ["Billing", "Invoices"] {
            XCTAssertTrue(verbose.stderr.contains("iap: passed over \(other)/Info.plist: another app's Info.plist: the catalog beside it "
                                                  + "belongs to the app of Freelance Timer/Info.plist, nearer to its files or named like it\n"), verbose.stderr)
        }
        // Named by its bundle name rather than its folder.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("FreelanceTimer.storekit"))
        try app("Invoices/Info.plist", name: "Ledger")
        try write("Store/Ledger Products.storekit", AppRepository.storeKit([("com.acme.ledger.pro", "Pro")]))
        XCTAssertEqual(try unresolved().map { String($0.prefix { $0 != ":" }) }, ["Invoices/Info.plist"])
    }

    func testACatalogNothingPairsIsSaidAtTheCatalogNeverAtAnApp() throws {
        try app("Billing/Info.plist")
        try app("Invoices/Info.plist")
        try app("Timer/Info.plist")
        try write("Products.storekit", AppRepository.storeKit([("com.acme.shared.pro", "Pro")]))
        let result = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertEqual(result.stdout, """
        Products.storekit: warning: the catalog's bundle ID is unknown: it sits beside 3 apps (Billing/Info.plist, Invoices/Info.plist, Timer/Info.plist) \
        whose CFBundleIdentifier is a build setting, and nothing tells which one sells it; name its app's bundle ID to check ID prefixes [unresolved-bundle-id]
        Products.storekit: note: fix: check this catalog with its app's PRODUCT_BUNDLE_IDENTIFIER: `iap validate Products.storekit --bundle-id com.your.app`

        """)
        // Two apps, the same.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Timer"))
        XCTAssertEqual(try unresolved().map { String($0.prefix { $0 != ":" }) }, ["Products.storekit"])
    }

    func testAnotherAppsWrittenOutBundleIDIsNotLentToTheCatalog() throws {
        try app("Billing/Info.plist", id: "com.acme.billing")
        try app("Invoices/Info.plist")
        try write("Invoices/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro", "com.acme.invoices.coins"]))
        let list = try IAPRunner.run(["list", "."], in: folder)
        XCTAssertFalse(list.stdout.contains("com.acme.billing"), list.stdout)
        XCTAssertEqual(try unresolved().map { String($0.prefix { $0 != ":" }) }, ["Invoices/Info.plist"])
        // Its own written-out ID is: no finding, and the prefix rules run with it.
        try app("Invoices/Info.plist", id: "com.acme.invoices")
        try write("Invoices/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro", "com.acme.invoice.coins"]))
        let validate = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertTrue(validate.stdout.contains("'com.acme.invoice.coins' does not start with the bundle ID 'com.acme.invoices.'"), validate.stdout)
        XCTAssertFalse(validate.stdout.contains("unresolved-bundle-id"), validate.stdout)
    }

    func testTwoAppsEachWithItsCatalogInItsFolder() throws {
        try app("Billing/Info.plist", id: "com.acme.billing")
        try app("Invoices/Info.plist", id: "com.acme.invoices")
        try write("Invoices/Store/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro"]))
        let list = try IAPRunner.run(["list", "--verbose", "."], in: folder)
        XCTAssertTrue(list.stdout.contains("bundle ID com.acme.invoices from Invoices/Info.plist:6:2\n"), list.stdout)
    }

    /// The app's written-out bundle ID beside its Store folder: the folder init lists reads it again.
    func testInitListsAFolderWhoseWalkKeepsTheBundleID() throws {
        try app("Billing/Info.plist")
        try app("Invoices/Info.plist", id: "com.acme.invoices")
        try write("Invoices/Store/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro", "com.acme.invoice.coins"]))
        XCTAssertEqual(try IAPRunner.run(["init"], in: folder).status, 0)
        let config = try String(contentsOf: folder.appendingPathComponent("iap.yml"), encoding: .utf8)
        XCTAssertTrue(config.contains("catalogs:\n  - .\n"), config)
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertTrue(check.stdout.contains("'com.acme.invoice.coins' does not start with the bundle ID 'com.acme.invoices.'"), check.stdout)
    }

    func testAProjectSpecKeepsTheRootOneCatalogAndItsTargetsNameTheApp() throws {
        try write("project.yml", """
        name: Apps
        targets:
          Billing:
            type: application
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.acme.billing
          Invoices:
            type: application
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.acme.invoices
        """)
        try app("Billing/Info.plist")
        try app("Invoices/Info.plist")
        try write("Invoices/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro"]))
        let list = try IAPRunner.run(["list", "."], in: folder)
        XCTAssertTrue(list.stdout.hasPrefix(".: 1 product, bundle ID com.acme.invoices\n"), list.stdout)
        XCTAssertEqual(try unresolved(), [])
    }

    func testAnInfoPlistNamedOnTheCommandLineIsTakenAsTheUserSays() throws {
        try app("Billing/Info.plist", id: "com.acme.billing")
        try app("Invoices/Info.plist", id: "com.acme.invoices")
        try write("Invoices/IAP_ProductIDs.plist", ids(["com.acme.invoices.pro"]))
        let named = try IAPRunner.run(["list", "--verbose", "Invoices/IAP_ProductIDs.plist", "Billing/Info.plist"], in: folder)
        XCTAssertTrue(named.stdout.contains("bundle ID com.acme.billing from Billing/Info.plist:6:2\n"), named.stdout)
    }
}
