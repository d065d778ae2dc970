import Diagnostics
import Foundation
import Support

/// The end of a report file: its totals line, or their absence, checked against the rows.
extension FileReading {
    // MARK: End of file

    mutating func finish(ledger: inout SalesLedger) {
        let extra = badRowLines.count - SalesReportReader.reportedBadRowsPerFile
        if extra > 0 {
            let first = badRowLines[SalesReportReader.reportedBadRowsPerFile]
            ledger.diagnostics.append(UnreadableReportRowRule.description.finding(
                "\(extra) more unreadable row\(extra == 1 ? "" : "s") from this line on are left out of the totals (\(badRowLines.count) in all)",
                at: SourceLocation(path: path, line: first, column: 1)))
        }
        if summary.kind == .financial { checkTotals(ledger: &ledger) }
        if summary.rows > 0 {
            // A Subscription report's rows have no date: its day, from the file name, is part of it.
            if summary.kind == .subscription { content.add(fileDay?.description ?? "") }
            let digest = ReportDigest(kind: summary.kind, rows: summary.rows, content: content.finalize())
            if let first = ledger.digests[digest] {
                // Counted once: the rows and this file's findings (the first copy's, again) are dropped.
                ledger.diagnostics.removeSubrange(findingsBefore...)
                ledger.diagnostics.append(DuplicateReportRule.description.finding(
                    "the same report as \(first), read before it (the same \(summary.rows) row\(summary.rows == 1 ? "" : "s")): its sales are counted once",
                    at: SourceLocation(path: path, line: 1, column: 1),
                    fix: SuggestedFix("pass each report once (a browser names a second download '… (1).txt')")))
                summary.duplicateOf = first
                ledger.files.append(summary)
                return
            }
            ledger.digests[digest] = path
        }
        ledger.add(table)
        for (key, amounts) in subscriptions { ledger.subscriptions[key, default: Amounts()] += amounts }
        for (key, quantity) in events { ledger.events[key, default: 0] += quantity }
        ledger.files.append(summary)
    }

    /// A Financial report's Total_Rows, Total_Amount and Total_Units lines against the rows.
    /// Missing lines mean a file cut short (`report-totals-missing`, an error). Lines that disagree
    /// are `report-total-mismatch` warnings: Apple documents Quantity and Extended Partner Share
    /// as signed, but not whether Total_Units subtracts returns, so the message gives the sum
    /// both ways when the report has returns.
    func checkTotals(ledger: inout SalesLedger) {
        let names = ["Total_Rows", "Total_Amount", "Total_Units"]
        let missing = names.filter { totals[$0] == nil }
        guard missing.isEmpty else {
            ledger.diagnostics.append(ReportTotalsMissingRule.description.finding(
                "the Financial report ends without its \(missing.joined(separator: ", ")) line\(missing.count == 1 ? "" : "s"): it may be cut short",
                at: SourceLocation(path: path, line: lastLine, column: 1),
                fix: SuggestedFix("download the report again from Payments and Financial Reports")))
            return
        }
        let left = summary.badRows > 0 ? " (\(summary.badRows) unreadable row\(summary.badRows == 1 ? " is" : "s are") not in the sum)" : ""
        func mismatch(_ name: String, _ ours: String, then note: String = "") {
            let (text, line) = totals[name]!
            ledger.diagnostics.append(ReportTotalMismatchRule.description.finding(
                "\(name) is \(text) but the rows add up to \(ours)\(left)\(note)", at: SourceLocation(path: path, line: line, column: 1)))
        }
        let rowsText = totals["Total_Rows"]!.text
        if FieldParse.integer(rowsText) != summary.rows { mismatch("Total_Rows", "\(summary.rows) rows") }
        let amountText = totals["Total_Amount"]!.text
        if financialCurrencies.count <= 1 {
            if FieldParse.decimal(amountText) != financialAmount { mismatch("Total_Amount", "\(financialAmount)") }
        }
        if FieldParse.integer(totals["Total_Units"]!.text) != financialUnits {
            let returned = financialReturned
            if returned == 0 {
                mismatch("Total_Units", "\(financialUnits)")
            } else {
                mismatch("Total_Units", "\(financialUnits), or \(financialSaleUnits) without the \(returned) returned unit\(returned == 1 ? "" : "s")",
                         then: ": Apple does not document whether Total_Units counts returns")
            }
        }
    }

    func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// The day a Subscription report is for, from its file name (`Subscription_…_20261102.txt`).
    static func day(inFileName name: String) -> Day? {
        let digits = Array(name.utf8)
        var i = 0
        while i + 8 <= digits.count {
            let run = digits[i..<(i + 8)]
            if run.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), i + 8 == digits.count || !(digits[i + 8] >= 0x30 && digits[i + 8] <= 0x39),
               i == 0 || !(digits[i - 1] >= 0x30 && digits[i - 1] <= 0x39) {
                let s = String(decoding: run, as: UTF8.self)
                let iso = "\(s.prefix(4))-\(s.dropFirst(4).prefix(2))-\(s.suffix(2))"
                var bytes = Array(iso.utf8)
                if let day = bytes.withUnsafeMutableBufferPointer({ Day.parse(UnsafeBufferPointer($0), .isoDate) }) { return day }
            }
            i += 1
        }
        return nil
    }
}
