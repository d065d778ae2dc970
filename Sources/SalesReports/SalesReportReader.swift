import Diagnostics
import Foundation
import Support

/// Reads App Store Connect reports into a `SalesLedger`, streaming: one line at a time, gzip or
/// plain. Columns are found by their header names. A row that does not parse is reported with its
/// file and line and left out of the totals; the rest of the file is still read.
public enum SalesReportReader {
    /// Unreadable rows reported one by one per file; the rest are summed up in one finding.
    public static let reportedBadRowsPerFile = 20

    /// Reads one report. `displayPath` is the path diagnostics and summaries name.
    public static func read(_ path: String, displayPath: String? = nil, into ledger: inout SalesLedger) {
        read(path, displayPath: displayPath, textLimit: LineReader.maxTextBytes, into: &ledger)
    }

    /// Reads one report, refusing the rest of it past `textLimit` bytes of text.
    static func read(_ path: String, displayPath: String? = nil, textLimit: Int, into ledger: inout SalesLedger) {
        let shown = displayPath ?? path
        var reader: LineReader
        do {
            reader = try LineReader(path: path, textLimit: textLimit)
        } catch {
            let why = if case .cannotOpen(let reason) = error { reason } else { "cannot be read" }
            let finding = UnreadableReportRule.description.finding("cannot open the report: \(why)", at: SourceLocation(path: shown))
            ledger.diagnostics.append(finding)
            ledger.unopened.append(finding)
            ledger.files.append(ReportFileSummary(path: shown, kind: nil, compressed: false, rows: 0, badRows: 0, noSales: false))
            return
        }
        var file = FileReading(path: shown, compressed: reader.compressed, findingsBefore: ledger.diagnostics.count)
        do {
            while let more = try reader.next({ line, number in file.handle(line, number: number, ledger: &ledger) }), more {}
            // The reader passes blank lines over: the last line is the file's, blank or not.
            if !file.stopped { file.lastLine = max(file.lastLine, reader.lineNumber) }
        } catch LineReader.Failure.tooLarge {
            ledger.diagnostics.append(UnreadableReportRule.description.finding(
                "the report holds more than \(textLimit) bytes of text (uncompressed), the most iap reads of one report; "
                    + "the rows before line \(reader.lineNumber + 1) are counted",
                at: SourceLocation(path: shown, line: reader.lineNumber + 1),
                fix: SuggestedFix("pass the report App Store Connect sends; split a larger one into several files")))
        } catch LineReader.Failure.lineTooLong {
            ledger.diagnostics.append(UnreadableReportRule.description.finding(
                "not a text report: line \(reader.lineNumber + 1) is longer than \(LineReader.longestLine >> 20) MB; the rows before it are counted",
                at: SourceLocation(path: shown, line: reader.lineNumber + 1)))
        } catch {
            let why = if let failure = error as? LineReader.Failure, case .damaged(let m) = failure { m } else { "\(error)" }
            ledger.diagnostics.append(UnreadableReportRule.description.finding(
                "the compressed report is damaged or cut short (\(why)); the rows before line \(reader.lineNumber + 1) are counted",
                at: SourceLocation(path: shown, line: reader.lineNumber + 1),
                fix: SuggestedFix("download the report again from App Store Connect")))
        }
        file.finish(ledger: &ledger)
    }
}

/// The state of reading one file.
struct FileReading {
    let path: String
    var summary: ReportFileSummary
    var columns: ColumnMap?
    /// Set when the header could not be used: the rest of the file is skipped.
    var stopped = false
    var starts: [Int] = []
    var ends: [Int] = []
    var badRowLines: [Int] = []
    var unknownTypes: Set<String> = []
    var fileDay: Day?
    // Financial reports: the sums their total lines are checked against.
    var financialUnits = 0
    /// Units of the Financial report's return rows (`R`, or negative), counted positive, and the
    /// sum of its other rows' units.
    var financialReturned = 0
    var financialSaleUnits = 0
    var financialAmount: Decimal = 0
    var financialCurrencies: Set<String> = []
    var totals: [String: (text: String, line: Int)] = [:]
    var lastLine = 0
    var restored: Int32?
    /// This file's totals, added to the ledger's when the file is not a report read before.
    var table = RowTable()
    var subscriptions: [SalesKey: Amounts] = [:]
    var events: [EventKey: Int] = [:]
    /// The file's lines, hashed to recognise the same report given twice (blank lines left out).
    var content = ContentDigest()
    /// The ledger's findings before this file: a duplicate's own are dropped with its rows.
    let findingsBefore: Int

