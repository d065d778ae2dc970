import Diagnostics
import Foundation

/// What each value App Store Connect gives can be: the one set of checks for a server's answer
/// (as the pull reads it) and for a snapshot file (as `diff`, `check` and `pull -o` read it), so
/// neither a server nor a committed file can put a value into a snapshot, a `.storekit` file or a
/// message that App Store Connect itself would never hold. Each check returns why the value is
/// not one (`not a price (…)`), or nil.
public enum ASCValue {
    /// App Store Connect allows product IDs of 100 characters; past this a value is not one.
    public static let maxProductID = 255
    /// The longest text App Store Connect holds for a product (a review note) is 4,000 characters.
    public static let maxText = 4_000
    /// Subscription group levels: 1 (the highest) to the number of subscriptions in the group,
    /// which is under the 10,000 products an app may have.
    public static let groupLevels = 1...10_000
    /// Introductory-offer periods: pay-as-you-go offers run up to 12 periods, the others one.
    public static let offerPeriods = 1...100

    public static func productID(_ value: String) -> String? {
        if value.isEmpty { return "empty" }
        if value.utf8.count > maxProductID { return "longer than \(maxProductID) bytes" }
        if value.unicodeScalars.contains(where: isControlOrSpace) { return "a space or a control character in it" }
        return nil
    }

    /// A name or description.
    public static func text(_ value: String) -> String? {
        value.utf8.count > maxText * 4 || value.count > maxText ? "longer than \(maxText) characters" : nil
    }

    /// An enumeration's value (`CONSUMABLE`, `APPROVED`, `ONE_MONTH`, `FREE_TRIAL`): capital
    /// letters, digits and `_`, 1 to 64 of them. One this version does not know is kept as it is.
    /// The most promotional offers a subscription may have in a snapshot (App Store Connect
    /// allows 10 active; a list longer than this is not one).
    public static let maxPromotionalOffers = 1_000

    /// An introductory offer's modes and durations (Apple's document's enumerations).
    public static let offerModes: Set<String> = ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT"]
    public static let customerEligibilities: Set<String> = ["NEW", "EXISTING", "EXPIRED"]
    public static let offerEligibilities: Set<String> = ["STACK_WITH_INTRO_OFFERS", "REPLACE_INTRO_OFFERS"]
    public static let offerDurations: Set<String> = ["THREE_DAYS", "ONE_WEEK", "TWO_WEEKS", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"]

    public static func token(_ value: String) -> String? {
        let ok = !value.isEmpty && value.utf8.count <= 64
            && value.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        return ok ? nil : "not one of App Store Connect's values (capital letters, digits and '_')"
    }

    /// A locale as App Store Connect writes it (`en-US`, `zh-Hans`, `es-419`).
    public static func locale(_ value: String) -> String? {
        let ok = !value.isEmpty && value.utf8.count <= 35
            && value.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
        return ok ? nil : "not a locale (letters, digits, '-' and '_')"
    }

    /// A territory (`USA`) or a currency (`USD`): three capital letters.
    public static func code(_ value: String) -> String? {
        value.utf8.count == 3 && value.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) ? nil : "not three capital letters"
    }

    /// A customer price as App Store Connect writes it: digits, and a fraction after a point
    /// (`0.99`, `120`, `1200.0`); no sign, exponent, hexadecimal or grouping.
    public static func price(_ value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        let ok = parts.count <= 2 && !parts[0].isEmpty && parts[0].utf8.count <= 12 && digits(parts[0])
            && (parts.count == 1 || (!parts[1].isEmpty && parts[1].utf8.count <= 6 && digits(parts[1])))
        return ok ? nil : "not a price (digits with an optional fraction: 0.99)"
    }

    /// The value of a price `price(_:)` accepts, exactly, without a locale's parser: its digits as
    /// a significand and its fraction's length as the exponent (a price-points file holds
    /// 300,000 of them; `Decimal(string:locale:)` took 30 µs each).
    public static func decimal(_ value: String) -> Decimal? {
        // One pass: what `price(_:)` accepts (at most 12 digits, a point, at most 6 digits).
        var significand: UInt64 = 0
        var whole = 0, fraction = 0
        var inFraction = false
        for byte in value.utf8 {
            if byte == 0x2E {
                guard !inFraction, whole > 0 else { return nil }
                inFraction = true
                continue
            }
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            if inFraction { fraction += 1 } else { whole += 1 }
            // Past 12 and 6 digits it is no price: stop before the significand overflows.
            guard whole <= 12, fraction <= 6 else { return nil }
            significand = significand * 10 + UInt64(byte - 0x30)
        }
        guard whole > 0, whole <= 12, !inFraction || (fraction > 0 && fraction <= 6) else { return nil }
        return Decimal(sign: .plus, exponent: -fraction, significand: Decimal(significand))
    }

    /// A day, `2026-11-26`.
    public static func date(_ value: String) -> String? {
        let u = Array(value.utf8)
        let ok = u.count == 10 && u[4] == 0x2D && u[7] == 0x2D
            && u.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || ($0.element >= 0x30 && $0.element <= 0x39) }
        return ok ? nil : "not a day (YYYY-MM-DD)"
    }

    public static func groupLevel(_ value: Int) -> String? {
        groupLevels.contains(value) ? nil : "not between \(groupLevels.lowerBound) and \(groupLevels.upperBound)"
    }

    /// The most prices to come one territory of a product may have in a snapshot.
    public static let maxScheduledPrices = 100

    /// A win-back offer's eligibility, in months.
    public static let eligibilityMonths = 0...1200

    public static func months(_ value: Int) -> String? {
        eligibilityMonths.contains(value) ? nil : "not between \(eligibilityMonths.lowerBound) and \(eligibilityMonths.upperBound) months"
    }

    public static func offerPeriods(_ value: Int) -> String? {
        offerPeriods.contains(value) ? nil : "not between \(offerPeriods.lowerBound) and \(offerPeriods.upperBound)"
    }

    private static func isControlOrSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isWhitespace
    }
}

/// Checks values one after another, stopping at the first that is not one, with where it is.
struct ValueChecker {
    /// Where the first bad value is and why; nil while all are good.
    private(set) var problem: (at: String, why: String)?

    /// `why` follows the value: `… is '0x10': not a price (…)`.
    mutating func check(_ value: String?, at path: @autoclosure () -> String, _ rule: (String) -> String?) {
        guard problem == nil, let value, let why = rule(value) else { return }
        problem = (path(), "is \(Quote.escaped(value)): \(why)")
    }

    mutating func check(_ value: Int?, at path: @autoclosure () -> String, _ rule: (Int) -> String?) {
        guard problem == nil, let value, let why = rule(value) else { return }
        problem = (path(), "is \(value): \(why)")
    }

    mutating func fail(at path: String, _ why: String) {
        if problem == nil { problem = (path, why) }
    }
}
