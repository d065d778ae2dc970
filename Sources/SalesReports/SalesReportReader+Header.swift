import Diagnostics
import Foundation
import Support

/// The first line of a report file: its header, or what it is instead.
extension FileReading {
    // MARK: Header

    /// What a first line that is not a report's header looks like, without quoting it: a file
    /// that is not a report may be anything the job can read (a walk of a folder takes every
    /// `.txt` in it), and its text has no place in a CI log.
    static func shape(of line: String) -> String {
        let trimmed = line.drop { $0 == " " }
        let length = "\(line.count) characters"
        if trimmed.isEmpty { return "is blank" }
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\r" } ) || trimmed.contains("\u{FFFD}") {
            return "holds binary data (\(length)); it is not text"
        }
        if trimmed.hasPrefix("<") { return "starts like HTML or XML (\(length)): a web page saved instead of the report?" }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return "starts like JSON (\(length))" }
        if trimmed.contains(",") || trimmed.contains(";") { return "is separated by commas or semicolons (\(length)): a spreadsheet's export, not the report?" }
        return "has no tab (\(length))"
    }

    /// A header name as a message quotes it: trimmed, escaped, at most 60 characters.
    static func shown(_ name: String) -> String {
        Escape.printable(name.trimmingCharacters(in: .whitespaces).prefix(60))
    }

    mutating func header(_ line: UnsafeBufferPointer<UInt8>, number: Int, ledger: inout SalesLedger) -> Bool {
        if isBlank(line) { return true }
        var text = String(decoding: line, as: UTF8.self)
        // A byte-order mark, which some tools write when they save a report, is not part of the first name.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard text.contains("\t") else {
            let lowered = text.lowercased()
            if lowered.contains("no sales") || lowered.contains("no data") || lowered.contains("no transactions") {
                // App Store Connect's answer for a day without sales: an empty report.
                summary.noSales = true
            } else {
                ledger.diagnostics.append(UnreadableReportRule.description.finding(
                    "not a tab-separated App Store Connect report: its first line \(Self.shape(of: text))",
                    at: SourceLocation(path: path, line: number, column: 1),
                    fix: SuggestedFix("pass the .txt or .txt.gz file App Store Connect downloads (Sales and Trends, or Payments and Financial Reports)")))
            }
            stopped = true
            return false
        }
        let names = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch ColumnMap.resolve(names) {
        case .success(let map):
            columns = map
            content.add(text)
            summary.kind = map.kind
            return true
        case .failure(.unknownHeader(let recognised)):
            let shown = recognised.map { "'\(Self.shown($0))'" }
            let has = shown.isEmpty ? "none of the columns they have"
                : "only \(shown.joined(separator: ", ")) of the columns they have, too few to tell which report it is"
            ledger.diagnostics.append(UnreadableReportRule.description.finding(
                "the header names no App Store Connect report iap reads (Summary Sales, Subscription, Subscription Event, Financial): "
                    + "its \(names.count) tab-separated names include \(has)",
                at: SourceLocation(path: path, line: number, column: 1),
                fix: SuggestedFix("pass the .txt or .txt.gz file App Store Connect downloads; docs/reports.md lists the columns of each report iap reads")))
        case .failure(.missingColumns(let kind, let missing, let present)):
            // Named as this kind of report names them (a Financial report's units are 'Quantity'),
            // with the name older versions of its header used where that differs; then the needed
            // columns the header has, as it writes them.
            let named = missing.map { field in "'\(field.name(in: kind))'" + (field.olderName(in: kind).map { " (or '\($0)' in older reports)" } ?? "") }
            let has = present.isEmpty ? "" : "; it has the other \(present.count == 1 ? "one" : "\(present.count)") iap needs: "
                + present.map { "'\(Self.shown($0))'" }.joined(separator: ", ")
            ledger.diagnostics.append(UnreadableReportRule.description.finding(
                "a \(kind.rawValue) report without the column\(missing.count == 1 ? "" : "s") \(named.joined(separator: ", "))\(has)",
                at: SourceLocation(path: path, line: number, column: 1),
                fix: SuggestedFix("use the file as App Store Connect downloads it: iap finds columns by their header names (docs/reports.md lists them), and an edited header may have renamed or dropped one")))
        }
        stopped = true
        return false
    }
}
