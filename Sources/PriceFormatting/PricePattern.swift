import Foundation

/// Finds prices written into text: a currency symbol or ISO code next to a number (`$0.99`,
/// `0,99 €`, `¥120`, `USD 4.99`, `R$ 5,90`), a price-like number in purchase wording
/// (`Buy for 0.99`, `only 4.99/month`), or a symbol next to an interpolated value (`$\(price)`).
/// Not prices: version strings, percentages, times, coordinates, `$` alone, format specifiers,
/// numbers in identifiers or asset names, and `$1`-style template references.
public enum PricePattern {
    /// Where an interpolated or formatted value stands in the text.
    public static let placeholder: Character = "\u{1}"

    static let symbols = #"R\$|US\$|HK\$|NZ\$|A\$|C\$|S\$|[€£¥₹₩₽₺₪฿₫₱₦₴₸]|\$"#
    static let codes = #"USD|EUR|GBP|JPY|CNY|RMB|INR|KRW|RUB|BRL|CAD|AUD|CHF|SEK|NOK|DKK|PLN|TRY|MXN|HKD|SGD|TWD|THB|IDR|VND|PHP|MYR|ZAR|AED|SAR|ILS|NZD|CZK|HUF|RON|KZT|NGN|EGP|PKR|COP|CLP|PEN|QAR"#
    static let amount = #"\d{1,3}(?:[.,  ]\d{3})+(?:[.,]\d{1,2})?|\d+[.,]\d{1,2}|\d+"#
    static let amountWithPlaceholder = amount + "|\u{1}"

    private static let patterns: [NSRegularExpression] = {
        let left = #"(?<![\p{L}\d$\\])(?:"# + symbols + #")\s?(?:"# + amountWithPlaceholder + #")(?![\d.,]*\d)"#
        let right = #"(?<![\p{L}\d.])(?:"# + amountWithPlaceholder + #")\s?(?:"# + symbols + #")(?!\p{L})"#
        let codeLeft = #"\b(?:"# + codes + #")\s?(?:"# + amountWithPlaceholder + #")(?![\d.,]*\d)"#
        let codeRight = #"(?<![\p{L}\d.])(?:"# + amountWithPlaceholder + #")\s?(?:"# + codes + #")\b"#
        let wording = #"(?i)\b(?:buy|for|only|just|price|pay|costs?|subscribe|upgrade)\b[^\d\n]{0,12}\d+[.,]\d{2}(?![\d.])"#
        let perPeriod = #"(?i)(?<![\p{L}\d.])\d+[.,]\d{2}\s*/\s*(?:month|mo|year|yr|week|wk)\b"#
        return [left, right, codeLeft, codeRight, wording, perPeriod].map { try! NSRegularExpression(pattern: $0) }
    }()

    /// Whether an interpolated expression is about money (`price`, `amount`, `cost`, …).
    public static func isMoneyExpression(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["price", "amount", "cost", "total", "fee", "money", "balance", "charge", "subtotal"].contains { lower.contains($0) }
    }

    /// The first price-like match in `text`, if any.
    public static func firstMatch(in text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        for pattern in patterns {
            guard let match = pattern.firstMatch(in: text, range: range), let r = Range(match.range, in: text) else { continue }
            let found = String(text[r])
            // "$" with a single digit is a template reference ("$1", "$0"), not a price; "$38" is.
            if found.contains("$"), !found.contains(where: { $0 == "." || $0 == "," || $0 == placeholder }),
               found.filter(\.isNumber).count < 2 { continue }
            return found.replacingOccurrences(of: String(placeholder), with: "…")
        }
        return nil
    }
}
