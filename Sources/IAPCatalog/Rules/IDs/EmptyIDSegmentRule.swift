import Diagnostics
import Foundation

public struct EmptyIDSegmentRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "empty-id-segment", name: "Empty ID segment", severity: .error,
        rationale: "'..', a leading or a trailing '.' leave an empty segment: a typo App Store Connect refuses; an empty string is no ID at all.",
        triggering: [.ids("↓com.acme..coins"), .ids("↓com.acme.app.coins."), .ids("↓.com.acme.app.coins"), .ids("↓")],
        nonTriggering: [.ids("com.acme.app.coins")])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            guard !product.hasPlainID, IDCharacters.mayHaveEmptySegment(product.id) else { continue }
            let id = product.id.trimmingCharacters(in: .whitespaces)
            if id.isEmpty {
                found.add(at: product.location) { finding("empty product ID", at: product.location) }
                continue
            }
            var problems: [String] = []
            if id.hasPrefix(".") { problems.append("starts with '.'") }
            if id.hasSuffix(".") { problems.append("ends with '.'") }
            if id.contains("..") { problems.append("contains '..'") }
            guard !problems.isEmpty else { continue }
            found.add(at: product.location) {
                finding("product ID \(Quote.bounded(product.id)) \(problems.joined(separator: " and ")): an empty segment", at: product.location)
            }
        }
    }
}