    init(path: String, compressed: Bool, findingsBefore: Int) {
        self.findingsBefore = findingsBefore
        self.path = path
        self.summary = ReportFileSummary(path: path, kind: nil, compressed: compressed, rows: 0, badRows: 0, noSales: false)
        self.fileDay = FileReading.day(inFileName: (path as NSString).lastPathComponent)
    }

    /// Handles one line; returns false when the rest of the file is to be skipped.
    mutating func handle(_ line: UnsafeBufferPointer<UInt8>, number: Int, ledger: inout SalesLedger) -> Bool {
        lastLine = number
        if stopped { return false }
        guard let columns else { return header(line, number: number, ledger: &ledger) }
        if isBlank(line) { return true }
        content.add(line)
        if columns.kind == .financial, line.count > 6, line[0] == 0x54, String(decoding: line.prefix(6), as: UTF8.self) == "Total_" {
            let parts = String(decoding: line, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            totals[name] = (value, number)
            return true
        }
        split(line)
        summary.rows += 1
        if let problem = row(line, columns, number: number, ledger: &ledger) {
            bad(problem, line: number, column: problem.column, ledger: &ledger)
        }
        return true
    }

    // MARK: Rows

    struct Problem {
        var message: String
        var column: Int
    }

    /// Field offsets of the current line, tab-separated, each trimmed of spaces: a field holding
    /// a single space is empty.
    private mutating func split(_ line: UnsafeBufferPointer<UInt8>) {
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var s = 0
        var i = 0
        let n = line.count
        while true {
            if i == n || line[i] == 0x09 {
                var a = s, b = i
                while a < b, line[a] == 0x20 { a += 1 }
                while b > a, line[b - 1] == 0x20 { b -= 1 }
                starts.append(a)
                ends.append(b)
                if i == n { break }
                s = i + 1
            }
            i += 1
        }
    }

    private func bytes(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[starts[i]..<ends[i]])
    }

    private func string(_ line: UnsafeBufferPointer<UInt8>, _ i: Int?) -> String {
        guard let i else { return "" }
        return String(decoding: bytes(line, i), as: UTF8.self)
    }

    /// What is wrong with a field, named as the report's header names it (`Quantity 'two'…`).
    private func problem(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap, _ i: Int, _ what: String) -> Problem {
        let text = string(line, i)
        let shown = text.isEmpty ? "is empty" : "'\(text.prefix(40))' is not \(what)"
        return Problem(message: "\(Escape.printable(map.name(of: field).prefix(60))) \(shown)", column: starts[i] + 1)
    }

    // Field readers: each gives the field's value or throws what is wrong with it, at its column.

