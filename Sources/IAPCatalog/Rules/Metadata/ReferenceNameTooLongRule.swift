import Diagnostics

public struct ReferenceNameTooLongRule: CatalogRule, Rule {
    static let limit = 64
    public static let description = RuleDescription(
        id: "reference-name-too-long", name: "Reference name too long", severity: .error,
        rationale: "App Store Connect refuses reference names over 64 characters.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key>↓<string>\(String(repeating: "Coins ", count: 11))</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>"))])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            guard let name = product.metadata.referenceName, name.value.count > Self.limit else { continue }
            found.add(at: name.location) {
                finding("reference name of \(Quote.bounded(product.id)) is \(name.value.count) characters; App Store Connect allows \(Self.limit)",
                        at: name.location)
            }
        }
    }
}
