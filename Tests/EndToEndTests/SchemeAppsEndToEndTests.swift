import Foundation
import TestSupport
import XCTest

/// Two apps of one Xcode project (a free and a pro app), each run by its shared scheme with its own
/// `.storekit` file that App Store Connect did not sync: the schemes tell the apps apart, so they
/// are two catalogs, each with its own bundle ID, and neither reports the other's names.
final class SchemeAppsEndToEndTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-schemes" }

    /// One project, two application targets with their own bundle IDs (lines 22 and 29).
    static let project = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjects = {
    \t\tA10000000000000000000001 /* Cards Free */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = B10000000000000000000001;
    \t\t\tname = "Cards Free";
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tA10000000000000000000002 /* Cards Pro */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = B10000000000000000000002;
    \t\t\tname = "Cards Pro";
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tB10000000000000000000001 = {isa = XCConfigurationList; buildConfigurations = (C10000000000000000000001, ); };
    \t\tB10000000000000000000002 = {isa = XCConfigurationList; buildConfigurations = (C10000000000000000000002, ); };
    \t\tC10000000000000000000001 = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.acme.cards.free;
    \t\t\t};
    \t\t\tname = Release;
    \t\t};
    \t\tC10000000000000000000002 = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.acme.cards.pro;
    \t\t\t};
    \t\t\tname = Release;
    \t\t};
    \t};
    }
    """

    /// A shared scheme whose Run action launches `target` with the StoreKit configuration at `path`.
    static func scheme(_ name: String, target: String, storeKit path: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme
           LastUpgradeVersion = "1600"
           version = "1.7">
           <LaunchAction
              buildConfiguration = "Debug">
              <BuildableProductRunnable
                 runnableDebuggingMode = "0">
                 <BuildableReference
                    BuildableIdentifier = "primary"
                    BlueprintIdentifier = "\(target)"
                    BuildableName = "\(name).app"
                    BlueprintName = "\(name)"
                    ReferencedContainer = "container:Cards.xcodeproj">
                 </BuildableReference>
              </BuildableProductRunnable>
              <StoreKitConfigurationFileReference
                 identifier = "\(path)">
              </StoreKitConfigurationFileReference>
           </LaunchAction>
        </Scheme>

        """
    }

    func writeRepository() throws {
        try write("Cards.xcodeproj/project.pbxproj", Self.project)
        let schemes = "Cards.xcodeproj/xcshareddata/xcschemes/"
        // Saved from the project itself (`../../` reaches its folder) and from the workspace beside it (`../`).
        try write(schemes + "Cards Free.xcscheme", Self.scheme("Cards Free", target: "A10000000000000000000001", storeKit: "../../Free/Free.storekit"))
        try write(schemes + "Cards Pro.xcscheme", Self.scheme("Cards Pro", target: "A10000000000000000000002", storeKit: "../Pro/Pro.storekit"))
        try write(schemes + "Broken.xcscheme", "<Scheme>\n   <LaunchAction\n")
        try write("Cards.xcworkspace/contents.xcworkspacedata", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n"
            + "   <FileRef location = \"group:Cards.xcodeproj\"></FileRef>\n</Workspace>\n")
        // Not synced from App Store Connect; one reference name in both apps, which is fine.
        try write("Free/Free.storekit", AppRepository.storeKit([("free.coins", "Coins")]))
        try write("Pro/Pro.storekit", AppRepository.storeKit([("pro.coins", "Coins")]))
        // Named by no scheme: joins the app whose file is nearest.
        try write("Pro/ProductIDs.plist", AppRepository.plist("<array>\n\t<string>pro.coins</string>\n</array>"))
    }

    func testTwoAppTargetsRunWithTheirOwnStoreKitFilesAreTwoCatalogsEachWithItsBundleID() throws {
        try writeRepository()
        let walked = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(walked.status, 0, walked.stdout + walked.stderr)
        // No duplicate reference name across the apps, and each product ID is measured against its own app's bundle ID.
        XCTAssertEqual(walked.stdout, """
        Free/Free.storekit:13:7: info: the only product ID, 'free.coins', does not start with the bundle ID 'com.acme.cards.free.'; existing IDs cannot be renamed, but new ones are safest under the bundle ID, e.g. 'com.acme.cards.free.free.coins' [bundle-prefix-convention]
        Cards.xcodeproj/project.pbxproj:22: note: bundle ID from here
        Pro/ProductIDs.plist:5:2: info: the only product ID, 'pro.coins', does not start with the bundle ID 'com.acme.cards.pro.'; existing IDs cannot be renamed, but new ones are safest under the bundle ID, e.g. 'com.acme.cards.pro.pro.coins' [bundle-prefix-convention]
        Cards.xcodeproj/project.pbxproj:29: note: bundle ID from here

        """)
        XCTAssertEqual(walked.stderr, "3 files checked: 0 errors, 0 warnings, 2 infos, 2 products in 2 catalogs\n")
        let list = try IAPRunner.run(["list", "."], in: folder).stdout
        XCTAssertTrue(list.hasPrefix("Free: 1 product, bundle ID com.acme.cards.free\n"), list)
        XCTAssertTrue(list.contains("\nPro: 1 product, bundle ID com.acme.cards.pro\n"), list)
        // The scheme that does not parse is passed over, and --verbose says so.
        let verbose = try IAPRunner.run(["validate", "--verbose", "."], in: folder)
        XCTAssertEqual(verbose.status, 0)
        XCTAssertTrue(verbose.stderr.contains("iap: passed over Cards.xcodeproj/xcshareddata/xcschemes/Broken.xcscheme: a shared scheme that does not "
                + "parse (the tag <LaunchAction> is not closed, at byte 26): the StoreKit configuration it runs with is not known\n"), verbose.stderr)
    }

    func testWithoutSchemesTheAppRootIsOneCatalogAsBefore() throws {
        try writeRepository()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Cards.xcodeproj/xcshareddata"))
        let walked = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(walked.status, 1, walked.stdout + walked.stderr)
        XCTAssertTrue(walked.stdout.hasPrefix("Free/Free.storekit:13:7: error: reference name 'Coins' of 'free.coins' is already used by 'pro.coins' [duplicate-reference-name]\n"),
                      walked.stdout)
        XCTAssertEqual(walked.stderr, "3 files checked: 1 error, 1 warning, 1 info, 2 products in 1 catalog\n")
    }

    func testReadinessStoreKitColumnReadsTheConfigurationTheSchemeRuns() throws {
        try write("Cards.xcodeproj/project.pbxproj", Self.project)
        try write("Cards.xcodeproj/xcshareddata/xcschemes/Cards Pro.xcscheme",
                  Self.scheme("Cards Pro", target: "A10000000000000000000002", storeKit: "../../Pro/Pro.storekit"))
        // The scheme runs Pro.storekit; Dev.storekit (named by no scheme) has one product more.
        try write("Pro/Pro.storekit", AppRepository.storeKit([("pro.coins", "Coins")]))
        try write("Pro/Dev.storekit", AppRepository.storeKit([("pro.coins", "Coins"), ("pro.gems", "Gems")]))
        try write("Pro/ProductIDs.plist", AppRepository.plist("<array>\n\t<string>pro.coins</string>\n\t<string>pro.gems</string>\n</array>"))
        func product(_ id: String, _ n: Int) -> String {
            #"{"id":"645000000\#(n)","localizations":[{"locale":"en-US","name":"\#(id)"}],"productId":"\#(id)","state":"APPROVED","type":"CONSUMABLE"}"#
        }
        try write("asc.json", #"{"app":{"bundleId":"com.acme.cards.pro","id":"6450000000","name":"Cards"},"format":"iap-asc-snapshot","inAppPurchases":["#
                  + product("pro.coins", 1) + "," + product("pro.gems", 2) + #"],"subscriptionGroups":[],"version":1}"# + "\n")
        try write("App/Store.swift", "\n")
        let result = try IAPRunner.run(["asc", "ready", "--snapshot", "asc.json", "--sources", "App"], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, """
            PRODUCT    ASKED BY                STOREKIT  SANDBOX  APP STORE
            pro.coins  Pro/ProductIDs.plist:5  yes       yes      yes
            pro.gems   Pro/ProductIDs.plist:6  no        yes      yes

            """)
        XCTAssertTrue(result.stderr.hasPrefix("iap: 'pro.gems' is not served in StoreKit: not in the StoreKit configuration the scheme runs (Pro.storekit)\n"),
                      result.stderr)
        // Without the scheme, every .storekit file of the catalog is what StoreKit testing may read.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Cards.xcodeproj/xcshareddata"))
        let unnamed = try IAPRunner.run(["asc", "ready", "--snapshot", "asc.json", "--sources", "App"], in: folder)
        XCTAssertEqual(unnamed.status, 0, unnamed.stdout + unnamed.stderr)
        XCTAssertTrue(unnamed.stdout.contains("pro.gems   Pro/ProductIDs.plist:6  yes       yes      yes\n"), unnamed.stdout)
    }
}
