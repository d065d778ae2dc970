import Foundation

/// A small app repository written for the tests, shaped like the real ones `iap` is pointed at:
/// an Xcode project whose bundle ID lives in an `.xcconfig`, the product IDs in one folder and
/// the `.storekit` file in another, an `Info.plist` with preprocessor lines, and the plists that
/// are not catalogs (an extension's and a help book's `Info.plist`, a licence plist of a StoreKit
/// library in `Settings.bundle`, `GoogleService-Info.plist`), plus a second app in a subfolder.
struct AppRepository {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-repo-\(UUID().uuidString)")
        try write("Solitaire.xcodeproj/project.pbxproj", Self.project)
        try write("Config/Release.xcconfig", "// Release\nBUNDLE_PREFIX = com.acme\n")
        try write("Config/Beta.xcconfig", "BUNDLE_PREFIX = com.acme.beta // TestFlight builds\n")
        try write("Solitaire/Info.plist", Self.plist("""
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        #ifdef INTUNE
        \t<key>IntuneMAMSettings</key>
        \t<dict/>
        #endif
        \t<key>CFBundlePackageType</key>
        \t<string>APPL</string>
        </dict>
        """))
        try write("Solitaire/Resources/ProductIds.plist", Self.plist("""
        <array>
        \t<string>com.acme.solitaire.freecell</string>
        \t<string>com.acme.solitaire.klondike</string>
        </array>
        """))
        try write("Solitaire/Store/Products.storekit", Self.storeKit([("com.acme.solitaire.frecell", "Freecell"), ("com.acme.solitaire.klondike", "Klondike")]))
        try write("Solitaire/Settings.bundle/com.mono0926.LicensePlist/SwiftyStoreKit.plist", Self.plist("""
        <dict>
        \t<key>PreferenceSpecifiers</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>FooterText</key>
        \t\t\t<string>MIT License</string>
        \t\t\t<key>Type</key>
        \t\t\t<string>PSGroupSpecifier</string>
        \t\t</dict>
        \t</array>
        </dict>
        """))
        try write("Solitaire/GoogleService-Info.plist", Self.plist("""
        <dict>
        \t<key>API_KEY</key>
        \t<string>AIzaSyExample</string>
        \t<key>BUNDLE_ID</key>
        \t<string>com.acme.solitaire</string>
        \t<key>IS_ADS_ENABLED</key>
        \t<false/>
        </dict>
        """))
        try write("Widget/Info.plist", Self.plist("<dict>\n\t<key>NSExtension</key>\n\t<dict/>\n</dict>"))
        try write("Solitaire.help/Contents/Info.plist", Self.plist("""
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>com.acme.solitaire.help</string>
        \t<key>HPDBookTitle</key>
        \t<string>Solitaire Help</string>
        </dict>
        """))
        try write("SolitaireTests/Info.plist", Self.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</dict>"))
        // Another app in the same repository: its own project, its own catalog.
        try write("Mahjong/Mahjong.xcodeproj/project.pbxproj", Self.project.replacingOccurrences(of: "$(BUNDLE_PREFIX).solitaire", with: "com.acme.mahjong"))
        try write("Mahjong/Products.storekit", Self.storeKit([("com.acme.mahjong.tiles", "Klondike")]))
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
    }

    static func storeKit(_ products: [(id: String, name: String)]) -> String {
        let entries = products.map { product in
            """
                {
                  "displayPrice" : "0.99",
                  "familyShareable" : false,
                  "localizations" : [
                    {
                      "description" : "A \(product.name) deck",
                      "displayName" : "\(product.name)",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "\(product.id)",
                  "referenceName" : "\(product.name)",
                  "type" : "NonConsumable"
                }
            """
        }
        return "{\n  \"products\" : [\n" + entries.joined(separator: ",\n")
            + "\n  ],\n  \"settings\" : { \"_storefront\" : \"USA\", \"_locale\" : \"en_US\" },\n  \"version\" : { \"major\" : 4, \"minor\" : 0 }\n}\n"
    }

    /// An Xcode project with an iOS app target, a watchOS app and a widget extension.
    static let project = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjects = {
    /* Begin PBXNativeTarget section */
    \t\tA1 /* Solitaire */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = L1 /* Build configuration list for PBXNativeTarget "Solitaire" */;
    \t\t\tname = Solitaire;
    \t\t\tproductName = Solitaire;
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tA2 /* Watch */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = L2;
    \t\t\tname = "Solitaire Watch";
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tA3 /* Widget */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = L3;
    \t\t\tname = Widget;
    \t\t\tproductType = "com.apple.product-type.app-extension";
    \t\t};
    /* End PBXNativeTarget section */
    \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Debug */, C2 /* Release */, ); };
    \t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C3, ); };
    \t\tL3 = {isa = XCConfigurationList; buildConfigurations = (C4, ); };
    \t\tC1 /* Debug */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tINFOPLIST_FILE = Solitaire/Info.plist;
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).solitaire.debug";
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t\tC2 /* Release */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tINFOPLIST_FILE = "$(SRCROOT)/Solitaire/Info.plist";
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).solitaire";
    \t\t\t};
    \t\t\tname = Release;
    \t\t};
    \t\tC3 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.solitaire.watchkitapp; SDKROOT = watchos; }; name = Release; };
    \t\tC4 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.solitaire.widget; }; name = Release; };
    \t};
    \trootObject = A1;
    }
    """
}
