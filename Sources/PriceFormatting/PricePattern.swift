import Foundation

/// Finds prices written into text: a currency symbol or ISO code next to a number (`$0.99`,
/// `0,99 €`, `¥120`, `USD 4.99`, `R$ 5,90`), a price-like number in purchase wording
/// (`Buy for 0.99`, `only 4.99/month`), cents (`99¢`), or a symbol next to an interpolated value (`$\(price)`).
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
        let wording = #"(?i)\b(?:buy|for|only|just|price|pay|costs?|subscribe|upgrade)\b[^\d\n]{0,12}\d+[.,]\d{2}(?![\d.%])"#
        let perPeriod = #"(?i)(?<![\p{L}\d.])\d+[.,]\d{2}\s*/\s*(?:month|mo|year|yr|week|wk)\b"#
        // `99¢`: an amount in cents (at most 99 of them) is a price too.
        let cents = #"(?<![\p{L}\d.,])(?:\d{1,2}|\x{1})\s?¢"#
        return [left, right, codeLeft, codeRight, wording, perPeriod, cents].map { try! NSRegularExpression(pattern: $0) }
    }()

    /// Whether an interpolated expression is about money (`price`, `amount`, `cost`, …).
    public static func isMoneyExpression(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["price", "amount", "cost", "total", "fee", "money", "balance", "charge", "subtotal"].contains { lower.contains($0) }
    }

    /// Whether an interpolated expression is a product's price by its name (`price`,
    /// `product.displayPrice`), not money of another kind (an API's `cost`, a `balance`).
    public static func isProductPriceExpression(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("price") || lower.contains("product")
    }

    /// Characters that are currency symbols on their own: a run of them (`$$$`) is decoration.
    static let symbolCharacters: Set<Character> = ["$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "฿", "₫", "₱", "₦", "₴", "₸"]

    /// Whether a match in dollars, euros, pounds or francs is over 10,000.
    static func isBeyondStorePrices(_ match: String) -> Bool {
        guard ["$", "€", "£", "USD", "EUR", "GBP", "CHF", "CAD", "AUD"].contains(where: { match.contains($0) }),
              !["¥", "₹", "₩", "₫", "₦", "R$", "HK$", "NZ$"].contains(where: { match.contains($0) }) else { return false }
        let digits = match.filter { $0.isNumber || $0 == "." || $0 == "," }
        // Grouping separators join the integer part; a last group of one or two digits is cents.
        var parts = digits.split(whereSeparator: { $0 == "." || $0 == "," })
        if let last = parts.last, parts.count > 1, last.count <= 2 { parts.removeLast() }
        guard let value = Int(parts.joined()) else { return false }
        return value > 10_000
    }

    /// Whether the text uses `$` as a delimiter (`$X = 1/e^1.365^ = 0.255$`, TeX-style math in a
    /// quiz): its `$`s pair up, each opening one followed and each closing one preceded by
    /// something other than a space. A price's `$` is followed by its amount and the next one
    /// ("Was $9.99, now $4.99") is preceded by a space.
    static func usesDollarDelimiters(_ text: String) -> Bool {
        let chars = Array(text)
        let dollars = chars.indices.filter { chars[$0] == "$" }
        guard dollars.count >= 2, dollars.count.isMultiple(of: 2) else { return false }
        for pair in stride(from: 0, to: dollars.count, by: 2) {
            let (open, close) = (dollars[pair], dollars[pair + 1])
            guard close > open + 1, !chars[open + 1].isWhitespace, !chars[close - 1].isWhitespace else { return false }
        }
        return true
    }

    /// Whether `text` holds what every pattern needs: a decimal digit (`\d`, in any script) or the
    /// placeholder. Most text holds neither, and is then no price without compiling a pattern.
    static func mayHoldPrice(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || byte == 0x01 { return true }
            if byte >= 0x80 { ascii = false }
        }
        return !ascii && text.unicodeScalars.contains { $0.properties.generalCategory == .decimalNumber }
    }

    /// The first price-like match in `text`, if any.
    public static func firstMatch(in text: String) -> String? {
        guard mayHoldPrice(text) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        let dollarDelimited = text.contains("$") && usesDollarDelimiters(text)
        for pattern in patterns {
            for match in pattern.matches(in: text, range: range) {
                guard let r = Range(match.range, in: text) else { continue }
                let found = String(text[r])
                if dollarDelimited, found.contains("$") { continue }
                // "$" with a single digit is a template reference ("$1", "$0"), not a price; "$38" is.
                if found.contains("$"), !found.contains(where: { $0 == "." || $0 == "," || $0 == placeholder }),
                   found.filter(\.isNumber).count < 2 { continue }
                // Dollars, euros, pounds and francs over 10,000 are no App Store price (its highest is
                // 10,000 in those currencies): a sample balance, a legal cap, a statistic.
                if Self.isBeyondStorePrices(found) { continue }
                // Nothing is sold for nothing: "$0.00" is an empty total or a fallback, not a price.
                if found.contains(where: \.isNumber), found.allSatisfy({ !$0.isNumber || $0 == "0" }) { continue }
                // A symbol in a run of symbols ("%@$$$%@") is a separator: a price needs an amount.
                if r.lowerBound > text.startIndex, symbolCharacters.contains(text[text.index(before: r.lowerBound)]) { continue }
                if r.upperBound < text.endIndex, symbolCharacters.contains(text[r.upperBound]) { continue }
                return found.replacingOccurrences(of: String(placeholder), with: "…")
            }
        }
        return nil
    }
}