    private func integer(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> Int {
        let i = map[field]!
        guard let n = FieldParse.integer(bytes(line, i)) else { throw problem(line, field, map, i, "a whole number") }
        return n
    }

    /// A row's units (or subscribers, or events), counted into the ledger before any total takes
    /// them: past what an `Int` holds across all rows, the row is left out instead of trapping.
    private func counted(_ units: Int, _ field: Field, _ map: ColumnMap, ledger: inout SalesLedger) throws(Problem) -> Int {
        guard ledger.count(units: units) else {
            let i = map[field]!
            throw Problem(message: "\(Escape.printable(map.name(of: field).prefix(60))) \(units) would bring the units of the rows read "
                          + "past \(Int.max), the most iap can count", column: starts[i] + 1)
        }
        return units
    }

    /// An amount for exact sums (Summary Sales and Financial rows).
    private func fixed(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> FixedAmount {
        let i = map[field]!
        guard let amount = FieldParse.fixed(bytes(line, i)) else { throw problem(line, field, map, i, "a decimal amount such as 0.99") }
        return amount
    }

    /// An amount as a `Decimal` (Subscription rows).
    private func decimal(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> Decimal {
        let i = map[field]!
        guard let d = FieldParse.decimal(bytes(line, i)) else { throw problem(line, field, map, i, "a decimal amount such as 0.99") }
        return d
    }

    /// A currency code's bytes; blank is accepted for a zero amount (`blankIfZero`).
    private func currencyBytes(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap,
                               blankIfZero amount: FixedAmount? = nil) throws(Problem) -> UnsafeBufferPointer<UInt8> {
        let i = map[field]!
        let b = bytes(line, i)
        if b.isEmpty, let amount, amount.mantissa == 0 { return b }
        guard b.count == 3, b.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw problem(line, field, map, i, "an ISO 4217 currency code such as USD")
        }
        return b
    }

    private func currency(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> String {
        String(decoding: try currencyBytes(line, field, map), as: UTF8.self)
    }

    /// A field that must not be empty, as bytes.
    private func nonEmpty(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> UnsafeBufferPointer<UInt8> {
        let i = map[field]!
        guard starts[i] < ends[i] else { throw Problem(message: "\(Escape.printable(map.name(of: field).prefix(60))) is empty", column: starts[i] + 1) }
        return bytes(line, i)
    }

    private func required(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap) throws(Problem) -> String {
        String(decoding: try nonEmpty(line, field, map), as: UTF8.self)
    }

    private func date(_ line: UnsafeBufferPointer<UInt8>, _ field: Field, _ map: ColumnMap, _ form: Day.Form) throws(Problem) -> Day {
        let i = map[field]!
        guard let day = Day.parse(bytes(line, i), form) else { throw problem(line, field, map, i, "a date \(form.example)") }
        return day
    }

    /// Reads one data row into the ledger, or says what is wrong with it.
    private mutating func row(_ line: UnsafeBufferPointer<UInt8>, _ map: ColumnMap, number: Int,
                              ledger: inout SalesLedger) -> Problem? {
        // Trailing columns iap does not read may be missing, and extra ones empty; a row short of
        // a column iap reads, or with text past the header's last column, is misaligned.
        let extraText = starts.count > map.count && (map.count..<starts.count).contains { starts[$0] < ends[$0] }
        guard starts.count >= map.needed, !extraText else {
            return Problem(message: "the row has \(starts.count) field\(starts.count == 1 ? "" : "s"); the header has \(map.count)", column: 1)
        }
        do throws(Problem) {
            switch map.kind {
            case .summarySales, .financial:
                try salesRow(line, map, number: number, ledger: &ledger)
            case .subscription:
                let product = try required(line, .subscriptionName, map)
                let price = try decimal(line, .customerPrice, map)
                let customerCurrency = try currency(line, .customerCurrency, map)
                let proceeds = try decimal(line, .proceeds, map)
                let proceedsCurrency = try currency(line, .proceedsCurrency, map)
                let subscribersField: Field = map[.subscribers] != nil ? .subscribers : .activeStandard
                let subscribers = try counted(try integer(line, subscribersField, map), subscribersField, map, ledger: &ledger)
                if let fileDay { ledger.see(fileDay) }
                ledger.note(product: product, title: product, at: SourceLocation(path: path, line: number, column: 1))
                var a = Amounts()
                a.sold = subscribers
                a.customer = Decimal(subscribers) * price
                a.proceeds = Decimal(subscribers) * proceeds
                let key = SalesKey(product: product, productType: "IAY", country: string(line, map[.country]),
                                   customerCurrency: customerCurrency, proceedsCurrency: proceedsCurrency, day: fileDay)
                subscriptions[key, default: Amounts()] += a
            case .subscriptionEvent:
                let day = try date(line, .beginDate, map, .isoDate)
                let event = try required(line, .event, map)
                let product = try required(line, .subscriptionName, map)
                let quantity = try counted(try integer(line, .units, map), .units, map, ledger: &ledger)
                ledger.see(day)
                ledger.note(product: product, title: product, at: SourceLocation(path: path, line: number, column: 1))
                events[EventKey(product: product, event: event, day: day), default: 0] += quantity
            }
        } catch {
            return error
        }
        return nil
    }

    /// A Summary Sales or Financial row: its fields interned, its amounts summed exactly.
    private mutating func salesRow(_ line: UnsafeBufferPointer<UInt8>, _ map: ColumnMap, number: Int,
                                   ledger: inout SalesLedger) throws(Problem) {
        let financial = map.kind == .financial
        let productBytes = try nonEmpty(line, .product, map)
        let units = try integer(line, .units, map)
        let proceeds = try fixed(line, .proceeds, map)
        // Free rows (a free download, an update) leave the currency of a zero amount blank.
        var proceedsCurrency = try currencyBytes(line, .proceedsCurrency, map, blankIfZero: proceeds)
        let day = try date(line, .beginDate, map, .monthDayYear)
        var price = FixedAmount(mantissa: 0, scale: 0)
        var customerCurrency = proceedsCurrency
        if map[.customerPrice] != nil, map[.customerCurrency] != nil {
            price = try fixed(line, .customerPrice, map)
            customerCurrency = try currencyBytes(line, .customerCurrency, map, blankIfZero: price)
            if customerCurrency.isEmpty { customerCurrency = proceedsCurrency }
            if proceedsCurrency.isEmpty { proceedsCurrency = customerCurrency }
        }
        _ = try counted(units, .units, map, ledger: &ledger)
        var extended: FixedAmount?
        var isReturn = units < 0
        if financial {
            let e = try fixed(line, .extendedProceeds, map)
            extended = e
            financialUnits += units
            financialAmount += e.decimal
            financialCurrencies.insert(String(decoding: bytes(line, map[.proceedsCurrency]!), as: UTF8.self))
            if let i = map[.saleOrReturn], ends[i] - starts[i] == 1, line[starts[i]] | 0x20 == 0x72 { isReturn = true }
            if isReturn { financialReturned += abs(units) } else { financialSaleUnits += units }
        }
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let product = ledger.interner.id(productBytes)
        let typeIndex = map[.productType]
        let type = ledger.interner.id(typeIndex.map { bytes(line, $0) } ?? empty)
        if type.isNew, case let typeCode = ledger.interner[type.id], !typeCode.isEmpty, !ProductType(code: typeCode).isKnown,
           !unknownTypes.contains(typeCode) {
            unknownTypes.insert(typeCode)
            ledger.diagnostics.append(UnknownProductTypeRule.description.finding(
                "Product Type Identifier '\(typeCode)' is not in Apple's table: its rows are totalled as unknown, apart from the in-app purchases",
                at: SourceLocation(path: path, line: number, column: starts[typeIndex!] + 1)))
        }
        ledger.see(day)
        if let endIndex = map[.endDate], let end = Day.parse(bytes(line, endIndex), .monthDayYear), end > day { ledger.see(end) }
        ledger.note(interned: product.id, title: string(line, map[.title]), at: SourceLocation(path: path, line: number, column: 1))
        let key = RowKey(product: product.id, type: type.id, country: ledger.interner.id(map[.country].map { bytes(line, $0) } ?? empty).id,
                         customer: ledger.interner.id(customerCurrency).id, proceeds: ledger.interner.id(proceedsCurrency).id,
                         day: Int32(day.year * 10000 + day.month * 100 + day.day))
        let count = abs(units)
        let signed = isReturn ? -count : count
        let at = table.index(key)
        table.totals[at].add(units: count, restored: type.id == restoredType(&ledger), isReturn: isReturn)
        table.totals[at].customer.add(price.magnitude, times: signed)
        if let extended {
            table.totals[at].proceeds.add(extended.magnitude, times: isReturn ? -1 : 1)
        } else {
            table.totals[at].proceeds.add(proceeds.magnitude, times: signed)
        }
    }

    /// The interned number of `IA3`, the restored in-app purchase.
    private mutating func restoredType(_ ledger: inout SalesLedger) -> Int32 {
        if let restored { return restored }
        var code = Array("IA3".utf8)
        let id = code.withUnsafeMutableBufferPointer { ledger.interner.id(UnsafeBufferPointer($0)).id }
        restored = id
        return id
    }

    private mutating func bad(_ problem: Problem, line: Int, column: Int, ledger: inout SalesLedger) {
        summary.badRows += 1
        badRowLines.append(line)
        if badRowLines.count <= SalesReportReader.reportedBadRowsPerFile {
            ledger.diagnostics.append(UnreadableReportRowRule.description.finding(
                "\(problem.message): the row is left out of the totals", at: SourceLocation(path: path, line: line, column: column)))
        }
    }

}

extension FileReading.Problem: Error {}
