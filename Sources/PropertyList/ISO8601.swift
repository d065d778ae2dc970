import Foundation

/// The plist date form `2004-10-26T10:33:33Z`, parsed and written without a `DateFormatter`
/// (whose setup costs more than a whole small plist) and without the machine's time zone.
public enum ISO8601 {
    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (fractional seconds allowed); nil when malformed.
    public static func parse(_ text: Substring) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b.last == UInt8(ascii: "Z"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2)
        else { return nil }
        var fraction = 0.0
        if b.count > 20 {
            // ".123Z"
            guard b[19] == UInt8(ascii: "."), b.count > 21 else { return nil }
            var scale = 0.1
            for c in b[20..<(b.count - 1)] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                fraction += Double(c - 0x30) * scale
                scale /= 10
            }
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// The seconds since 1970 of the dates the form can write: 0000-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59Z.
    public static let secondsSince1970: ClosedRange<Double> =
        Double(daysFromCivil(year: 0, month: 1, day: 1) * 86_400)...Double(daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399)

    /// Writes `YYYY-MM-DDTHH:MM:SSZ` in UTC (whole seconds, as Apple's writer does). A date
    /// outside the years 0000 to 9999, which no reader of iap's makes, is written as the nearest
    /// one the form holds rather than trapping on a number of seconds no integer holds.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let clamped = seconds.isNaN ? 0 : min(max(seconds, secondsSince1970.lowerBound), secondsSince1970.upperBound)
        let total = Int(clamped)
        var days = total / 86_400
        var rest = total % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = civilFromDays(days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
            + pad(rest / 3600, 2) + ":" + pad(rest % 3600 / 60, 2) + ":" + pad(rest % 60, 2) + "Z"
    }

    private static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for c in b[start..<(start + count)] {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
