/// A subscription or offer period: an ISO 8601 duration of one unit (`P1W`, `P1M`, `P3M`, `P1Y`,
/// `P3D`, `P2W`), as App Store Connect and `.storekit` files write them.
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    public var value: Int
    public var unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `PnD`, `PnW`, `PnM`, `PnY` (n from 1 to 999).
    public init(iso8601 text: String) throws(PriceError) {
        let bytes = Array(text.uppercased().utf8)
        guard bytes.count >= 3, bytes.first == UInt8(ascii: "P"), let unit = Unit(rawValue: String(UnicodeScalar(bytes.last!))),
              let value = Int(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self)), (1...999).contains(value),
              bytes[1..<(bytes.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw .invalidPeriod(text) }
        self.init(value: value, unit: unit)
    }

    public var description: String { "P\(value)\(unit.rawValue)" }

    /// How many periods an offer may run for, as iap reads offers (`periods` in a metadata plist,
    /// `numberOfPeriods` in a `.storekit` file): App Store Connect offers at most 12 months.
    public static let offerPeriods: ClosedRange<Int> = 1...1000

    /// `count` periods end to end (`P3M` for 3 × `P1M`), or nil when the length is more than an
    /// `Int` holds: the length of an offer of several periods, without trapping on any count.
    public func times(_ count: Int) -> SubscriptionPeriod? {
        let (total, overflow) = value.multipliedReportingOverflow(by: count)
        return overflow ? nil : SubscriptionPeriod(value: total, unit: unit)
    }

    /// The period in months when it is a whole number of them (P1Y = 12), for per-month prices.
    public var months: Int? {
        switch unit {
        case .month: value
        case .year: value * 12
        default: nil
        }
    }
}
