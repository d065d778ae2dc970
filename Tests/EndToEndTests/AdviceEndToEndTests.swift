import Foundation
import TestSupport
import XCTest

/// Advice that is right: every hint names what to do, on the right line, with the catalog's own
/// prefix; SARIF fixes are exact edits; amounts and order stay as written; a conversion keeps the
/// storefront it came from.
final class AdviceEndToEndTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-advice" }

    func read(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    func testATypoInThePrefixIsToldTheCatalogsOwnPrefixAndSARIFHasNoFixForIt() throws {
        try write("IAP_ProductIDs.plist", AppRepository.plist("""
        <array>
        \t<string>com.newcomer.myapp.coins</string>
        \t<string>com.newcomr.myapp.gems</string>
        </array>
        """))
        let text = try IAPRunner.run(["validate", "IAP_ProductIDs.plist", "--bundle-id", "com.newcomer.myapp"], in: folder)
        XCTAssertTrue(text.stdout.contains("""
        IAP_ProductIDs.plist:6:2: warning: product ID 'com.newcomr.myapp.gems' does not start with the bundle ID 'com.newcomer.myapp.' [missing-bundle-prefix]
        --bundle-id: note: bundle ID from here
        IAP_ProductIDs.plist:6:2: note: fix: use 'com.newcomer.myapp.gems' for new products (existing IDs cannot be renamed)
        """), text.stdout)
        // Renaming an existing product is advice for a person, not an edit a tool may apply.
        let sarif = try IAPRunner.run(["validate", "IAP_ProductIDs.plist", "--bundle-id", "com.newcomer.myapp", "--format", "sarif"], in: folder)
        XCTAssertFalse(sarif.stdout.contains("\"fixes\""), sarif.stdout)
    }

    func testTheSARIFFixOfAnUnknownKeyIsAnExactEdit() throws {
        let metadata = AppRepository.plist("""
        <dict>
        \t<key>IAPCatalogMetadata</key>
        \t<integer>1</integer>
        \t<key>products</key>
        \t<dict>
        \t\t<key>com.acme.app.coins</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>consumable</string>
        \t\t\t<key>familyShareble</key>
        \t\t\t<true/>
        \t\t</dict>
        \t</dict>
        </dict>
        """)
        try write("Metadata.plist", metadata)
        let sarif = try IAPRunner.run(["validate", "Metadata.plist", "--format", "sarif"], in: folder)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(((json["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let fixed = try XCTUnwrap(results.first { $0["ruleId"] as? String == "unknown-metadata-key" })
        let change = try XCTUnwrap((fixed["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])
        let replacement = try XCTUnwrap((change.first?["replacements"] as? [[String: Any]])?.first)
        let region = try XCTUnwrap(replacement["deletedRegion"] as? [String: Int])
        XCTAssertEqual(region, ["startLine": 13, "endLine": 13, "startColumn": 9, "endColumn": 23])
        XCTAssertEqual((replacement["insertedContent"] as? [String: String])?["text"], "familyShareable")
        // Applied as SARIF says (columns are characters, the end exclusive), the file is fixed.
        var lines = metadata.components(separatedBy: "\n")
        var line = Array(lines[12])
        line.replaceSubrange(8..<22, with: Array("familyShareable"))
        lines[12] = String(line)
        try write("Metadata.plist", lines.joined(separator: "\n"))
        let again = try IAPRunner.run(["validate", "Metadata.plist"], in: folder)
        XCTAssertFalse(again.stdout.contains("unknown-metadata-key"), again.stdout)
        // Every result's fixes, in every catalog of the repository, replace text: none only deletes.
        let broken = try IAPRunner.run(["validate", "catalogs/broken", "--format", "sarif"])
        for result in try XCTUnwrap(((JSONSerialization.jsonObject(with: Data(broken.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])?
            .first?["results"] as? [[String: Any]]) {
            for fix in result["fixes"] as? [[String: Any]] ?? [] {
                for change in fix["artifactChanges"] as? [[String: Any]] ?? [] {
                    for replacement in change["replacements"] as? [[String: Any]] ?? [] {
                        XCTAssertNotNil(replacement["insertedContent"], "\(result)")
                        XCTAssertNotNil((replacement["deletedRegion"] as? [String: Any])?["endColumn"], "\(result)")
                    }
                }
            }
        }
    }

    func testTheProjectLineOfTheBundleIDIsExactAfterEscapedNewlinesInScripts() throws {
        try write("App.xcodeproj/project.pbxproj", """
        // !$*UTF8*$!
        {
        \tobjects = {
        \t\tS1 = {
        \t\t\tisa = PBXShellScriptBuildPhase;
        \t\t\tshellScript = "set -e\\nif [ -n \\"$CI\\" ]; then\\n  echo ci\\nfi\\nswiftlint\\n";
        \t\t};
        \t\tA1 = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = L1;
        \t\t\tname = App;
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
        \t\tC1 = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.acme.app;
        \t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t};
        \trootObject = A1;
        }
        """)
        try write("App/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.app.coins</string>\n</array>"))
        let result = try IAPRunner.run(["list", "--verbose", "."], in: folder)
        XCTAssertTrue(result.stdout.contains("bundle ID com.acme.app from ./App.xcodeproj/project.pbxproj:18\n")
                      || result.stdout.contains("bundle ID com.acme.app from App.xcodeproj/project.pbxproj:18\n"), result.stdout)
    }

    func testAllMissingFieldsAreListedAtOnceAndTheAdviceWorksWithoutAMetadataFile() throws {
        try write("Store/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.app.coins</string>\n</array>"))
        try write("Store/Metadata.plist", AppRepository.plist("""
        <dict>
        \t<key>IAPCatalogMetadata</key>
        \t<integer>1</integer>
        \t<key>products</key>
        \t<dict>
        \t\t<key>com.acme.app.monthly</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>auto-renewable</string>
        \t\t</dict>
        \t</dict>
        </dict>
        """))
        let both = try IAPRunner.run(["storekit", "Store", "-o", "Store.storekit"], in: folder)
        XCTAssertEqual(both.status, 1)
        XCTAssertEqual(both.stdout + both.stderr, """
        Store/IAP_ProductIDs.plist:5:2: error: 'com.acme.app.coins' has no price, and a StoreKit configuration for USA needs its price in USD [storekit-missing-field]
        Store/IAP_ProductIDs.plist:5:2: note: fix: describe it in Store/Metadata.plist with <key>price</key> and <key>currency</key> (USD)
        Store/Metadata.plist:9:3: error: 'com.acme.app.monthly' has no price in USD, subscription group and period: a StoreKit configuration for USA needs each [storekit-missing-field]
        Store/Metadata.plist:9:3: note: fix: add <key>price</key>, <key>currency</key>, <key>subscriptionGroup</key> and <key>subscriptionPeriod</key> to its metadata
        iap: error: Store.storekit not written: 2 products lack what the file needs (above)

        """)
        // With no metadata file, the advice says how to make one, and that command works as printed.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Store/Metadata.plist"))
        let none = try IAPRunner.run(["storekit", "Store/IAP_ProductIDs.plist", "-o", "Store.storekit"], in: folder)
        XCTAssertTrue((none.stdout + none.stderr).contains("""
        note: fix: no metadata plist describes it: write one with `iap convert Store/IAP_ProductIDs.plist -o Metadata.plist`, then add <key>price</key> and <key>currency</key> to its entry
        """), none.stdout + none.stderr)
        let hint = try IAPRunner.run(["convert", "Store/IAP_ProductIDs.plist", "-o", "Metadata.plist"], in: folder)
        XCTAssertEqual(hint.status, 0, hint.stderr)
        XCTAssertTrue(try read("Metadata.plist").contains("<key>com.acme.app.coins</key>"))
    }

    func testAmountsStayAsWrittenAndStoreKitProductsKeepFileOrder() throws {
        try write("Shop.storekit", """
        {
          "nonRenewingSubscriptions" : [
            { "displayPrice" : "9.90", "familyShareable" : false, "localizations" : [], "productID" : "com.acme.app.season", "referenceName" : "Season", "type" : "NonRenewable" }
          ],
          "products" : [
            { "displayPrice" : "3.00", "familyShareable" : false, "localizations" : [], "productID" : "com.acme.app.coins", "referenceName" : "Coins", "type" : "Consumable" }
          ],
          "settings" : { },
          "subscriptionGroups" : [
            { "id" : "1", "localizations" : [], "name" : "Club", "subscriptions" : [
              { "displayPrice" : "4.50", "familyShareable" : false, "groupNumber" : 1, "localizations" : [], "productID" : "com.acme.app.club",
                "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Club", "subscriptionGroupID" : "1", "type" : "RecurringSubscription" }
            ] }
          ],
          "version" : { "major" : 3, "minor" : 0 }
        }
        """)
        let list = try IAPRunner.run(["list", "Shop.storekit"], in: folder)
        let rows = list.stdout.split(separator: "\n").dropFirst(2).map { row in
            (row.split(separator: " ").first.map(String.init) ?? "", row.contains("9.90 USD") || row.contains("3.00 USD") || row.contains("4.50 USD"))
        }
        XCTAssertEqual(rows.map(\.0), ["com.acme.app.season", "com.acme.app.coins", "com.acme.app.club"], list.stdout)
        XCTAssertEqual(rows.map(\.1), [true, true, true], list.stdout)
    }

    func testConvertKeepsTheStorefrontSoTheRoundTripNeedsNoFlag() throws {
        try write("France.storekit", """
        {
          "products" : [
            { "displayPrice" : "4.99", "familyShareable" : true, "localizations" : [ { "description" : "Tout débloquer", "displayName" : "Premium", "locale" : "fr" } ],
              "productID" : "com.acme.app.premium", "referenceName" : "Premium", "type" : "NonConsumable" }
          ],
          "settings" : { "_locale" : "fr", "_storefront" : "FRA" },
          "version" : { "major" : 4, "minor" : 0 }
        }
        """)
        XCTAssertEqual(try IAPRunner.run(["convert", "France.storekit", "-o", "Direct.storekit"], in: folder).status, 0)
        XCTAssertEqual(try IAPRunner.run(["convert", "France.storekit", "-o", "Metadata.plist"], in: folder).status, 0)
        XCTAssertTrue(try read("Metadata.plist").contains("\t<key>storefront</key>\n\t<string>FRA</string>\n\t<key>locale</key>\n\t<string>fr</string>\n"))
        let back = try IAPRunner.run(["convert", "Metadata.plist", "-o", "Back.storekit"], in: folder)
        XCTAssertEqual(back.status, 0, back.stdout + back.stderr)
        XCTAssertEqual(try read("Back.storekit"), try read("Direct.storekit"))
        XCTAssertTrue(try read("Back.storekit").contains("\"_storefront\" : \"FRA\""))
    }

    func testWhatASyncedConfigurationHoldsIsInfoForAppStoreConnectsLimits() throws {
        func configuration(synced: Bool) -> String {
            """
            {
              "products" : [
                { "displayPrice" : "0.99", "familyShareable" : false,
                  "localizations" : [ { "description" : "Forty-two thousand coins to spend on anything in the shop", "displayName" : "Coins", "locale" : "en_US" } ],
                  "productID" : "com.acme.app.coins", "referenceName" : "Coins", "type" : "Consumable" }
              ],
              "settings" : { \(synced ? "\"_applicationInternalID\" : \"6670000001\", \"_developerTeamID\" : \"Q4P7J2K9X3\", \"_lastSynchronizedDate\" : 748108800.0," : "") "_storefront" : "USA" },
              "version" : { "major" : 4, "minor" : 0 }
            }
            """
        }
        try write("Local.storekit", configuration(synced: false))
        try write("Synced/Synced.storekit", configuration(synced: true))
        let local = try IAPRunner.run(["validate", "Local.storekit"], in: folder)
        XCTAssertEqual(local.stdout + local.stderr, """
        Local.storekit:5:7: warning: description of 'com.acme.app.coins' (en_US) is 57 characters; the limit is 55 [description-too-long]
        1 file checked: 0 errors, 1 warning, 0 infos, 1 product in 1 catalog

        """)
        let synced = try IAPRunner.run(["validate", "Synced"], in: folder)
        XCTAssertEqual(synced.status, 0)
        XCTAssertEqual(synced.stdout + synced.stderr, """
        Synced/Synced.storekit:5:7: info: description of 'com.acme.app.coins' (en_US) is 57 characters; the limit is 55 (info: this file is synced from App Store Connect, which already holds it; the limit applies when it is next edited there) [description-too-long]
        1 file checked: 0 errors, 0 warnings, 1 info, 1 product in 1 catalog

        """)
    }

    /// Issue 33, class 2: a hand-made configuration that copies Xcode's sync keys with empty
    /// values is not synced, so App Store Connect's limits stay warnings there; a value Xcode
    /// could have written (an Apple ID, a sync time) still makes them info.
    func testSyncKeysCopiedByHandDoNotMakeAFileSynced() throws {
        func configuration(_ settings: String, internalID: String = "6449834501") -> String {
            """
            {
              "products" : [
                { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "\(internalID)",
                  "localizations" : [ { "description" : "Forty-two thousand coins to spend on anything in the shop", "displayName" : "Coins", "locale" : "en_US" } ],
                  "productID" : "com.acme.app.coins", "referenceName" : "Coins", "type" : "Consumable" }
              ],
              "settings" : { \(settings) "_storefront" : "USA" },
              "version" : { "major" : 4, "minor" : 0 }
            }
            """
        }
        let team = #""_developerTeamID" : "Q4P7J2K9X3","#
        let handMade = [
            configuration(#""_applicationInternalID" : "0", "_developerTeamID" : "", "_lastSynchronizedDate" : 0,"#),
            configuration(#""_lastSynchronizedDate" : 0.0, "_applicationInternalID" : "","# + team),
            configuration(#""_applicationInternalID" : 0,"# + team),
            configuration(#""_applicationInternalID" : "000000000", "_lastSynchronizedDate" : 785350347.1,"# + team),
            configuration(#""_applicationInternalID" : "com.acme.app","# + team),
            configuration(#""_applicationInternalID" : null, "_lastSynchronizedDate" : null,"# + team),
            // A real-looking app ID, but no team, or a placeholder team.
            configuration(#""_applicationInternalID" : "6738294651", "_developerTeamID" : "", "_lastSynchronizedDate" : 765568800.0,"#),
            configuration(#""_applicationInternalID" : "6670000001", "_developerTeamID" : "YOUR_TEAM_ID","#),
            configuration(#""_applicationInternalID" : "6670000001", "_developerTeamID" : "XXXXXXXXXX","#),
            // Everything of a synced file but the products' internal IDs, which are not Apple IDs.
            configuration(#""_applicationInternalID" : "6756026297","# + team, internalID: "tokens_10_id"),
            configuration(#""_applicationInternalID" : "6740891373","# + team, internalID: "A1B2C3D4-0001-4000-8000-000000000001"),
        ]
        let synced = [
            configuration(#""_applicationInternalID" : "1471370542", "_lastSynchronizedDate" : 723155400.53541505,"# + team),
            configuration(#""_applicationInternalID" : 1471370542,"# + team),
            configuration(#""_applicationInternalID" : "6737178871", "_developerTeamID" : "A72HB5582T","#),
        ]
        for (n, text) in (handMade + synced).enumerated() {
            try write("Case\(n)/Store.storekit", text)
            let run = try IAPRunner.run(["validate", "Case\(n)"], in: folder)
            XCTAssertEqual(run.status, 0, text)
            let line = n < handMade.count
                ? "Case\(n)/Store.storekit:5:7: warning: description of 'com.acme.app.coins' (en_US) is 57 characters; the limit is 55 [description-too-long]"
                : "Case\(n)/Store.storekit:5:7: info: description of 'com.acme.app.coins' (en_US) is 57 characters; the limit is 55 (info: this file is synced from App Store Connect, which already holds it; the limit applies when it is next edited there) [description-too-long]"
            XCTAssertEqual(run.stdout.components(separatedBy: "\n").first, line, text)
        }
    }

    func testAnIDMissingFromALocalStoreKitConfigurationIsAWarningAndFromAnIDListAnError() throws {
        try write("App/Products.storekit", AppRepository.storeKit([("com.acme.app.gold", "Gold")]))
        try write("App/Store.swift", """
        import StoreKit
        func load() async throws {
            _ = try await Product.products(for: ["com.acme.app.gold", "com.acme.app.bronze"])
        }
        """)
        let local = try IAPRunner.run(["lint", "App"], in: folder)
        XCTAssertEqual(local.status, 0, local.stdout + local.stderr)
        XCTAssertTrue(local.stdout.contains("""
        App/Store.swift:3:63: warning: 'com.acme.app.bronze' is used as a product ID but is not in the catalog (a warning: the catalog is a local StoreKit configuration, which may leave out products App Store Connect still has) [unknown-product-id]
        """), local.stdout)
        // The app's own ID list says what it sells: missing from it, the ID is an error.
        try write("App/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.app.gold</string>\n</array>"))
        let listed = try IAPRunner.run(["lint", "App"], in: folder)
        XCTAssertEqual(listed.status, 1)
        XCTAssertTrue(listed.stdout.contains("App/Store.swift:3:63: error: 'com.acme.app.bronze' is used as a product ID but is not in the catalog [unknown-product-id]"),
                      listed.stdout)
    }

    func testAWalkThatFindsTheAppsCatalogLeavesTestConfigurationsOut() throws {
        try write("App/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.app.gold</string>\n</array>"))
        // A UI-test configuration whose two products share a reference name: an error App Store
        // Connect would give, in fixtures nobody ships.
        try write("Tests/UITests/Fixture.storekit", AppRepository.storeKit([("test.one", "Same"), ("test.two", "Same")]))
        let walk = try IAPRunner.run(["validate", "--verbose", "."], in: folder)
        XCTAssertEqual(walk.status, 0, walk.stdout)
        XCTAssertTrue(walk.stderr.contains("iap: passed over Tests/UITests/Fixture.storekit: a test configuration (under a Tests folder): fixtures, not the app's catalog; name it to check it"),
                      walk.stderr)
        XCTAssertFalse(walk.stdout.contains("duplicate-reference-name"))
        // Named, it is checked; and when test configurations are all a walk finds, they are too.
        XCTAssertEqual(try IAPRunner.run(["validate", "Tests/UITests/Fixture.storekit"], in: folder).status, 1)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("App"))
        XCTAssertEqual(try IAPRunner.run(["validate", "."], in: folder).status, 1)
    }

    func testBundleIDsOfXcodeGenAndTuistSpecsAreRead() throws {
        let info = AppRepository.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t<key>CFBundlePackageType</key>\n\t<string>APPL</string>\n</dict>")
        // XcodeGen: one app with its ID written out, one from bundleIdPrefix and its target's name (in an included file).
        try write("Gen/project.yml", """
        name: Gen
        include:
          - path: targets.yml
        options:
          bundleIdPrefix: com.acme
        targets:
          Writer:
            type: application
            platform: iOS
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: "com.acme.writer" # the app
          WriterWidget:
            type: app-extension
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.acme.writer.widget
        """)
        try write("Gen/targets.yml", "targets:\n  Reader:\n    type: application\n    platform: iOS\n")
        try write("Gen/Writer/Info.plist", info)
        try write("Gen/Writer/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.writer.pro</string>\n</array>"))
        // Tuist: read as text, never run.
        try write("Tuist/Project.swift", """
        import ProjectDescription
        let project = Project(name: "Shop", targets: [
            .target(name: "Shop", destinations: .iOS, product: .app, bundleId: "com.acme.shop", infoPlist: .file(path: "Info.plist")),
            .target(name: "ShopTests", destinations: .iOS, product: .unitTests, bundleId: "com.acme.shop.tests"),
        ])
        """)
        try write("Tuist/Info.plist", info)
        try write("Tuist/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.shop.coins</string>\n</array>"))
        let result = try IAPRunner.run(["list", "--verbose", "."], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("Gen: 1 product, bundle ID com.acme.writer\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("bundle ID com.acme.writer from Gen/project.yml:12\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Tuist: 1 product, bundle ID com.acme.shop\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("bundle ID com.acme.shop from Tuist/Project.swift:3\n"), result.stdout)
        let validate = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertFalse((validate.stdout + validate.stderr).contains("unresolved-bundle-id"), validate.stdout)
        // bundleIdPrefix + the target's name, from the included file.
        try write("Gen/Writer/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.Reader.pro</string>\n</array>"))
        XCTAssertTrue(try IAPRunner.run(["list", "--verbose", "Gen"], in: folder).stdout.contains("bundle ID com.acme.Reader from Gen/targets.yml:2\n"))
    }

    func testTwoAppsSyncedFromAppStoreConnectAreTwoCatalogsWalkedOrNamed() throws {
        try write("project.yml", """
        name: Two
        targets:
          One:
            type: application
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.acme.one
          Two:
            type: application
            settings:
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.acme.two
        """)
        for (folder, app, id) in [("AppOne", "6670000001", "com.acme.one.pro"), ("AppTwo", "6670000002", "com.acme.two.pro")] {
            // The same reference name in both apps: fine, App Store Connect scopes it per app.
            try write("\(folder)/Products.storekit", AppRepository.storeKit([(id, "Pro")])
                .replacingOccurrences(of: "\"settings\" : {", with: "\"settings\" : { \"_applicationInternalID\" : \"\(app)\","))
            try write("\(folder)/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>\(id)</string>\n</array>"))
        }
        let walked = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(walked.status, 0, walked.stdout)
        XCTAssertEqual(walked.stdout + walked.stderr, "4 files checked: 0 errors, 0 warnings, 0 infos, 2 products in 2 catalogs\n")
        let list = try IAPRunner.run(["list", "."], in: folder).stdout
        XCTAssertTrue(list.contains("AppOne: 1 product, bundle ID com.acme.one\n") && list.contains("AppTwo: 1 product, bundle ID com.acme.two\n"), list)
        let named = try IAPRunner.run(["validate", "AppOne/Products.storekit", "AppTwo/Products.storekit"], in: folder)
        XCTAssertEqual(named.stdout + named.stderr, "2 files checked: 0 errors, 0 warnings, 0 infos, 2 products in 2 catalogs\n")
        // A command that needs one catalog says there are two, instead of merging them.
        let storekit = try IAPRunner.run(["storekit", ".", "-o", "Both.storekit"], in: folder)
        XCTAssertNotEqual(storekit.status, 0)
        XCTAssertTrue(storekit.stderr.contains("holds 2 catalogs"), storekit.stderr)
    }

    func testTwoAppsSyncedIntoOneFolderAreTwoCatalogsAndInitWritesAPathCheckReads() throws {
        for (name, app, id) in [("One", "6670000001", "com.acme.one.pro"), ("Two", "6670000002", "com.acme.two.pro")] {
            try write("Store/\(name).storekit", AppRepository.storeKit([(id, "Pro")])
                .replacingOccurrences(of: "\"settings\" : {", with: "\"settings\" : { \"_applicationInternalID\" : \"\(app)\","))
        }
        XCTAssertEqual(try IAPRunner.run(["init"], in: folder).status, 0)
        let config = try read("iap.yml")
        XCTAssertTrue(config.contains("catalogs:\n  - Store\n"), config)
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stderr.contains("2 products in 2 catalogs"), check.stderr)
    }

    func testAnEmptyStoreKitFileAWalkMeetsIsJunkAndNamedIsAnError() throws {
        try write("Configuration.storekit", "")
        try write("storekit-config/USConfig.storekit", AppRepository.storeKit([("tip_1", "Tip")]))
        let walk = try IAPRunner.run(["validate", "--verbose", "."], in: folder)
        XCTAssertEqual(walk.status, 0, walk.stdout + walk.stderr)
        XCTAssertTrue(walk.stderr.contains("iap: passed over Configuration.storekit: an empty file: no StoreKit configuration (Xcode never writes one empty; delete it, or name it to check it)"),
                      walk.stderr)
        let named = try IAPRunner.run(["validate", "Configuration.storekit"], in: folder)
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stdout.contains("[malformed-catalog]"), named.stdout)
    }

    func testEveryCorpusStoreKitFileSurvivesTheRoundTrip() throws {
        let corpus = IAPRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/storekit")
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: corpus.path).filter({ $0.hasSuffix(".storekit") }).sorted(),
              !files.isEmpty else {
            print("AdviceEndToEndTests: ../shared/corpus/storekit is absent; the corpus round trip is skipped")
            return
        }
        var identical = 0
        for file in files {
            let source = corpus.appendingPathComponent(file).path
            _ = try IAPRunner.run(["convert", source, "-o", "Direct.storekit"], in: folder)
            _ = try IAPRunner.run(["convert", source, "-o", "Metadata.plist"], in: folder)
            let back = try IAPRunner.run(["convert", "Metadata.plist", "-o", "Back.storekit"], in: folder)
            if back.status == 0, try read("Back.storekit") == read("Direct.storekit") { identical += 1 } else { XCTFail("\(file): \(back.stdout)") }
        }
        XCTAssertEqual(identical, files.count)
    }
}
