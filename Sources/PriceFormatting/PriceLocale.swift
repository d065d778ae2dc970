import Foundation

/// A locale as StoreKit and people write it: `ja_JP@currency=JPY`, `zh_Hans_CN@currency=CNY`,
/// `en_US`, `pt-BR`. The currency keyword, when present, is split off.
public struct PriceLocale: Sendable, Hashable, CustomStringConvertible {
    /// The locale without keywords, with `_` separators (`pt_BR`).
    public var identifier: String
    /// The `@currency=` keyword, uppercased, if given.
    public var currency: String?

    public init(parsing text: String) throws(PriceError) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts[0].replacingOccurrences(of: "-", with: "_")
        // language[_Script][_REGION]: letters only, 2–8 per subtag.
        let subtags = base.split(separator: "_", omittingEmptySubsequences: false)
        guard !subtags.isEmpty, subtags.count <= 3,
              subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }),
              (2...3).contains(subtags[0].count), subtags[0].allSatisfy(\.isLetter)
        else { throw .invalidLocale(text) }
        identifier = base
        currency = nil
        if parts.count == 2 {
            for keyword in parts[1].split(separator: ";") {
                let pair = keyword.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { throw .invalidLocale(text) }
                if pair[0].lowercased() == "currency" { currency = pair[1].uppercased() }
            }
        }
    }

    public var description: String { identifier + (currency.map { "@currency=\($0)" } ?? "") }
}

/// ISO 4217 codes as Foundation knows them.
public enum CurrencyCodes {
    public static let known: Set<String> = Set(Locale.commonISOCurrencyCodes)

    public static func validate(_ code: String) throws(PriceError) -> String {
        let upper = code.uppercased()
        guard upper.count == 3, known.contains(upper) else { throw .unknownCurrency(code) }
        return upper
    }
}
