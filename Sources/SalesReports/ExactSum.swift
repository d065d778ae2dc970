import Foundation

/// An amount as a report writes it: digits and a decimal point, read exactly (`-4.99` is
/// mantissa −499, scale 2). Never a binary floating-point number.
struct FixedAmount: Sendable {
    var mantissa: Int64
    var scale: Int

    var decimal: Decimal {
        Decimal(sign: mantissa < 0 ? .minus : .plus, exponent: -scale, significand: Decimal(mantissa.magnitude))
    }

    var magnitude: FixedAmount { FixedAmount(mantissa: abs(mantissa), scale: scale) }
}

/// An exact running sum of decimal amounts: whole millionths in a 64-bit integer while they fit,
/// `Decimal` for anything finer or larger. Summing a million rows this way is exact and several
/// times faster than a million `Decimal` additions; the result is a `Decimal`.
struct ExactSum: Sendable {
    static let scale = 6
    private static let powers: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    private var micros: Int64 = 0
    /// What did not fit in `micros`: rare, so boxed, keeping a group's totals small.
    private var overflow: Overflow?

    private final class Overflow: Sendable {
        let value: Decimal
        init(_ value: Decimal) { self.value = value }
    }

    private var rest: Decimal {
        get { overflow?.value ?? 0 }
        set { overflow = Overflow(newValue) }
    }

    /// Adds `count × amount` (count may be negative).
    mutating func add(_ amount: FixedAmount, times count: Int) {
        if amount.scale <= Self.scale {
            let (scaled, o1) = amount.mantissa.multipliedReportingOverflow(by: Self.powers[Self.scale - amount.scale])
            let (product, o2) = scaled.multipliedReportingOverflow(by: Int64(count))
            let (sum, o3) = micros.addingReportingOverflow(product)
            if !o1, !o2, !o3 {
                micros = sum
                return
            }
        }
        rest += amount.decimal * Decimal(count)
    }

    static func += (a: inout ExactSum, b: ExactSum) {
        let (sum, overflow) = a.micros.addingReportingOverflow(b.micros)
        if overflow {
            a.rest += b.microsDecimal
        } else {
            a.micros = sum
        }
        a.rest += b.rest
    }

    private var microsDecimal: Decimal {
        Decimal(sign: micros < 0 ? .minus : .plus, exponent: -Self.scale, significand: Decimal(micros.magnitude))
    }

    /// The sum, exact, without trailing zeros beyond what the amounts had.
    var value: Decimal {
        var total = microsDecimal + rest
        // Normalise: 12.340000 → 12.34 (the same number; shorter text in JSON and CSV).
        NSDecimalCompact(&total)
        return total
    }
}
