import Diagnostics
import Foundation

public struct WhitespaceInIDRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "whitespace-in-id", name: "Whitespace in ID", severity: .error,
        rationale: "A space typed into a plist is invisible in Xcode and makes the ID match nothing in App Store Connect.",
        triggering: [.ids("↓com.acme.app.coins "), .ids("↓ com.acme.app.coins"), .ids("↓com.acme.app.gold pack")],
        nonTriggering: [.ids("com.acme.app.gold_pack")])

    /// App Store Connect refuses what this rule finds (`CatalogRule.isAppStoreConnectLimit`).
    public var isAppStoreConnectLimit: Bool { true }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            let id = product.id
            guard !product.hasPlainID, IDCharacters.mayHoldWhitespace(id), id.contains(where: \.isWhitespace) else { continue }
            let trimmed = id.trimmingCharacters(in: .whitespacesAndNewlines)
            let what: String
            if id.first?.isWhitespace == true && id.last?.isWhitespace == true { what = "starts and ends with whitespace" }
            else if id.first?.isWhitespace == true { what = "starts with whitespace" }
            else if id.last?.isWhitespace == true { what = "ends with whitespace" }
            else { what = "contains whitespace" }
            let fix = trimmed.contains(where: \.isWhitespace) ? nil : SuggestedFix("remove the whitespace", replacement: trimmed)
            found.add(at: product.location) { finding("product ID \(Quote.bounded(id)) \(what)", at: product.location, fix: fix) }
        }
    }
}
