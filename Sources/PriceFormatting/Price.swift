import Foundation

/// An amount of money: a `Decimal`, never a binary floating-point number, and an ISO 4217 code.
public struct Price: Sendable, Hashable, CustomStringConvertible {
    public var amount: Decimal
    public var currency: String

    public init(_ amount: Decimal, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// Parses user-given text strictly: digits with an optional sign and one `.` (`1,99` is an
    /// error, not 1), at most 38 significant digits, and an exponent nowhere.
    public init(parsing text: String, currency: String) throws(PriceError) {
        guard let amount = AmountText.parse(text) else { throw .invalidAmount(text) }
        self.init(amount, currency: currency)
    }

    public var description: String { "\(amount) \(currency)" }
}

/// Why a price or locale could not be used, in words a user can act on.
public enum PriceError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidAmount(String)
    case unknownCurrency(String)
    case invalidLocale(String)
    case missingCurrency(String)
    case invalidPeriod(String)
    case unknownStorefront(String)

    public var description: String {
        switch self {
        case .invalidAmount(let text):
            "'\(text)' is not an amount: write digits with '.' for decimals, e.g. 0.99 or -12.50"
        case .unknownCurrency(let code):
            "'\(code)' is not an ISO 4217 currency code Foundation knows (e.g. USD, EUR, JPY)"
        case .invalidLocale(let text):
            "'\(text)' is not a locale identifier: use forms like en_US, pt-BR, ja_JP@currency=JPY"
        case .missingCurrency(let locale):
            "no currency for locale '\(locale)': pass --currency CODE or a locale like \(locale)@currency=EUR"
        case .invalidPeriod(let text):
            "'\(text)' is not a subscription period: use an ISO 8601 duration of one unit, e.g. P1W, P1M, P3M, P1Y, P3D"
        case .unknownStorefront(let code):
            "'\(code)' is not an App Store storefront: use an alpha-3 or alpha-2 code such as USA, JPN, DE (see iap storefronts)"
        }
    }
}

/// Strict text → `Decimal`: `0.99`, `-1`, `12345678901234567.89`. Never through `Double` and
/// never the lenient `Decimal(string:)`, which reads `1,99` as 1.
public enum AmountText {
    /// The decimals an amount is written with (`3.00` → 2, `3` → nil): `Decimal` keeps the value,
    /// not its trailing zeros.
    public static func writtenDecimals(_ text: String) -> Int? {
        guard let dot = text.lastIndex(of: ".") else { return nil }
        return text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }.count
    }

    public static func parse(_ text: String) -> Decimal? {
        let edges = [text.utf8.first, text.utf8.last]
        let t = edges.contains { $0 == 0x20 || $0 == 0x09 || ($0 ?? 0) >= 0x80 } ? text.trimmingCharacters(in: .whitespaces) : text
        var digitsBefore = 0
        var digitsAfter = 0
        var seenPoint = false
        for (i, c) in t.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard i == 0 else { return nil }
            case UInt8(ascii: "."):
                guard !seenPoint else { return nil }
                seenPoint = true
            case 0x30...0x39:
                if seenPoint { digitsAfter += 1 } else { digitsBefore += 1 }
            default:
                return nil
            }
        }
        guard digitsBefore > 0, !seenPoint || digitsAfter > 0, digitsBefore + digitsAfter <= 38 else { return nil }
        if digitsBefore + digitsAfter <= 18 { return exact(t.utf8) }
        return Decimal(string: t, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Up to 18 digits, checked above: the digits as an integer and a power of ten, exactly, with
    /// trailing zeros of the fraction dropped (`5.00` is 5, as `Decimal(string:)` gives it) and
    /// without `Decimal(string:)`'s scanner, which dominated loading prices.
    private static func exact(_ bytes: String.UTF8View) -> Decimal {
        var mantissa: UInt64 = 0
        var negative = false
        var fraction = 0
        var seenPoint = false
        var pendingZeros = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "0") where seenPoint:
                pendingZeros += 1
            case 0x30...0x39:
                for _ in 0..<pendingZeros { mantissa *= 10 }
                fraction += seenPoint ? pendingZeros + 1 : 0
                pendingZeros = 0
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
            default: break
            }
        }
        if mantissa == 0 { return Decimal(0) }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fraction, significand: Decimal(mantissa))
    }
}
