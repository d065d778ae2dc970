import CodeGeneration
import Foundation
import IAPCatalog

/// What lint rules know about the app's catalog (from `--catalog`); empty without one.
public struct LintContext: Sendable {
    /// Product ID → the generated constant that names it (`ProductID.extraLives`).
    public var productConstants: [String: String]
    /// Display names and descriptions in every locale, normalised (see `normalizedTitle`).
    public var titles: Set<String>
    /// The bundle ID + "." that the app's product IDs start with, lowercased.
    public var bundlePrefix: String?

    public init(productConstants: [String: String] = [:], titles: Set<String> = [], bundlePrefix: String? = nil) {
        self.productConstants = productConstants
        self.titles = titles
        self.bundlePrefix = bundlePrefix
    }

    /// The context of a loaded catalog.
    public init(catalog: Catalog, typeName: String = "ProductID") {
        let names = (try? CodeGenerator(options: GenerationOptions(typeName: typeName, disambiguate: true)).names(for: catalog.products))
            ?? catalog.products.map { _ in "" }
        var constants: [String: String] = [:]
        var titles = Set<String>()
        for (product, name) in zip(catalog.products, names) {
            constants[product.id] = "\(typeName).\(name)"
            for localization in product.metadata.localizations {
                for text in [localization.displayName, localization.description].compactMap({ $0 }) {
                    let key = Self.normalizedTitle(text)
                    if key.count >= 3 { titles.insert(key) }
                }
            }
        }
        self.init(productConstants: constants, titles: titles,
                  bundlePrefix: catalog.bundleID.map { $0.value.lowercased() + "." })
    }

    /// Lowercased, trimmed of whitespace and punctuation: "  Extra Lives! " → "extra lives".
    public static func normalizedTitle(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters).union(.symbols)).lowercased()
    }

    /// Whether a literal is one of the catalog's display names or descriptions (normalised;
    /// nothing is normalised without a catalog).
    func isTitle(_ text: String) -> Bool {
        !titles.isEmpty && titles.contains(Self.normalizedTitle(text))
    }

    /// The catalog ID nearest to `id`, for "did you mean".
    func nearestID(to id: String) -> String? {
        productConstants.keys.min {
            let (a, b) = (EditDistance.between($0, id), EditDistance.between($1, id))
            return a == b ? $0 < $1 : a < b
        }
    }
}
