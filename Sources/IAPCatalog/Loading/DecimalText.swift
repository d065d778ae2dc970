import Foundation

/// Strict text → `Decimal` for prices: `0.99`, `-1`, `12345678901234567.89`. Never through
/// `Double`, and never the lenient `Decimal(string:)` reading of `1,99` as 1.
public enum DecimalText {
    public static func parse(_ text: String) -> Decimal? {
        let t = text.trimmingCharacters(in: .whitespaces)
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
        return Decimal(string: t, locale: Locale(identifier: "en_US_POSIX"))
    }
}
