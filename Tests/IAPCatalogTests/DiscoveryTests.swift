import Diagnostics
import Foundation
import PropertyList
import XCTest
@testable import IAPCatalog

/// The pieces of catalog discovery: reading Xcode projects and `.xcconfig` files, evaluating
/// preprocessed `Info.plist` files, and what a walk takes for a catalog.
final class DiscoveryTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-discovery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A plain list of IDs is read without a tree: the occurrences, their places and the secret
    /// scan are the same as a tree gives (a list that holds one dict is read as a tree).
    func testAPlainIDListIsLoadedWithTheSamePlacesAndChecksAsATree() throws {
        let key = "-----BEGIN PRIVATE KEY-----MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg-----END PRIVATE KEY-----"
        let plain = try write("plain/IAP_ProductIDs.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <array>
        \t<string>com.acme.app.coins</string>
        \t<string>\(key)</string>
        </array>
        </plist>
        """)
        let catalog = CatalogLoader(bundleIDOverride: "com.acme.app").loadCatalog(name: "plain", paths: [plain], explicit: [plain])
        XCTAssertEqual(catalog.files.map(\.content), [.productList(.arrayOfIDs)])
        XCTAssertEqual(catalog.products.map(\.id), ["com.acme.app.coins", key])
        XCTAssertEqual(catalog.products.map(\.location.description), ["\(plain):4:2", "\(plain):5:2"])
        XCTAssertEqual(catalog.loadDiagnostics.map(\.ruleID), ["committed-secret"])
        XCTAssertEqual(catalog.loadDiagnostics.map(\.location.description), ["\(plain):5:2"])
    }

    func testOpenStepParserReadsProjectSyntax() throws {
        let text = """
        // !$*UTF8*$!
        {
        \tobjects = {
        \t\tAB12 /* a comment */ = {isa = PBXNativeTarget; name = "My \\"App\\""; list = (X, "Y z", ); };
        \t};
        \trootObject = AB12;
        }
        """
        let root = try XCTUnwrap(OpenStepParser.parse(Array(text.utf8)))
        let target = try XCTUnwrap(root["objects"]?["AB12"])
        XCTAssertEqual(target["isa"]?.string, "PBXNativeTarget")
        XCTAssertEqual(target["name"]?.string, "My \"App\"")
        XCTAssertEqual(target["name"]?.line, 4)
        XCTAssertEqual(target["list"]?.array?.compactMap(\.string), ["X", "Y z"])
        XCTAssertEqual(root["rootObject"]?.string, "AB12")
        // Broken input is nil, never a crash or a hang.
        for broken in ["{", "{ a = ", "{ a = (b, ; }", "(", "\"open", "{ a = b }", String(repeating: "(", count: 10_000)] {
            XCTAssertNil(OpenStepParser.parse(Array(broken.utf8)), broken.prefix(20).description)
        }
    }

    func testBuildSettingsExpandVariablesAndPreferTheReleaseValue() throws {
        let release = try write("Release.xcconfig", "#include \"Base.xcconfig\"\nROOT = com.acme.app // the App Store ID\nAPP_ID = $(ROOT)\n")
        let beta = try write("Beta.xcconfig", "ROOT = com.acme.app.beta\nNAME[config=Release] = Solitaire\n")
        let settings = BuildSettings(files: [beta, release])
        XCTAssertEqual(settings.value("ROOT"), "com.acme.app")
        XCTAssertEqual(settings.assignment("ROOT")?.location, SourceLocation(path: release, line: 2))
        XCTAssertEqual(settings.value("NAME"), "Solitaire")
        func lookup(_ name: String) -> String? { settings.value(name) ?? (name == "PRODUCT_NAME" ? "My App" : nil) }
        XCTAssertEqual(BuildSettings.expand("$(APP_ID).widget", lookup: lookup), "com.acme.app.widget")
        XCTAssertEqual(BuildSettings.expand("${ROOT}", lookup: lookup), "com.acme.app")
        XCTAssertEqual(BuildSettings.expand("$ROOT.watch", lookup: lookup), "com.acme.app.watch")
        XCTAssertEqual(BuildSettings.expand("org.cocoapods.$(PRODUCT_NAME:rfc1034identifier)", lookup: lookup), "org.cocoapods.My-App")
        XCTAssertEqual(BuildSettings.expand("$(inherited) $(ROOT)", lookup: lookup), "com.acme.app")
        XCTAssertNil(BuildSettings.expand("$(UNKNOWN).app", lookup: lookup))
        XCTAssertNil(BuildSettings.expand("$(LOOP)", lookup: { _ in "$(LOOP)" }))
    }

    /// References that multiply at every level (50 a value, 7 deep: 50⁶ from 1 kB, which never
    /// ended) stop at the budget: at most `maxReferences` are looked up, and nothing expands.
    func testNestedReferencesStopAtTheBudget() {
        let names = "ABCDEFG".map(String.init)
        var values = Dictionary(uniqueKeysWithValues: zip(names, names.dropFirst()).map { ($0, String(repeating: "$(\($1))", count: 50)) })
        values["G"] = "x"
        var lookups = 0
        XCTAssertNil(BuildSettings.expand("com.acme.$(A)", lookup: { lookups += 1; return values[$0] }))
        XCTAssertEqual(lookups, BuildSettings.maxReferences)
        // 51 references giving 150 bytes are within both budgets; 2 bytes past the byte budget are not.
        XCTAssertEqual(BuildSettings.expand("com.acme.$(F)", lookup: { $0 == "G" ? "app" : values[$0] }),
                       "com.acme." + String(repeating: "app", count: 50))
        XCTAssertNil(BuildSettings.expand("$(G)$(G)", lookup: { _ in String(repeating: "a", count: BuildSettings.maxExpandedBytes / 2 + 1) }))
    }

    /// An `.xcconfig` of 100,000 values of one name: each value is kept once, in file order, and
    /// the one chosen is the shortest (the reader looked each value up among all the ones before).
    func testManyValuesOfOneNameAreKeptOnceEach() throws {
        let lines = (0..<100_000).map { "ID = com.acme.app\($0 % 50_000)" }
        let file = try write("Many.xcconfig", lines.joined(separator: "\n") + "\n")
        let settings = BuildSettings(files: [file])
        XCTAssertEqual(settings.values["ID"]?.count, 50_000)
        XCTAssertEqual(settings.values["ID"]?.last?.location, SourceLocation(path: file, line: 50_000))
        XCTAssertEqual(settings.assignment("ID")?.value, "com.acme.app0")
        XCTAssertEqual(settings.assignment("ID")?.location, SourceLocation(path: file, line: 1))
    }

    func testPreprocessorKeepsLineNumbersAndTakesTheDefaultBranch() throws {
        let text = "<dict>\n#ifdef INTUNE\n<key>a</key>\n#else\n<key>b</key>\n#endif\n#if 0\nx\n#elif !defined(DEBUG)\n<key>c</key>\n#endif\n#define X 1\n#ifdef X\n<key>d</key>\n#endif\n</dict>"
        let out = try XCTUnwrap(InfoPlistPreprocessor.preprocess(Array(text.utf8)))
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       "<dict>\n\n\n\n<key>b</key>\n\n\n\n\n<key>c</key>\n\n\n\n<key>d</key>\n\n</dict>")
        XCTAssertNil(InfoPlistPreprocessor.preprocess(Array("<dict>\n<key>#1</key>\n</dict>".utf8)))
    }

    func testBundleInfoRoles() throws {
        func role(_ path: String, _ body: String) throws -> BundleInfo.Role {
            let document = try PlistReader().read(string: "<plist>\(body)</plist>")
            return BundleInfo(path: path, root: document.root).role
        }
        let id = "<key>CFBundleIdentifier</key><string>com.acme.app</string>"
        XCTAssertEqual(try role("App/Info.plist", "<dict>\(id)</dict>"), .app)
        XCTAssertEqual(try role("App/Info.plist", "<dict>\(id)<key>CFBundlePackageType</key><string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string></dict>"), .app)
        XCTAssertEqual(try role("Share/Info.plist", "<dict><key>NSExtension</key><dict/></dict>"), .other("an app extension's"))
        XCTAssertEqual(try role("Watch/Info.plist", "<dict>\(id)<key>WKApplication</key><true/></dict>"), .other("a watch app's"))
        XCTAssertEqual(try role("App.help/Contents/Info.plist", "<dict>\(id)<key>HPDBookTitle</key><string>Help</string></dict>"), .other("a help book's"))
        XCTAssertEqual(try role("Kit/Info.plist", "<dict>\(id)<key>CFBundlePackageType</key><string>FMWK</string></dict>"), .other("a framework's"))
        XCTAssertEqual(try role("AppTests/Info.plist", "<dict>\(id)</dict>"), .other("a test target's"))
        XCTAssertEqual(try role("Vendor/Lib/Info.plist", "<dict>\(id)</dict>"), .other("vendored code's"))
    }

    func testAWalkTakesOnlyFilesWhoseContentIsACatalog() throws {
        let reader = CatalogFileReader(reader: PlistReader())
        func plist(_ body: String) -> String { "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n" }
        // Shapes that prove themselves: taken under any name.
        let mk = try write("Config.plist", plist("<dict><key>Consumables</key><dict><key>com.acme.app.coins</key><dict/></dict></dict>"))
        let dicts = try write("Items.plist", plist("<array><dict><key>productIdentifier</key><string>com.acme.app.coins</string></dict></array>"))
        // Plain strings: taken when the name or the strings say product IDs.
        let named = try write("Purchases.plist", plist("<array><string>coins</string></array>"))
        let reverseDNS = try write("Upgrades.plist", plist("<dict><key>com.acme.app.coins</key><dict><key>icon</key><string>coin.png</string></dict><key>com.acme.app.gems</key><dict><key>order</key><integer>2</integer></dict></dict>"))
        let fonts = try write("Fonts.plist", plist("<array><string>Helvetica</string><string>Menlo</string></array>"))
        let settings = try write("Root.plist", plist("<dict><key>PreferenceSpecifiers</key><array/></dict>"))
        let broken = try write("Broken.plist", "<plist><array>")
        let brokenList = try write("IAP_ProductIDs.plist", "<plist><array>")
        func taken(_ path: String) -> Bool { if case .catalog = reader.read(path, strict: false) { true } else { false } }
        XCTAssertTrue(taken(mk))
        XCTAssertTrue(taken(dicts))
        XCTAssertTrue(taken(named))
        XCTAssertTrue(taken(reverseDNS))
        XCTAssertFalse(taken(fonts))
        XCTAssertFalse(taken(settings))
        XCTAssertFalse(taken(broken))
        XCTAssertTrue(taken(brokenList), "a file named as a product list that does not parse is a broken catalog")
        guard case .passedOver(let why) = reader.read(fonts, strict: false) else { return XCTFail() }
        XCTAssertEqual(why, "<array> of ID strings, but neither its name nor its strings say product IDs")
        // Named on the command line, the same files are read strictly.
        guard case .catalog(let strict) = reader.read(settings, strict: true) else { return XCTFail() }
        XCTAssertEqual(strict.diagnostics.map(\.ruleID), ["unrecognized-catalog"])
        guard case .catalog(let list) = reader.read(fonts, strict: true), case .productList(.arrayOfIDs) = list.content else { return XCTFail() }
    }

    func testAppRootsGroupFilesOfOneApp() throws {
        _ = try write("App/App.xcodeproj/project.pbxproj", "{ objects = {}; }")
        _ = try write("App/Resources/ProductIds.plist", "<plist><array><string>com.acme.app.coins</string></array></plist>")
        _ = try write("App/Store/Products.storekit", "{ \"products\" : [] }")
        _ = try write("Other/Package.swift", "// swift-tools-version:6.0")
        _ = try write("Other/Sources/Products.plist", "<plist><array><string>com.acme.other.coins</string></array></plist>")
        _ = try write("Loose/A/Products.plist", "<plist><array><string>com.acme.a.coins</string></array></plist>")
        _ = try write("Loose/B/Products.plist", "<plist><array><string>com.acme.b.coins</string></array></plist>")
        let root = folder.path
        let groups = try FileDiscovery().groups(for: [root + "/"])
        XCTAssertEqual(groups.map(\.name), [root + "/App", root + "/Loose/A", root + "/Loose/B", root + "/Other"])
        XCTAssertEqual(groups[0].paths, [root + "/App/Resources/ProductIds.plist", root + "/App/Store/Products.storekit"])
        XCTAssertEqual(groups[0].projects, [root + "/App/App.xcodeproj/project.pbxproj"])
    }

    func testSuggestedIDsKeepTheProductsOwnSegments() {
        XCTAssertEqual(MissingBundlePrefixRule.ownSegments(of: "com.pocketcasts.plus.yearly", bundle: "au.com.shiftyjelly.podcasts"), "plus.yearly")
        XCTAssertEqual(MissingBundlePrefixRule.ownSegments(of: "com.acme.other.boost", bundle: "com.acme.app"), "boost")
        XCTAssertEqual(MissingBundlePrefixRule.ownSegments(of: "com.acme.boost", bundle: "com.acme.app"), "boost")
        XCTAssertEqual(MissingBundlePrefixRule.ownSegments(of: "coins100", bundle: "com.acme.app"), "coins100")
        XCTAssertEqual(MissingBundlePrefixRule.ownSegments(of: "pro.yearly", bundle: "com.acme.app"), "pro.yearly")
    }
}
