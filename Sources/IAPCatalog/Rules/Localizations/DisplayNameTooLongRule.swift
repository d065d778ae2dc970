import Diagnostics

public struct DisplayNameTooLongRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "display-name-too-long", name: "Display name too long", severity: .warning, defaultLimit: 35,
        rationale: "App Store Connect limits display names (35 characters today, 30 for years); longer names are refused. Change the limit with --display-name-limit.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict>↓<key>en-US</key><dict><key>displayName</key><string>A Very Large Bag Of Shiny Golden Coins</string></dict></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict>"))])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        lengthFindings(catalog, \.displayName, limit: options.limit(of: Self.description), what: "display name", into: &found)
    }
}
