import Diagnostics

public struct IDTooLongRule: CatalogRule, Rule {
    static let limit = 100
    public static let description = RuleDescription(
        id: "id-too-long", name: "ID too long", severity: .error,
        rationale: "App Store Connect refuses product IDs over 100 characters.",
        triggering: [.ids("↓com.acme.app." + String(repeating: "x", count: 90))],
        nonTriggering: [.ids("com.acme.app." + String(repeating: "x", count: 87))])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products where product.id.utf8.count > Self.limit && product.id.count > Self.limit {
            found.add(at: product.location) {
                finding("product ID is \(product.id.count) characters long; App Store Connect allows at most \(Self.limit)", at: product.location)
            }
        }
    }
}
