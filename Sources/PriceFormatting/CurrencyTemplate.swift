import Foundation

/// How one (locale, currency) shows prices, learned once from a configured `NumberFormatter`:
/// the currency's fraction digits and, for each count of integer digits and each sign, the exact
/// string the formatter produces with digit slots marked. Formatting a price then fills the slots
/// with the digits of the `Decimal` itself, so no amount ever passes through `Double`.
struct CurrencyTemplate: Sendable {
    /// The formatter's output as UTF-8, with the byte offset of each digit.
    struct Pattern: Sendable {
        var bytes: [UInt8]
        var slots: [Int]
    }

    let fractionDigits: Int
    /// The locale's zero digit (U+0030, U+0660, U+06F0, …).
    let zero: UInt32
    /// UTF-8 of the locale's digits 0…9 (all the same length within a script).
    private let digitBytes: [[UInt8]]
    /// Index: integer digit count (1…38); value: positive and negative patterns.
    private let positive: [Pattern]
    private let negative: [Pattern]

    static let maxIntegerDigits = 38

    private init(fractionDigits: Int, zero: UInt32, digitBytes: [[UInt8]], positive: [Pattern], negative: [Pattern]) {
        self.fractionDigits = fractionDigits
        self.zero = zero
        self.digitBytes = digitBytes
        self.positive = positive
        self.negative = negative
    }

    /// A copy with buffers of its own, for a cache stripe: threads then never touch the same
    /// reference counts.
    func copy() -> CurrencyTemplate {
        func fresh(_ patterns: [Pattern]) -> [Pattern] {
            patterns.map { Pattern(bytes: $0.bytes.map { $0 }, slots: $0.slots.map { $0 }) }
        }
        return CurrencyTemplate(fractionDigits: fractionDigits, zero: zero, digitBytes: digitBytes.map { $0.map { $0 } },
                                positive: fresh(positive), negative: fresh(negative))
    }

    /// Learns the template. `grouping` are the sizes the locale really uses (primary, secondary):
    /// pushed into the formatter because Linux's Foundation resets the secondary size to 0.
    init(locale: String, currency: String, style: PriceFormatter.Style, grouping: (Int, Int)) {
        let formatter = NumberFormatter()
        formatter.numberStyle = style == .isoCode ? .currencyISOCode : .currency
        formatter.locale = Locale(identifier: locale)
        // Set the code and never `currencySymbol`: with a symbol set, the code is ignored.
        formatter.currencyCode = currency
        formatter.groupingSize = grouping.0
        formatter.secondaryGroupingSize = grouping.1
        formatter.usesGroupingSeparator = true

        // Fraction digits from what the formatter prints, not from its properties, which report 2
        // for every currency on Linux (JPY and KWD included).
        let probe = formatter.string(from: NSNumber(value: 1.123456789)) ?? ""
        let digits = probe.unicodeScalars.filter { $0.properties.numericType == .decimal }
        fractionDigits = max(digits.count - 1, 0)
        zero = digits.first.map { $0.value - UInt32($0.properties.numericValue ?? 0) } ?? 0x30
        let zeroValue = zero
        digitBytes = (0..<10).map { Array(String(Unicode.Scalar(zeroValue + UInt32($0))!).utf8) }
        formatter.minimumFractionDigits = fractionDigits
        formatter.maximumFractionDigits = fractionDigits

        var positive: [Pattern] = []
        var negative: [Pattern] = []
        for n in 0...Self.maxIntegerDigits {
            guard n > 0 else {
                positive.append(Pattern(bytes: [], slots: []))
                negative.append(Pattern(bytes: [], slots: []))
                continue
            }
            // A stand-in of n ones (and fraction ones): Double may change its digits past 15 but
            // never their count, since a run of ones cannot carry into a new digit.
            let text = String(repeating: "1", count: n) + (fractionDigits > 0 ? "." + String(repeating: "1", count: fractionDigits) : "")
            let value = Double(text)!
            positive.append(Self.pattern(formatter.string(from: NSNumber(value: value)) ?? ""))
            negative.append(Self.pattern(formatter.string(from: NSNumber(value: -value)) ?? ""))
        }
        self.positive = positive
        self.negative = negative
    }

