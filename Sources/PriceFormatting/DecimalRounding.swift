import Foundation

extension Decimal {
    /// Rounded half away from zero to `places` decimal places (`.plain`), for display and
    /// drawing only: sums are never rounded.
    public func rounded(places: Int) -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }

    /// Rounded to a whole number, for pixel positions.
    public var wholeNumber: Int { NSDecimalNumber(decimal: rounded(places: 0)).intValue }
}
