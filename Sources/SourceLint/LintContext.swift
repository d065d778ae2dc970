import Diagnostics
import Foundation
import IAPCatalog
import ProductNaming

/// What lint rules know about the app's catalog (from `--catalog`, or the catalog found beside
/// the sources); empty without one.
public struct LintContext: Sendable {
    /// Product ID → the generated constant that names it (`ProductID.extraLives`).
    public var productConstants: [String: String]
    /// Display names and descriptions in every locale, normalised (see `normalizedTitle`).
    public var titles: Set<String>
    /// The bundle ID + "." that the app's product IDs start with, lowercased.
    public var bundlePrefix: String?
    /// What the app is called, normalised: its own name is not a product title, even when a
    /// product is named after the app (`Clendar` and the product `Clendar+`).
    public var appNames: Set<String>
    /// The catalog lists every product the app sells: it has an ID list or a metadata plist, or a
    /// `.storekit` synced from App Store Connect. A catalog of local StoreKit configurations only
    /// may leave products out.
    public var catalogIsComplete = true
    /// The catalog's IDs by their parent (all segments but the last, lowercased).
    let idsByParent: [String: [String]]

    public init(productConstants: [String: String] = [:], titles: Set<String> = [], bundlePrefix: String? = nil,
                appNames: Set<String> = []) {
        self.productConstants = productConstants
        self.titles = titles.subtracting(appNames)
        self.bundlePrefix = bundlePrefix
        self.appNames = appNames
        var byParent: [String: [String]] = [:]
        for id in productConstants.keys.sorted() { byParent[Self.parent(of: id), default: []].append(id) }
        idsByParent = byParent
    }

    /// The context of a loaded catalog.
    public init(catalog: Catalog, typeName: String = "ProductID") {
        let names = (try? ProductConstantNames.names(for: catalog.products, reserved: ProductConstantNames.reservedInConstants, disambiguate: true))
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
        self.init(productConstants: constants, titles: titles, bundlePrefix: catalog.bundleID.map { $0.value.lowercased() + "." },
                  appNames: Set(catalog.appNames.map(Self.normalizedTitle)))
        catalogIsComplete = catalog.files.contains { file in
            switch file.content {
            case .productList, .metadata: true
            case .storeKit: file.syncedFromAppStoreConnect
            default: false
            }
        }
    }

    /// Words of a text, lowercased and sorted: "  Extra Lives! " and "lives, extra" → "extra lives".
    /// Case, punctuation and word order do not make another title.
    public static func normalizedTitle(_ text: String) -> String {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.sorted().joined(separator: " ")
    }

    /// Whether a literal is one of the catalog's display names or descriptions (normalised;
    /// nothing is normalised without a catalog).
    func isTitle(_ text: String) -> Bool {
        guard !titles.isEmpty, !Self.isIdentifierLike(text) else { return false }
        return titles.contains(Self.normalizedTitle(text))
    }

    /// `tokens_10`, `com.acme.app.pro`, `premium-monthly`: an identifier, not words a person reads,
    /// even when its words are a title's ("10 Tokens").
    static func isIdentifierLike(_ text: String) -> Bool {
        !text.contains(" ") && text.contains(where: { $0 == "_" || $0 == "." || $0 == "-" }) && ProductIDText.isIDLike(text)
    }

    /// How far a literal may be from a catalog ID for "did you mean" to name it: a suggestion
    /// further off names another product, not the one meant.
    public static let maxSuggestionDistance = 2

    /// The catalog ID to suggest for an unknown one, for "did you mean": the literal under the
    /// bundle prefix (`gold` → `com.acme.app.gold`), else the nearest catalog ID at most
    /// `maxSuggestionDistance` edits away (ignoring case); nil when none is that close.
    func suggestedID(for id: String) -> String? {
        let lower = id.lowercased()
        if let prefix = bundlePrefix, let full = productConstants.keys.filter({ $0.lowercased() == prefix + lower }).min() { return full }
        var best: (id: String, distance: Int)?
        for candidate in productConstants.keys {
            let distance = EditDistance.between(candidate.lowercased(), lower)
            guard distance <= Self.maxSuggestionDistance else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.id) { best = (candidate, distance) }
        }
        return best?.id
    }

    /// The finding for a literal used as a product ID that the catalog lacks: the message (with
    /// "did you mean" when a catalog ID is close), and a severity other than the rule's when there
    /// is one. Against a catalog that is only a local StoreKit configuration, the ID may be a
    /// product App Store Connect still has (an old one kept for restores): a warning that says
    /// so. A typo of one of its IDs (a "did you mean") stays an error.
    /// `complete`: word the message as for a complete catalog, whatever this one is.
    func unknownProductID(_ text: String, complete: Bool = false) -> (message: String, severity: Severity?) {
        let suggestion = suggestedID(for: text)
        let message = "\(Quote.bounded(text)) is used as a product ID but is not in the catalog" + (suggestion.map { "; did you mean \(Quote.bounded($0))?" } ?? "")
        guard !catalogIsComplete, !complete, suggestion == nil else { return (message, nil) }
        return (message + " (a warning: the catalog is a local StoreKit configuration, which may leave out products App Store Connect still has)",
                .warning)
    }

    /// Whether an unverified call's product ID is the app's own all the same: a typo of a catalog
    /// ID, or an ID under the app's bundle ID (`com.acme.app.gold`), which no other store's or
    /// license's ID is.
    func isAppStoreIDByItsShape(_ text: String) -> Bool {
        if misspelledID(text) != nil { return true }
        guard let prefix = bundlePrefix, text.utf8.count > prefix.utf8.count else { return false }
        return text.lowercased().hasPrefix(prefix)
    }

    /// The catalog ID that `text` misspells: one under the same parent (`com.acme.app.coinz` and
    /// `com.acme.app.coins`) at most two edits away. Other identifiers under the bundle ID
    /// (`com.acme.app.widget`, a UTType, a Siri shortcut) are not misspellings of a product.
    func misspelledID(_ text: String) -> String? {
        guard productConstants[text] == nil, text.contains("."), let siblings = idsByParent[Self.parent(of: text)] else { return nil }
        let lower = text.lowercased()
        var best: (id: String, distance: Int)?
        for sibling in siblings {
            // Edits between digits make a numbered series (`version.120`, `version.139`), not a typo.
            if Self.digitsFolded(sibling.lowercased()) == Self.digitsFolded(lower) { continue }
            let distance = EditDistance.between(sibling.lowercased(), lower)
            guard distance <= 2, distance <= text.count / 3 else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && sibling < best!.id) {
                best = (sibling, distance)
            }
        }
        return best?.id
    }

    /// The text with each run of digits as one `#`: `version.120` and `version.99` are one series.
    static func digitsFolded(_ text: String) -> String {
        var out = ""
        for c in text where !(c.isNumber && out.last == "#") { out.append(c.isNumber ? "#" : c) }
        return out
    }

    static func parent(of id: String) -> String {
        guard let dot = id.lastIndex(of: ".") else { return "" }
        return id[..<dot].lowercased()
    }
}