    private static func pattern(_ text: String) -> Pattern {
        var bytes: [UInt8] = []
        var slots: [Int] = []
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal { slots.append(bytes.count) }
            bytes += Array(String(scalar).utf8)
        }
        return Pattern(bytes: bytes, slots: slots)
    }

    /// The amount as the customer sees it: rounded half-even to `fractionDigits` on its own
    /// decimal digits, then written into the pattern for its sign and integer-digit count. The
    /// sign is the amount's before rounding: like Foundation, -0.29 JPY shows as "-¥0".
    func format(_ amount: Decimal) -> String? {
        guard let (integer, fraction, negative) = Self.roundedDigits(of: amount, fractionDigits: fractionDigits),
              integer.count <= Self.maxIntegerDigits else { return nil }
        let pattern = (negative ? self.negative : self.positive)[integer.count]
        guard pattern.slots.count == integer.count + fraction.count else { return nil }
        var bytes = pattern.bytes
        var slot = 0
        for digits in [integer, fraction] {
            for d in digits {
                let encoded = digitBytes[Int(d)]
                let offset = pattern.slots[slot]
                for (k, b) in encoded.enumerated() { bytes[offset + k] = b }
                slot += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Digit values (0–9) of the integer part (at least one) and exactly `fractionDigits` fraction
    /// digits, rounded half-even, and whether the amount is negative; read from the `Decimal`'s
    /// exact decimal text (its mantissa is not public on Linux), never through `Double`.
    static func roundedDigits(of value: Decimal, fractionDigits: Int) -> ([UInt8], [UInt8], Bool)? {
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        var negative = false
        if let parts = DecimalDigits.parts(of: value) {
            // mantissa × 10^exponent, written out.
            negative = parts.negative
            var digits: [UInt8] = []
            var m = parts.mantissa
            repeat {
                digits.append(UInt8(m % 10))
                m /= 10
            } while m > 0
            digits.reverse()
            if parts.exponent >= 0 {
                integer = digits + [UInt8](repeating: 0, count: parts.exponent)
            } else {
                let places = -parts.exponent
                if digits.count <= places { digits = [UInt8](repeating: 0, count: places + 1 - digits.count) + digits }
                integer = Array(digits[0..<(digits.count - places)])
                fraction = Array(digits[(digits.count - places)...])
            }
        } else {
            var seenPoint = false
            for c in value.description.utf8 {
                switch c {
                case UInt8(ascii: "-"): negative = true
                case UInt8(ascii: "."): seenPoint = true
                case 0x30...0x39: if seenPoint { fraction.append(c - 0x30) } else { integer.append(c - 0x30) }
                default: return nil
                }
            }
        }
        if integer.isEmpty { integer = [0] }
        if fraction.count > fractionDigits {
            let rest = fraction[fractionDigits...]
            let first = rest.first!
            let tieOrMore = first > 5 || (first == 5 && rest.dropFirst().contains { $0 != 0 })
            let exactlyHalf = first == 5 && !rest.dropFirst().contains { $0 != 0 }
            fraction.removeLast(fraction.count - fractionDigits)
            let last = fraction.last ?? integer.last!
            if tieOrMore || (exactlyHalf && last % 2 == 1) {
                // Carry one unit in the last kept place.
                var carry = true
                for i in fraction.indices.reversed() where carry {
                    if fraction[i] == 9 { fraction[i] = 0 } else { fraction[i] += 1; carry = false }
                }
                for i in integer.indices.reversed() where carry {
                    if integer[i] == 9 { integer[i] = 0 } else { integer[i] += 1; carry = false }
                }
                if carry { integer.insert(1, at: 0) }
            }
        }
        fraction += [UInt8](repeating: 0, count: fractionDigits - fraction.count)
        while integer.count > 1 && integer[0] == 0 { integer.removeFirst() }
        return (integer, fraction, negative)
    }
}
