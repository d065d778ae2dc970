import Diagnostics
import Foundation

public struct UntrimmedLocalizationRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "untrimmed-localization", name: "Whitespace around a name or description", severity: .warning,
        rationale: "A space before or after a display name or description is invisible in Xcode's editor and misaligns the text customers see.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins ", description: "A bag of coins"),
                     storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: " A bag of coins")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "A bag of coins", marked: false)])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        textFindings(catalog, into: &found) { text in
            guard !text.allSatisfy(\.isWhitespace), text.first?.isWhitespace == true || text.last?.isWhitespace == true else { return nil }
            return ("has whitespace around it: \(Quote.bounded(text))",
                    SuggestedFix("trim it", replacement: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }
}
