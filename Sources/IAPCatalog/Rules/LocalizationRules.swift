import Diagnostics
import Foundation
import PriceFormatting

extension CatalogRules {
    static let localizationRules: [any CatalogRule] = [EmptyLocalizationRule(), PriceInLocalizationRule(), UntrimmedLocalizationRule()]
}

extension Localization {
    /// The display name and the description, each with what it is called in a message.
    var texts: [(field: String, text: String?)] { [("display name", displayName), ("description", description)] }
}

extension CatalogRule {
    /// One finding per display name or description that `problem` finds something wrong with:
    /// `problem` says what ("shows a price ('$0.99')") and how to fix it.
    func textFindings(_ catalog: Catalog, _ problem: (String) -> (String, SuggestedFix)?) -> [Diagnostic] {
        catalog.describedProducts.flatMap { product in
            product.metadata.localizations.flatMap { l in
                l.texts.compactMap { field, text -> Diagnostic? in
                    guard let text, let (what, fix) = problem(text) else { return nil }
                    return finding("the \(field) of \(Quote.bounded(product.id)) (\(l.locale)) \(what)", at: l.location, fix: fix)
                }
            }
        }
    }
}

private func storeKitLocalization(_ id: String, displayName: String, description: String, marked: Bool = true) -> RuleExample {
    RuleExample([ExampleFile("Products.storekit", """
    {
      "products" : [
        {
          \(marked ? "↓" : "")"productID" : "\(id)",
          "localizations" : [
            {
              "description" : "\(description)",
              "displayName" : "\(displayName)",
              "locale" : "en_US"
            }
          ],
          "referenceName" : "Coins",
          "type" : "Consumable"
        }
      ],
      "version" : { "major" : 4, "minor" : 0 }
    }
    """)])
}

struct EmptyLocalizationRule: CatalogRule {
    let description = RuleDescription(
        id: "empty-localization", name: "Empty display name or description", severity: .warning,
        rationale: "App Store Connect needs a display name and a description in every localization, and a store screen that shows product.displayName shows nothing for an empty one.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: ""),
                     storeKitLocalization("com.acme.app.coins", displayName: " ", description: "A bag of coins")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "A bag of coins", marked: false)])

    /// Above this many products with empty texts in one file, one finding for the file.
    static let summaryThreshold = 3

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        var byFile: [String: [(Product, Localization, [String])]] = [:]
        for product in catalog.describedProducts {
            for l in product.metadata.localizations where l.locale != "default" {
                let empty = l.texts.filter { $0.text.map { $0.allSatisfy(\.isWhitespace) } ?? false }.map(\.field)
                if !empty.isEmpty { byFile[l.location.path, default: []].append((product, l, empty)) }
            }
        }
        let fix = SuggestedFix("write the text customers see in the store")
        return byFile.keys.sorted().flatMap { path -> [Diagnostic] in
            let found = byFile[path]!
            if Set(found.map(\.0.id)).count > Self.summaryThreshold {
                let first = found.prefix(3).map { "\(Quote.bounded($0.0.id))" }.joined(separator: ", ")
                return [finding("\(found.count) localizations in this file have an empty display name or description (first \(first))",
                                at: found[0].1.location, fix: fix)]
            }
            return found.map { product, l, empty in
                finding("the \(empty.joined(separator: " and ")) of \(Quote.bounded(product.id)) (\(l.locale)) \(empty.count > 1 ? "are" : "is") empty",
                        at: l.location, fix: fix)
            }
        }
    }
}

struct PriceInLocalizationRule: CatalogRule {
    let description = RuleDescription(
        id: "price-in-localization", name: "Price in a name or description", severity: .warning,
        rationale: "A price written into a display name or description is wrong in every other storefront and after every price change; StoreKit shows the real price beside it.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins for $0.99", description: "A bag of coins"),
                     storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "Only 0,99 € today")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "100 Coins", description: "Save 50% on coins", marked: false)])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        textFindings(catalog) { text in
            PricePattern.firstMatch(in: text).map { ("shows a price (\(Quote.bounded($0)))", SuggestedFix("remove the price: the App Store shows each storefront's own")) }
        }
    }
}

struct UntrimmedLocalizationRule: CatalogRule {
    let description = RuleDescription(
        id: "untrimmed-localization", name: "Whitespace around a name or description", severity: .warning,
        rationale: "A space before or after a display name or description is invisible in Xcode's editor and misaligns the text customers see.",
        triggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins ", description: "A bag of coins"),
                     storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: " A bag of coins")],
        nonTriggering: [storeKitLocalization("com.acme.app.coins", displayName: "Coins", description: "A bag of coins", marked: false)])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        textFindings(catalog) { text in
            guard !text.allSatisfy(\.isWhitespace), text.first?.isWhitespace == true || text.last?.isWhitespace == true else { return nil }
            return ("has whitespace around it: \(Quote.bounded(text))",
                    SuggestedFix("trim it", replacement: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }
}
