import Foundation
import PriceFormatting

/// Checks of values a user types, shared by the command line (a usage error) and `iap.yml` (an
/// error naming the file and line): each returns what is wrong, or nil.
public enum ValueCheck {
    /// A storefront code (`USA`, `jp`, any case) as its alpha-3 code; nil when it is none.
    public static func storefront(_ code: String) -> String? {
        (try? Storefronts.find(code))?.alpha3
    }

    /// A bundle ID: reverse-DNS letters, digits, `-` and `.`, no empty segment.
    public static func bundleIDProblem(_ text: String) -> String? {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".") }
        guard !text.isEmpty, allowed, !segments.contains(where: \.isEmpty) else {
            return "not a bundle ID: use letters, digits, '-' and '.', as in com.example.app"
        }
        return nil
    }

    /// A locale: a language Foundation knows, with an optional script and region (`en-US`,
    /// `de_DE`, `zh-Hans`, `pt-BR`, `es-419`).
    public static func localeProblem(_ text: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
        let regions = Set(Locale.Region.isoRegions.map(\.identifier))
        var valid = !parts.isEmpty && parts.count <= 3 && languages.contains(parts[0].lowercased())
        for part in parts.dropFirst() where valid {
            switch part.count {
            case 2: valid = regions.contains(part.uppercased())
            case 3: valid = part.allSatisfy(\.isNumber)   // a UN M.49 region such as 419
            case 4: valid = part.allSatisfy(\.isLetter)   // a script such as Hans
            default: valid = false
            }
        }
        return valid ? nil : "not a locale: use a language and region, as in en-US, de-DE or zh-Hans"
    }
}
