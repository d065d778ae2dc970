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
    /// UTF-8 of the locale's digits 0…9, `digitWidth` bytes each (all the same within a script).
    private let digitTable: [UInt8]
    private let digitWidth: Int
    /// Index: integer digit count (1…38); value: positive and negative patterns.
    private let positive: [Pattern]
    private let negative: [Pattern]

    static let maxIntegerDigits = 38

    private init(fractionDigits: Int, zero: UInt32, digitTable: [UInt8], digitWidth: Int, positive: [Pattern], negative: [Pattern]) {
        self.fractionDigits = fractionDigits
        self.zero = zero
        self.digitTable = digitTable
        self.digitWidth = digitWidth
        self.positive = positive
        self.negative = negative
    }

    /// A copy with buffers of its own, for a cache stripe: threads then never touch the same
    /// reference counts.
    func copy() -> CurrencyTemplate {
        func fresh(_ patterns: [Pattern]) -> [Pattern] {
            patterns.map { Pattern(bytes: $0.bytes.map { $0 }, slots: $0.slots.map { $0 }) }
        }
        return CurrencyTemplate(fractionDigits: fractionDigits, zero: zero, digitTable: digitTable.map { $0 }, digitWidth: digitWidth,
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
        let encodings = (0..<10).map { Array(String(Unicode.Scalar(zeroValue + UInt32($0))!).utf8) }
        digitTable = encodings.flatMap { $0 }
        digitWidth = encodings[0].count
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
    /// Digits live in a stack buffer and the text is written straight into the String's storage.
    func format(_ amount: Decimal) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.bufferSize) { digits -> String? in
            guard let (integerCount, negative) = Self.roundedDigits(of: amount, fractionDigits: fractionDigits, into: digits),
                  integerCount <= Self.maxIntegerDigits else { return nil }
            let pattern = (negative ? self.negative : self.positive)[integerCount]
            let total = integerCount + fractionDigits
            guard pattern.slots.count == total else { return nil }
            let width = digitWidth
            return pattern.bytes.withUnsafeBufferPointer { template in
                pattern.slots.withUnsafeBufferPointer { slots in
                    digitTable.withUnsafeBufferPointer { table in
                        String(unsafeUninitializedCapacity: template.count) { out in
                            _ = out.initialize(from: template)
                            for i in 0..<total {
                                let from = Int(digits[i]) * width
                                for k in 0..<width { out[slots[i] + k] = table[from + k] }
                            }
                            return template.count
                        }
                    }
                }
            }
        }
    }

    static let bufferSize = 96

    /// Writes the digit values (0–9) of the amount rounded half-even to `fractionDigits` places
    /// into `out` — integer digits (at least one, no leading zeros) then exactly `fractionDigits`
    /// fraction digits — and returns how many are integer digits and whether the amount is
    /// negative. Read from the `Decimal`'s layout or its exact text, never through `Double`.
    static func roundedDigits(of value: Decimal, fractionDigits fd: Int,
                              into out: UnsafeMutableBufferPointer<UInt8>) -> (Int, Bool)? {
        var n = 0
        var exponent = 0
        var negative = false
        if let parts = DecimalDigits.parts(of: value) {
            negative = parts.negative
            exponent = parts.exponent
            var m = parts.mantissa
            repeat {
                out[n] = UInt8(m % 10)
                n += 1
                m /= 10
            } while m > 0
            var (i, j) = (0, n - 1)
            while i < j { out.swapAt(i, j); i += 1; j -= 1 }
        } else {
            var seenPoint = false
            for c in value.description.utf8 {
                switch c {
                case UInt8(ascii: "-"): negative = true
                case UInt8(ascii: "."): seenPoint = true
                case 0x30...0x39:
                    guard n < out.count - 8 else { return nil }
                    out[n] = c - 0x30
                    n += 1
                    if seenPoint { exponent -= 1 }
                default: return nil
                }
            }
        }
        // value = out[0..<n] × 10^exponent; bring it to exactly `fd` fraction digits.
        func shiftRight(_ by: Int) {
            var i = n - 1
            while i >= 0 { out[i + by] = out[i]; i -= 1 }
            for k in 0..<by { out[k] = 0 }
            n += by
        }
        let shift = exponent + fd
        if shift >= 0 {
            guard n + shift < out.count - 2 else { return nil }
            for k in 0..<shift { out[n + k] = 0 }
            n += shift
        } else {
            let drop = -shift
            if drop >= n { shiftRight(drop - n + 1) }
            let first = out[n - drop]
            var restNonZero = false
            for k in (n - drop + 1)..<n where out[k] != 0 { restNonZero = true; break }
            n -= drop
            if first > 5 || (first == 5 && (restNonZero || out[n - 1] % 2 == 1)) {
                var i = n - 1
                while i >= 0 {
                    if out[i] == 9 { out[i] = 0; i -= 1 } else { out[i] += 1; break }
                }
                if i < 0 { shiftRight(1); out[0] = 1 }
            }
        }
        if n <= fd { shiftRight(fd - n + 1) }
        // Leading zeros of the integer part (keep one).
        var lead = 0
        while lead < n - fd - 1 && out[lead] == 0 { lead += 1 }
        if lead > 0 {
            for k in lead..<n { out[k - lead] = out[k] }
            n -= lead
        }
        return (n - fd, negative)
    }
}
