import Diagnostics
import Foundation

/// Counts and exact amounts for one group of report rows. Amounts are in one currency each: the
/// customer's (`customer`) and the proceeds' (`proceeds`), which the group's key names.
public struct Amounts: Sendable, Hashable {
    /// Units bought (refunds and restores not counted).
    public var sold = 0
    /// Units refunded (rows with negative units, or `R` in a Financial report).
    public var refunded = 0
    /// Units restored for free (product type `IA3`).
    public var restored = 0
    /// What customers paid, refunds subtracted.
    public var customer: Decimal = 0
    /// What the developer earns, refunds subtracted.
    public var proceeds: Decimal = 0

    public init() {}

    /// Net units: sold minus refunded.
    public var net: Int { sold - refunded }

    public static func += (a: inout Amounts, b: Amounts) {
        a.sold += b.sold
        a.refunded += b.refunded
        a.restored += b.restored
        a.customer += b.customer
        a.proceeds += b.proceeds
    }
}

/// The finest grouping of sales rows: every other total is summed from these.
public struct SalesKey: Sendable, Hashable {
    public var product: String
    public var productType: String
    /// Two-letter storefront (country) code, as reports write it.
    public var country: String
    public var customerCurrency: String
    public var proceedsCurrency: String
    public var day: Day?
}

/// A sales row's fields as interned numbers; `day` is YYYYMMDD (0 for none).
struct RowKey: Hashable, Sendable {
    var product: Int32
    var type: Int32
    var country: Int32
    var customer: Int32
    var proceeds: Int32
    var day: Int32
}

struct RowTotals: Sendable {
    var sold = 0
    var refunded = 0
    var restored = 0
    var customer = ExactSum()
    var proceeds = ExactSum()

    mutating func add(units: Int, restored isRestore: Bool, isReturn: Bool) {
        if isRestore { restored += units } else if isReturn { refunded += units } else { sold += units }
    }

    static func += (a: inout RowTotals, b: RowTotals) {
        a.sold += b.sold
        a.refunded += b.refunded
        a.restored += b.restored
        a.customer += b.customer
        a.proceeds += b.proceeds
    }

    var amounts: Amounts {
        var a = Amounts()
        a.sold = sold
        a.refunded = refunded
        a.restored = restored
        a.customer = customer.value
        a.proceeds = proceeds.value
        return a
    }
}

/// Subscription-event counts: one product, one event (`Subscribe`, `Refund`…), one day.
public struct EventKey: Sendable, Hashable {
    public var product: String
    public var event: String
    public var day: Day?
}

/// What one report file held.
public struct ReportFileSummary: Sendable, Hashable {
    public var path: String
    /// nil when the file could not be read or said there were no sales.
    public var kind: ReportKind?
    public var compressed: Bool
    /// Data rows read, bad ones included.
    public var rows: Int
    public var badRows: Int
    /// The file says there were no sales for its date.
    public var noSales: Bool
    /// The file read before whose rows this file repeats: its rows are not counted again.
    public var duplicateOf: String? = nil
}

/// What recognises a report given twice: its kind, its number of rows and a hash of its lines,
/// keyed afresh each run (`ContentDigest`).
struct ReportDigest: Hashable {
    var kind: ReportKind?
    var rows: Int
    var content: ContentDigest.Digest
}

/// Everything read from a set of reports: grouped totals, what each file held, and what was wrong.
/// Memory grows with the number of distinct groups, never with the number of rows.
public struct SalesLedger: Sendable {
    /// Sales rows by their interned fields (`interner`), summed exactly.
    var raw = RowTable()
    var interner = ByteInterner()
    /// Each report read, by its content, with the path it was read as.
    var digests: [ReportDigest: String] = [:]
    /// Interned values already noted as products (`firstSeen`, `titles`).
    var noted: [Bool] = []

    /// Sales and financial rows grouped by product, type, storefront, currencies and day.
    public var sales: [SalesKey: Amounts] {
        var out: [SalesKey: Amounts] = [:]
        out.reserveCapacity(raw.count)
        for (k, t) in zip(raw.keys, raw.totals) {
            let key = SalesKey(product: interner[k.product], productType: interner[k.type], country: interner[k.country],
                               customerCurrency: interner[k.customer], proceedsCurrency: interner[k.proceeds],
                               day: day(k.day))
            out[key] = t.amounts
        }
        return out
    }

