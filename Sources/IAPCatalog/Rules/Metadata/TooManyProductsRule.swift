import Diagnostics

public struct TooManyProductsRule: CatalogRule, Rule {
    /// The most in-app purchases App Store Connect allows one app (`ValidationOptions.maxProducts` by
    /// default).
    public static let appStoreConnectMaximum = 10_000

    public static let description = RuleDescription(
        id: "too-many-products", name: "Too many products", severity: .error,
        rationale: "App Store Connect allows at most 10,000 in-app purchases per app.",
        triggering: [RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.p0"] + (1...10_000).map { "com.acme.app.p\($0)" }))])],
        nonTriggering: [.ids("com.acme.app.coins")])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        guard catalog.products.count > options.maxProducts, let first = catalog.products.first else { return }
        found.add(finding("the catalog holds \(catalog.products.count) products; App Store Connect allows \(options.maxProducts) per app",
                          at: first.location))
    }
}
