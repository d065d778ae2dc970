import Foundation
import XCTest

/// `iap report --sales` on reports as users have them: headers of 2009, a Financial report whose
/// Total_Units leaves out the returns, the same report downloaded twice, apps beside in-app
/// purchases, and the findings at the top of the HTML page. Expected values are added up by hand
/// from the fixtures' rows (Tests/Fixtures/Sales/Versions, Tests/Fixtures/Sales/Mixed).
final class ReportReadingEndToEndTests: XCTestCase {
    static let sales = "Tests/Fixtures/Sales"

    func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The Markdown section that starts with `## title`, up to the next section.
    func section(_ markdown: String, _ title: String) -> String? {
        guard let start = markdown.range(of: "## \(title)\n") else { return nil }
        let rest = markdown[start.lowerBound...]
        let end = rest.dropFirst(3).range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    func testASummarySalesReportOf2009IsTotalled() throws {
        let report = "\(Self.sales)/Versions/S_D_80012345_20090312.txt"
        let result = try IAPRunner.run(["report", "--sales", report])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, """
            \(report):4:1: warning: 'com.acme.puzzle.pro' was refunded for 1 of 3 units sold (33.3%) [high-refund-rate]
            \(report):4:1: note: fix: read its reviews and check that its name, description and price say what it is

            """)
        XCTAssertEqual(section(result.stdout, "Totals per currency").map { $0.split(separator: "\n").suffix(2).map(String.init) }, [
            "| GBP | 2 | 0 | GBP\u{A0}1.18 | GBP\u{A0}0.84 |",
            "| USD | 10 | 1 | USD\u{A0}16.91 | USD\u{A0}11.88 |",
        ])
    }