    /// The sales rows `include` takes, summed by a grouping of their interned keys, exactly, then
    /// made `Amounts`.
    func grouped<K: Hashable>(where include: (RowKey) -> Bool = { _ in true }, _ key: (RowKey) -> K) -> [K: Amounts] {
        var groups: [K: RowTotals] = [:]
        for (k, t) in zip(raw.keys, raw.totals) where include(k) { groups[key(k), default: RowTotals()] += t }
        return groups.mapValues(\.amounts)
    }

    /// The interned Product Type Identifiers that are in-app purchases (Apple's table): the rows
    /// the in-app purchase totals count. Apps, bundles, updates, re-downloads and unknown codes
    /// are totalled apart.
    func inAppPurchaseTypes() -> Set<Int32> {
        Set(raw.keys.map(\.type)).filter { ProductType(code: interner[$0]).category.isInAppPurchase }
    }

    func day(_ encoded: Int32) -> Day? {
        encoded == 0 ? nil : Day(year: Int(encoded) / 10000, month: Int(encoded) / 100 % 100, day: Int(encoded) % 100)
    }
    /// Active subscriptions (Subscription reports): `sold` holds the subscribers, amounts are per period.
    public internal(set) var subscriptions: [SalesKey: Amounts] = [:]
    public internal(set) var events: [EventKey: Int] = [:]
    public internal(set) var titles: [String: String] = [:]
    /// Where each product was first seen, for diagnostics about it.
    public internal(set) var firstSeen: [String: SourceLocation] = [:]
    public internal(set) var files: [ReportFileSummary] = []
    public internal(set) var diagnostics: [Diagnostic] = []
    /// The `unreadable-report` finding of each file the OS would not open (also in
    /// `diagnostics`): the run reports the rest and then exits with status 2.
    public internal(set) var unopened: [Diagnostic] = []
    public internal(set) var firstDay: Day?
    public internal(set) var lastDay: Day?

    public init() {}

    /// The units of every row counted so far, each taken positive. Kept within `Int.max`, so that
    /// no sum of units, however the rows are grouped, can overflow.
    private(set) var unitsCounted = 0

    /// Counts a row's units (or subscribers, or events) before they are added to any total; false,
    /// leaving the count as it was, when the units of all rows would pass `Int.max`.
    mutating func count(units: Int) -> Bool {
        let (sum, overflow) = unitsCounted.addingReportingOverflow(units.magnitude > UInt(Int.max) ? Int.max : Int(units.magnitude))
        guard !overflow else { return false }
        unitsCounted = sum
        return true
    }

    /// Rows read from the reports counted (a report given twice counts once).
    public var rowCount: Int { files.reduce(0) { $0 + ($1.duplicateOf == nil ? $1.rows : 0) } }
    public var badRowCount: Int { files.reduce(0) { $0 + ($1.duplicateOf == nil ? $1.badRows : 0) } }

    /// Adds one file's sales rows to the totals.
    mutating func add(_ table: RowTable) {
        guard raw.count > 0 else {
            raw = table
            return
        }
        for (key, totals) in zip(table.keys, table.totals) {
            let at = raw.index(key)
            raw.totals[at] += totals
        }
    }

    mutating func see(_ day: Day) {
        if firstDay.map({ day < $0 }) ?? true { firstDay = day }
        if lastDay.map({ day > $0 }) ?? true { lastDay = day }
    }

    /// `note` for a product interned from a sales row: checked by number, no string hashed per row.
    mutating func note(interned id: Int32, title: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation) {
        let n = Int(id)
        if n < noted.count, noted[n] { return }
        if n >= noted.count { noted += repeatElement(false, count: n + 1 - noted.count) }
        noted[n] = true
        note(product: interner[id], title: title(), at: location())
    }

    mutating func note(product: String, title: String, at location: @autoclosure () -> SourceLocation) {
        if firstSeen[product] == nil {
            firstSeen[product] = location()
            if !title.isEmpty { titles[product] = title }
        }
    }
}
