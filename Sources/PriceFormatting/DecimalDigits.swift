import Foundation

/// Reads a `Decimal`'s sign, exponent and (up to 64-bit) mantissa from its memory, because its
/// `_mantissa` is not public on Linux and `description` costs more than all the rest of
/// formatting a price. The layout is verified once against the public initializer
/// `Decimal(sign:exponent:significand:)`; if a Foundation version lays it out differently,
/// `parts(of:)` returns nil and callers use `description`.
enum DecimalDigits {
    struct Parts {
        var mantissa: UInt64
        var exponent: Int
        var negative: Bool
    }

    /// Whether the layout read here matches this Foundation's `Decimal` (checked on probes).
    static let layoutVerified: Bool = {
        guard MemoryLayout<Decimal>.size == 20 else { return false }
        let probes = ["0", "1", "-1.5", "0.99", "65536", "12345678901234567.89", "1e30", "-0.001", "4294967296.5"]
        return probes.allSatisfy { text in
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                  let p = read(value) else { return false }
            let rebuilt = Decimal(sign: p.negative ? .minus : .plus, exponent: p.exponent, significand: Decimal(p.mantissa))
            return rebuilt == value
        }
    }()

    static func parts(of value: Decimal) -> Parts? {
        layoutVerified ? read(value) : nil
    }

    /// Byte 0: exponent; byte 1: mantissa length in 16-bit words (high nibble) and sign (0x08);
    /// bytes 4…19: mantissa, little-endian words. Nil past 64 bits.
    private static func read(_ value: Decimal) -> Parts? {
        withUnsafeBytes(of: value) { raw -> Parts? in
            let length = Int(raw[1] >> 4)
            guard length <= 4 else { return nil }
            var mantissa: UInt64 = 0
            for word in 0..<length {
                mantissa |= (UInt64(raw[4 + 2 * word]) | UInt64(raw[5 + 2 * word]) << 8) << (16 * UInt64(word))
            }
            return Parts(mantissa: mantissa, exponent: Int(Int8(bitPattern: raw[0])), negative: raw[1] & 0x08 != 0)
        }
    }
}