    func testTotalUnitsWithoutTheReturnsIsAWarningNotAnError() throws {
        let folder = try temporaryFolder("units")
        let text = try String(contentsOfFile: "\(IAPRunner.packageRoot.path)/\(Self.sales)/Versions/80012345_0309_US.txt", encoding: .utf8)
        let report = folder.appendingPathComponent("80012345_0309_US.txt")
        try text.replacingOccurrences(of: "Total_Units\t34", with: "Total_Units\t35").write(to: report, atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["report", "--sales", report.path, "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("""
            \(report.path):9:1: warning: Total_Units is 35 but the rows add up to 34, or 35 without the 1 returned unit: Apple does not document whether Total_Units counts returns [report-total-mismatch]

            """), result.stderr)
    }

    func testTheSameReportUnderTwoNamesIsCountedOnce() throws {
        let folder = try temporaryFolder("twice")
        let original = IAPRunner.packageRoot.appendingPathComponent("\(Self.sales)/S_D_80012345_20261102.txt")
        for name in ["S_D_80012345_20261102.txt", "S_D_80012345_20261102 (1).txt"] {
            try FileManager.default.copyItem(at: original, to: folder.appendingPathComponent(name))
        }
        let result = try IAPRunner.run(["report", "--sales", folder.path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("""
            \(folder.path)/S_D_80012345_20261102 (1).txt:1:1: warning: the same report as \(folder.path)/S_D_80012345_20261102.txt, read before it (the same 11 rows): its sales are counted once [duplicate-report]

            """), result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let currencies = try XCTUnwrap(object["currencies"] as? [[String: Any]])
        // Once: US coins 12, pro 6 (1 refunded), club 20, hints 2, gems 2.
        XCTAssertEqual(currencies.map { "\($0["currency"]!) \($0["sold"]!) \($0["refunded"]!)" }, ["EUR 4 0", "JPY 5 0", "KWD 3 0", "USD 42 1"])
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { ($0["duplicateOf"] as? String).map { ($0 as NSString).lastPathComponent } ?? "-" },
                       // Listed by path: the copy (' (1)' sorts first) is the one that repeats the original.
                       ["S_D_80012345_20261102.txt", "-"])
    }

    func testAppDownloadsUpdatesAndRedownloadsAreApartFromInAppPurchases() throws {
        let report = "\(Self.sales)/Mixed/S_D_80012345_20261110.txt"
        let result = try IAPRunner.run(["report", "--sales", report])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The paid app's refunds (1 of 5 paid downloads) are no in-app purchase's: high-refund-rate
        // is about what a catalog sells (RefundRateTests has an in-app purchase's beside an app's).
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.contains("- **Products**: 3 in-app purchases\n- **Apps and other types**: 1, totalled apart from the in-app purchases\n"), result.stdout)
        // In-app purchases: 6 coins at 0.99 (0.70) and 2 club at 2.99 (2.09); the restored pro is free.
        XCTAssertEqual(section(result.stdout, "Totals per currency").map { $0.split(separator: "\n").last.map(String.init) }, "| USD | 8 | 0 | USD\u{A0}11.92 | USD\u{A0}8.38 |")
        XCTAssertEqual(section(result.stdout, "Products").map { $0.split(separator: "\n").suffix(3).map(String.init) }, [
            "| com.acme.puzzle.club.monthly | Club Monthly | IAY (auto-renewable subscription) | 2 | 0 | 0 | 0% |",
            "| com.acme.puzzle.coins.100 | 100 Coins | IA1 (in-app purchase) | 6 | 0 | 0 | 0% |",
            "| com.acme.puzzle.pro | Puzzle Pro | IA3 (restored in-app purchase) | 0 | 0 | 1 |  |",
        ])
        // The app: 5 paid downloads at 0.99 (0.70), 1 refunded; 30 free; 12 updates; 4 re-downloads.
        XCTAssertEqual(section(result.stdout, "Apps and other product types").map { $0.split(separator: "\n").suffix(4).map(String.init) }, [
            "| puzzle-app | Acme Puzzle | 1 (app) | USD | 5 | 1 | USD\u{A0}3.96 | USD\u{A0}2.80 |",
            "| puzzle-app | Acme Puzzle | 1F (app) | USD | 30 | 0 | USD\u{A0}0.00 | USD\u{A0}0.00 |",
            "| puzzle-app | Acme Puzzle | 3F (re-download) | USD | 4 | 0 | USD\u{A0}0.00 | USD\u{A0}0.00 |",
            "| puzzle-app | Acme Puzzle | 7 (update) | USD | 12 | 0 | USD\u{A0}0.00 | USD\u{A0}0.00 |",
        ])
        // Nor in the charts: the HTML's products chart names the in-app purchases alone.
        let html = try IAPRunner.run(["report", "--sales", "\(Self.sales)/Mixed/S_D_80012345_20261110.txt", "--format", "html"]).stdout
        let charts = html.components(separatedBy: "<svg").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        XCTAssertEqual(charts.count, 2)
        XCTAssertFalse(charts.contains { $0.contains("puzzle-app") }, charts.joined())
        // CSV keeps every row, with its type's category, for a spreadsheet's own split.
        let csv = try IAPRunner.run(["report", "--sales", "\(Self.sales)/Mixed/S_D_80012345_20261110.txt", "--format", "csv"]).stdout
        XCTAssertEqual(csv.components(separatedBy: "\r\n").filter { $0.contains(",puzzle-app,") }.map { $0.components(separatedBy: ",")[4] },
                       ["app", "app", "re-download", "update"])
    }

    func testHTMLShowsErrorsAndWarningsAboveTheTables() throws {
        let result = try IAPRunner.run(["report", "--sales", "\(Self.sales)/80012345_1126_EU.txt", "\(Self.sales)/S_D_80012345_20261102.txt",
                                        "--format", "html"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = result.stdout
        let top = try XCTUnwrap(html.components(separatedBy: "<main>").first)
        XCTAssertFalse(top.contains("<table"))
        XCTAssertTrue(top.contains("""
            <p><strong>2 warnings</strong> to read before the totals (<a href="#section-8">every finding</a>):</p>
            <ul>
            <li class="warning"><span class="severity">warning</span> Summary Sales and Financial reports are totalled together: both count the same purchases, so every total counts them twice <span class="where">Tests/Fixtures/Sales/80012345_1126_EU.txt:1:1 [overlapping-reports]</span></li>
            """), top)
        // Sections: five in-app purchase tables, apps (the app's 1F downloads), Files, Findings.
        XCTAssertTrue(html.contains("<section id=\"section-8\">\n<h2>Findings</h2>"), html)
        // A page without errors or warnings has no notice, nor its styles.
        let clean = try IAPRunner.run(["report", "--sales", "\(Self.sales)/Subscription_80012345_20261102.txt", "--format", "html"]).stdout
        XCTAssertFalse(clean.contains("notices"))
    }
}
