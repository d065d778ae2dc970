import Diagnostics
import Foundation
import TestSupport
@testable import SalesReports
import XCTest

/// A header without a column its report needs: told which report it is, exactly the columns it
/// lacks and the needed ones it has, whichever column is missing, in every kind of report.
final class ReportHeaderTests: XCTestCase {
    static let fixtures = Prerequisite.packageRoot
        .appendingPathComponent("Tests/Fixtures/Sales")

    /// Each kind's fixture and the columns it needs, as that fixture's header spells them, in the
    /// order the message names them (written out here, not taken from the reader).
    static let kinds: [(kind: String, file: String, needed: [String])] = [
        ("Summary Sales", "S_D_80012345_20261102.txt",
         ["SKU", "Product Type Identifier", "Units", "Developer Proceeds", "Customer Price", "Customer Currency", "Currency of Proceeds",
          "Country Code", "Begin Date"]),
        ("Subscription", "Subscription_80012345_20261102.txt",
         ["Subscription Name", "Customer Price", "Customer Currency", "Developer Proceeds", "Proceeds Currency", "Country"]),
        ("Subscription Event", "Subscription_Event_80012345_20261102.txt",
         ["Event Date", "Event", "Subscription Name", "Quantity", "Country"]),
        ("Financial", "80012345_1126_EU.txt",
         ["Vendor Identifier", "Quantity", "Partner Share", "Extended Partner Share", "Partner Share Currency", "Start Date"]),
    ]

    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The findings of a report whose header is `header` (tab-separated) and whose rows are the fixture's.
    func findings(header: [String], rowsOf file: String) throws -> [String] {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        let url = try folder().appendingPathComponent("report.txt")
        try ([header.joined(separator: "\t")] + rows.map(String.init)).joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(url.path, displayPath: "report.txt", into: &ledger)
        return ledger.diagnostics.map { "\($0.location) \($0.ruleID): \($0.message)" }
    }

    /// The findings of `file` with the columns `dropped` taken out of its header and every row.
    func findings(of file: String, dropping dropped: Set<String>) throws -> [String] {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let kept = lines[0].indices.filter { !dropped.contains(String(lines[0][$0])) }
        let url = try folder().appendingPathComponent("report.txt")
        try lines.map { line in line.count == lines[0].count ? kept.map { String(line[$0]) }.joined(separator: "\t") : line.joined(separator: "\t") }
            .joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(url.path, displayPath: "report.txt", into: &ledger)
        return ledger.diagnostics.map { "\($0.location) \($0.ruleID): \($0.message)" }
    }

    func header(of file: String) throws -> [String] {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n", maxSplits: 1).first!.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every needed column of every kind, dropped from the header alone: the one it lacks, the others it has.
    func testEachMissingColumnIsNamedAloneWithTheOnesTheHeaderHas() throws {
        // Older names, where a kind's earlier headers used another (written out, as docs/reports.md says them).
        let older = ["Summary Sales/SKU": "Vendor Identifier", "Summary Sales/Developer Proceeds": "Royalty Price",
                     "Summary Sales/Currency of Proceeds": "Royalty Currency"]
        var checked = 0
        for (kind, file, needed) in Self.kinds {
            let full = try header(of: file)
            for dropped in needed {
                let others = needed.filter { $0 != dropped }
                let was = older["\(kind)/\(dropped)"].map { " (or '\($0)' in older reports)" } ?? ""
                XCTAssertEqual(try findings(header: full.filter { $0 != dropped }, rowsOf: file), [
                    "report.txt:1:1 unreadable-report: a \(kind) report without the column '\(dropped)'\(was); it has the other \(others.count) iap needs: "
                        + others.map { "'\($0)'" }.joined(separator: ", "),
                ], "\(kind) without \(dropped)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 9 + 6 + 5 + 6)
    }

    /// The case: a Summary Sales header that lacks Units, and the header that lacks the
    /// column a kind is told by and another: both named.
    func testAHeaderWithoutTheColumnItsKindIsToldByIsStillThatKind() throws {
        let summary = try header(of: "S_D_80012345_20261102.txt")
        XCTAssertEqual(try findings(header: summary.filter { $0 != "Units" && $0 != "Begin Date" }, rowsOf: "S_D_80012345_20261102.txt"), [
            "report.txt:1:1 unreadable-report: a Summary Sales report without the columns 'Units', 'Begin Date'; it has the other 7 iap needs: "
                + "'SKU', 'Product Type Identifier', 'Developer Proceeds', 'Customer Price', 'Customer Currency', 'Currency of Proceeds', 'Country Code'",
        ])
        // A Subscription report without either column of its subscribers.
        let subscription = try header(of: "Subscription_80012345_20261102.txt")
        XCTAssertEqual(try findings(header: subscription.filter { $0 != "Subscribers" && $0 != "Active Standard Price Subscriptions" },
                                    rowsOf: "Subscription_80012345_20261102.txt"), [
            "report.txt:1:1 unreadable-report: a Subscription report without the column 'Subscribers' (or 'Active Subscriptions' in older reports); "
                + "it has the other 6 iap needs: 'Subscription Name', 'Customer Price', 'Customer Currency', 'Developer Proceeds', 'Proceeds Currency', 'Country'",
        ])
        // Still read: a Subscription report with one of the two.
        XCTAssertEqual(try findings(of: "Subscription_80012345_20261102.txt", dropping: ["Subscribers"]), [])
    }

    /// A header that is no report's: the columns iap reads that it has, if any, named as it writes them.
    func testAHeaderOfNoReportSaysWhichReadColumnsItHas() throws {
        XCTAssertEqual(try findings(header: ["Provider", "SKU", "Title", "Notes"], rowsOf: "S_D_80012345_20261102.txt"), [
            "report.txt:1:1 unreadable-report: the header names no App Store Connect report iap reads (Summary Sales, Subscription, Subscription Event, Financial): "
                + "its 4 tab-separated names include only 'SKU', 'Title' of the columns they have, too few to tell which report it is",
        ])
        XCTAssertEqual(try findings(header: ["Name", "Age"], rowsOf: "S_D_80012345_20261102.txt"), [
            "report.txt:1:1 unreadable-report: the header names no App Store Connect report iap reads (Summary Sales, Subscription, Subscription Event, Financial): "
                + "its 2 tab-separated names include none of the columns they have",
        ])
    }

    /// True findings next to the class: every fixture's whole header still reads without a finding.
    func testWholeHeadersStillRead() throws {
        for (kind, file, _) in Self.kinds {
            XCTAssertEqual(try findings(header: try header(of: file), rowsOf: file), [], kind)
        }
    }
}
