import Diagnostics

/// `unresolved-bundle-id`: a finding about a file, made while loading it: BundleIDResolver when a
/// build variable cannot be expanded, in the loader's one pass over the file; `LoadTimeRule` hands
/// it to the validator.
public enum UnresolvedBundleIDRule: Rule {
    public static let description = RuleDescription(
        id: "unresolved-bundle-id", name: "Unresolved bundle ID", severity: .warning,
        rationale: "Info.plist often holds $(PRODUCT_BUNDLE_IDENTIFIER); iap expands it from the Xcode project and .xcconfig files, and says so when it cannot, since without the real bundle ID prefixes cannot be checked. Only a catalog with products needs it, and only its own app is asked: beside several apps' Info.plists, the one it belongs to, or, when nothing tells which, the catalog itself.",
        triggering: [
            RuleExample([
                ExampleFile("Info.plist", RuleExample.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t↓<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</dict>")),
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ]),
        ],
        nonTriggering: [
            RuleExample([
                ExampleFile("Info.plist", RuleExample.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>com.acme.app</string>\n</dict>")),
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ]),
        ])
}
