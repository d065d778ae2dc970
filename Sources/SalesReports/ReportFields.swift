import Foundation

/// A calendar day, as the reports write it (`MM/DD/YYYY` in sales and financial reports,
/// `YYYY-MM-DD` in subscription event reports).
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (a: Day, b: Day) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// ISO 8601: `2026-11-02`.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = "\(year)"
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + two(month) + "-" + two(day)
    }

    /// The date forms reports use.
    public enum Form: Sendable {
        /// `11/02/2026`
        case monthDayYear
        /// `2026-11-02`
        case isoDate

        var example: String { self == .monthDayYear ? "MM/DD/YYYY" : "YYYY-MM-DD" }
    }

    /// Parses exactly one form, with a real calendar check (no 02/30).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ form: Form) -> Day? {
        guard bytes.count == 10 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                let b = bytes[i]
                guard b >= 0x30, b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        let y, m, d: Int?
        switch form {
        case .monthDayYear:
            guard bytes[2] == 0x2F, bytes[5] == 0x2F else { return nil }
            (m, d, y) = (number(0..<2), number(3..<5), number(6..<10))
        case .isoDate:
            guard bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
            (y, m, d) = (number(0..<4), number(5..<7), number(8..<10))
        }
        guard let y, let m, let d, (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return nil }
        return Day(year: y, month: m, day: d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Reading one field's bytes as the value a column holds.
enum FieldParse {
    /// A whole number, optionally signed (`-1` for a refunded unit).
    static func integer(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty, b.count <= 18 else { return nil }
        var i = 0
        var negative = false
        if b[0] == 0x2D || b[0] == 0x2B { negative = b[0] == 0x2D; i = 1 }
        guard i < b.count else { return nil }
        var n = 0
        while i < b.count {
            let c = b[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            n = n * 10 + Int(c - 0x30)
            i += 1
        }
        return negative ? -n : n
    }

    /// An amount's digits exactly (up to 18 significant digits), for exact sums.
    static func fixed(_ b: UnsafeBufferPointer<UInt8>) -> FixedAmount? {
        guard !b.isEmpty else { return nil }
        var i = 0
        var negative = false
        if b[0] == 0x2D || b[0] == 0x2B { negative = b[0] == 0x2D; i = 1 }
        var mantissa: Int64 = 0
        var significant = 0
        var scale = 0
        var sawDigit = false
        var seenPoint = false
        while i < b.count {
            let c = b[i]
            if c == 0x2E {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if c >= 0x30, c <= 0x39 {
                sawDigit = true
                if mantissa > 0 || c != 0x30 { significant += 1 }
                guard significant <= 18 else { return nil }
                mantissa = mantissa * 10 + Int64(c - 0x30)
                if seenPoint { scale += 1 }
            } else {
                return nil
            }
            i += 1
        }
        guard sawDigit else { return nil }
        return FixedAmount(mantissa: negative ? -mantissa : mantissa, scale: scale)
    }

    /// A decimal amount such as `0.99`, `-4.99`, `1234` or `.5`, read exactly into `Decimal`
    /// (never through a binary floating-point number); more than 18 digits through Foundation's
    /// exact decimal parser.
    static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> Decimal? {
        if let amount = fixed(b) { return amount.decimal }
        guard b.count > 18, b.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }) else { return nil }
        return Decimal(string: String(decoding: b, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX"))
    }

    static func integer(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { integer($0) }
    }

    static func decimal(_ text: String) -> Decimal? {
        var text = text
        return text.withUTF8 { decimal($0) }
    }

}
