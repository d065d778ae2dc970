import Diagnostics

public struct DescriptionTooLongRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "description-too-long", name: "Description too long", severity: .warning, defaultLimit: 55,
        rationale: "App Store Connect limits product descriptions (55 characters today, 45 for years). Change the limit with --description-limit.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict>↓<key>en-US</key><dict><key>description</key><string>\(String(repeating: "Coins for everyone. ", count: 3))</string></dict></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en-US</key><dict><key>description</key><string>A bag of coins</string></dict></dict>"))])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        lengthFindings(catalog, \.description, limit: options.limit(of: Self.description), what: "description", into: &found)
    }
}
