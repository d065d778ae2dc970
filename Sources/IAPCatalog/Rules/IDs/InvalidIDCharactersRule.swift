import Diagnostics

public struct InvalidIDCharactersRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "invalid-id-characters", name: "Invalid characters in ID", severity: .error,
        rationale: "App Store Connect accepts only letters, digits, '.', '_' and '-' in product IDs.",
        triggering: [.ids("↓com.acme.app/coins"), .ids("↓com.acme.app.café"), .ids("↓com.acme.app.100%")],
        nonTriggering: [.ids("com.acme.app.coins_100", "com.acme.app.gold-pack", "com.acme.app.Pro2")])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            if product.hasPlainID || IDCharacters.allAllowed(product.id) { continue }
            var bad: [Character] = []
            for ch in product.id where !ch.isWhitespace && !IDCharacters.isAllowed(ch) && !bad.contains(ch) { bad.append(ch) }
            guard !bad.isEmpty else { continue }
            found.add(at: product.location) {
                let list = bad.map { "'\($0)'" }.joined(separator: ", ")
                return finding("product ID \(Quote.bounded(product.id)) contains \(list): only letters A–Z, digits, '.', '_' and '-' are allowed",
                               at: product.location)
            }
        }
    }
}
