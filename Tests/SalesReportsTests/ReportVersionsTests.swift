import Diagnostics
import Foundation
@testable import SalesReports
import XCTest

/// Header versions from 2008 on, Financial total lines, messages in the report's own column
/// names, and a report given twice. The fixtures under Tests/Fixtures/Sales/Versions were written
/// for these tests; every expected total below is added up by hand from their rows.
final class ReportVersionsTests: XCTestCase {
    static let fixtures = SalesReaderTests.fixtures

    /// A temporary folder, removed when the test ends.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-versions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func fixture(_ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Reads files (full paths), each shown by its last path component.
    func read(_ paths: [URL]) -> SalesLedger {
        var ledger = SalesLedger()
        for url in paths { SalesReportReader.read(url.path, displayPath: url.lastPathComponent, into: &ledger) }
        return ledger
    }

    func findings(_ ledger: SalesLedger) -> [String] {
        ledger.diagnostics.map { "\($0.location) \($0.severity) \($0.ruleID): \($0.message)" }
    }

    // MARK: Header versions

    /// 2008–2010 Summary Sales headers: `Vendor Identifier`, `Title / Episode / Season`,
    /// `Royalty Price`, `Royalty Currency`; the 2010 one adds `Parent Identifier` and others.
    func testSummarySalesHeadersOf2009And2010AreRead() {
        let ledger = read(["Versions/S_D_80012345_20090312.txt", "Versions/S_D_80012345_20101015.txt"].map { Self.fixtures.appendingPathComponent($0) })
        XCTAssertEqual(findings(ledger), [])
        XCTAssertEqual(ledger.files.map(\.kind), [.summarySales, .summarySales])
        XCTAssertEqual(ledger.rowCount, 9)
        let totals = SalesTotals(ledger)
        // USD in-app purchases: 2009 7×0.99 coins + 3×4.99 − 1×4.99 pro (proceeds 0.70, 3.49); 2010 4×0.99 coins (0.70).
        XCTAssertEqual(totals.byCurrency.map { "\($0.currency) \($0.sold) \($0.refunded) \($0.customer) \($0.proceeds)" },
                       ["GBP 2 0 1.18 0.84", "USD 14 1 20.87 14.68"])
        XCTAssertEqual(ledger.titles["com.acme.puzzle.pro"], "Puzzle Pro")
        XCTAssertEqual(totals.products.map(\.product), ["com.acme.puzzle.coins.100", "com.acme.puzzle.pro"])
        // The app: 25 + 10 paid downloads at 0.99 (0.70 proceeds), 60 + 5 updates.
        XCTAssertEqual(totals.otherLines.map { "\($0.key.product) \($0.key.type) \($0.amounts.sold) \($0.amounts.customer) \($0.amounts.proceeds)" },
                       ["puzzle-app 1 35 34.65 24.5", "puzzle-app 7 65 0 0"])
        XCTAssertEqual(ledger.firstDay?.description, "2009-03-12")
        XCTAssertEqual(ledger.lastDay?.description, "2010-10-15")
    }

    /// Header names are matched whatever the spaces around a slash or between words.
    func testHeaderNamesMatchWhateverTheirSpacing() throws {
        let dir = try folder()
        let text = try fixture("Versions/S_D_80012345_20090312.txt")
            .replacingOccurrences(of: "Title / Episode / Season", with: "Title/Episode/Season")
            .replacingOccurrences(of: "Royalty Price", with: "  royalty  PRICE ")
        try text.write(to: dir.appendingPathComponent("S_D_1.txt"), atomically: true, encoding: .utf8)
        let ledger = read([dir.appendingPathComponent("S_D_1.txt")])
        XCTAssertEqual(findings(ledger), [])
        XCTAssertEqual(ledger.titles["com.acme.puzzle.coins.100"], "100 Coins")
        XCTAssertEqual(SalesTotals(ledger).byCurrency.map { "\($0.currency) \($0.proceeds)" }, ["GBP 0.84", "USD 11.88"])
    }

    /// The 2009 Financial header (`ISRC`, `Artist/Show/Developer`, `Country Of Sale`).
    func testFinancialHeaderOf2009IsRead() {
        let ledger = read([Self.fixtures.appendingPathComponent("Versions/80012345_0309_US.txt")])
        XCTAssertEqual(findings(ledger), [])
        XCTAssertEqual(ledger.files.map(\.kind), [.financial])
        let totals = SalesTotals(ledger)
        // 7 coins (4.90) + 3 pro (10.47) − 1 returned pro (3.49); the app's 25 (17.50) apart.
        XCTAssertEqual(totals.byCurrency.map { "\($0.currency) \($0.sold) \($0.refunded) \($0.customer) \($0.proceeds)" },
                       ["USD 10 1 16.91 11.88"])
        XCTAssertEqual(totals.others.map { "\($0.product) \($0.types) \($0.amounts.sold) \($0.amounts.proceeds)" }, ["puzzle-app [\"1\"] 25 17.5"])
    }

    // MARK: Total lines

    /// Apple does not document whether Total_Units subtracts returns: a Total_Units that counts the
    /// sale rows alone is a warning that gives both sums, not an error.
    func testTotalUnitsWithoutTheReturnsIsAWarningGivingBothSums() throws {
        let dir = try folder()
        try fixture("Versions/80012345_0309_US.txt").replacingOccurrences(of: "Total_Units\t34", with: "Total_Units\t35")
            .write(to: dir.appendingPathComponent("80012345_0309_US.txt"), atomically: true, encoding: .utf8)
        let ledger = read([dir.appendingPathComponent("80012345_0309_US.txt")])
        XCTAssertEqual(findings(ledger), [
            "80012345_0309_US.txt:9:1 warning report-total-mismatch: Total_Units is 35 but the rows add up to 34, or 35 without the 1 returned unit: Apple does not document whether Total_Units counts returns",
        ])
        XCTAssertEqual(ReportTotalMismatchRule.description.severity, .warning)
        XCTAssertEqual(ReportTotalsMissingRule.description.severity, .error)
        // The totals are the rows', whatever the total line says.
        XCTAssertEqual(SalesTotals(ledger).byCurrency.map { "\($0.sold) \($0.refunded) \($0.proceeds)" }, ["10 1 11.88"])
    }

    // MARK: Messages in the report's own words

    func testMissingAndBadColumnsAreNamedAsTheReportNamesThem() throws {
        let dir = try folder()
        let financial = try fixture("Versions/80012345_0309_US.txt")
        try financial.replacingOccurrences(of: "\tQuantity\t", with: "\tQty\t")
            .write(to: dir.appendingPathComponent("a_fin.txt"), atomically: true, encoding: .utf8)
        try financial.replacingOccurrences(of: "com.acme.puzzle.coins.100\t7\t", with: "com.acme.puzzle.coins.100\tseven\t")
            .write(to: dir.appendingPathComponent("b_fin.txt"), atomically: true, encoding: .utf8)
        try financial.replacingOccurrences(of: "\tVendor Identifier\t", with: "\tVendor\t")
            .replacingOccurrences(of: "\tPartner Share Currency\t", with: "\tCurrency\t")
            .write(to: dir.appendingPathComponent("c_fin.txt"), atomically: true, encoding: .utf8)
        try fixture("Versions/S_D_80012345_20090312.txt").replacingOccurrences(of: "Royalty Price", with: "Royalty")
            .write(to: dir.appendingPathComponent("d_sales.txt"), atomically: true, encoding: .utf8)
        let ledger = read(["a_fin.txt", "b_fin.txt", "c_fin.txt", "d_sales.txt"].map { dir.appendingPathComponent($0) })
        XCTAssertEqual(findings(ledger), [
            "a_fin.txt:1:1 error unreadable-report: a Financial report without the column 'Quantity'; it has the other 5 iap needs: 'Vendor Identifier', 'Partner Share', 'Extended Partner Share', 'Partner Share Currency', 'Start Date'",
            // Column 53: after two dates, two blank fields and the 25-character product ID, each with its tab.
            "b_fin.txt:2:53 error unreadable-report-row: Quantity 'seven' is not a whole number: the row is left out of the totals",
            // Without the 7 coins (4.90): 29.38 − 4.90, and 3 − 1 + 25 units (28 without the returned one).
            "b_fin.txt:8:1 warning report-total-mismatch: Total_Amount is 29.38 but the rows add up to 24.48 (1 unreadable row is not in the sum)",
            "b_fin.txt:9:1 warning report-total-mismatch: Total_Units is 34 but the rows add up to 27, or 28 without the 1 returned unit (1 unreadable row is not in the sum): Apple does not document whether Total_Units counts returns",
            "c_fin.txt:1:1 error unreadable-report: a Financial report without the columns 'Vendor Identifier', 'Partner Share Currency'; it has the other 4 iap needs: 'Quantity', 'Partner Share', 'Extended Partner Share', 'Start Date'",
            "d_sales.txt:1:1 error unreadable-report: a Summary Sales report without the column 'Developer Proceeds' (or 'Royalty Price' in older reports); it has the other 8 iap needs: 'Vendor Identifier', 'Product Type Identifier', 'Units', 'Customer Price', 'Customer Currency', 'Royalty Currency', 'Country Code', 'Begin Date'",
        ])
    }

    // MARK: The same report twice

    func testTheSameReportGivenTwiceIsCountedOnceWithAWarningNamingBoth() throws {
        let dir = try folder()
        // A browser's second download, byte for byte; and the unpacked text of a .txt.gz beside it.
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("S_D_80012345_20261102.txt"),
                                         to: dir.appendingPathComponent("S_D_80012345_20261102 (1).txt"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("S_D_80012345_20261102.txt"),
                                         to: dir.appendingPathComponent("S_D_80012345_20261102.txt"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("S_D_80012345_20261103.txt.gz"),
                                         to: dir.appendingPathComponent("S_D_80012345_20261103.txt.gz"))
        let unpacked = zcat(Self.fixtures.appendingPathComponent("S_D_80012345_20261103.txt.gz"))
        try unpacked.replacingOccurrences(of: "\n", with: "\r\n").write(to: dir.appendingPathComponent("S_D_80012345_20261103.txt"), atomically: true, encoding: .utf8)
        // A report with unreadable rows, twice: its row findings once.
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("S_D_80012345_20261104_v1_0.txt"),
                                         to: dir.appendingPathComponent("S_D_80012345_20261104_v1_0.txt"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("S_D_80012345_20261104_v1_0.txt"),
                                         to: dir.appendingPathComponent("copy.txt"))
        let names = ["S_D_80012345_20261102 (1).txt", "S_D_80012345_20261102.txt", "S_D_80012345_20261103.txt", "S_D_80012345_20261103.txt.gz",
                     "S_D_80012345_20261104_v1_0.txt", "copy.txt"]
        // In the order `iap report` reads them: a report before its browser copy.
        let ledger = read(BrowserCopy.readingOrder(names.map { dir.appendingPathComponent($0).path }).map { URL(fileURLWithPath: $0) })
        XCTAssertEqual(findings(ledger), [
            "S_D_80012345_20261102 (1).txt:1:1 warning duplicate-report: the same report as S_D_80012345_20261102.txt, read before it (the same 11 rows): its sales are counted once",
            "S_D_80012345_20261103.txt.gz:1:1 warning duplicate-report: the same report as S_D_80012345_20261103.txt, read before it (the same 5 rows): its sales are counted once",
            "S_D_80012345_20261104_v1_0.txt:3:63 error unreadable-report-row: Units 'two' is not a whole number: the row is left out of the totals",
            "S_D_80012345_20261104_v1_0.txt:4:1 error unreadable-report-row: the row has 7 fields; the header has 17: the row is left out of the totals",
            "S_D_80012345_20261104_v1_0.txt:5:61 warning unknown-product-type: Product Type Identifier 'IAZ' is not in Apple's table: its rows are totalled as unknown, apart from the in-app purchases",
            "copy.txt:1:1 warning duplicate-report: the same report as S_D_80012345_20261104_v1_0.txt, read before it (the same 4 rows): its sales are counted once",
        ])
        XCTAssertEqual(ledger.files.map { $0.duplicateOf ?? "-" },
                       ["-", "S_D_80012345_20261102.txt", "-", "S_D_80012345_20261103.txt", "-", "S_D_80012345_20261104_v1_0.txt"])
        // Counted once: the same totals as SalesReaderTests' two originals plus 4 GBP coins.
        XCTAssertEqual(ledger.rowCount, 11 + 5 + 4)
        XCTAssertEqual(ledger.badRowCount, 2)
        let usd = SalesTotals(ledger).byCurrency.first { $0.currency == "USD" }
        XCTAssertEqual(usd.map { "\($0.sold) \($0.refunded) \($0.customer) \($0.proceeds)" }, "58 2 135.44 94.86")
        XCTAssertEqual(SalesTotals(ledger).byCurrency.first { $0.currency == "GBP" }?.sold, 4)
    }

    /// Files that look alike but are not the same report: empty days, and Subscription reports of
    /// two days (their day is in the file name, not the rows).
    func testLookAlikeReportsOfDifferentDaysAreNotDuplicates() throws {
        let dir = try folder()
        let noSales = try fixture("S_D_80012345_20261105.txt")
        try noSales.write(to: dir.appendingPathComponent("S_D_80012345_20261105.txt"), atomically: true, encoding: .utf8)
        try noSales.write(to: dir.appendingPathComponent("S_D_80012345_20261106.txt"), atomically: true, encoding: .utf8)
        let subscription = try fixture("Subscription_80012345_20261102.txt")
        for day in ["20261102", "20261103"] {
            try subscription.write(to: dir.appendingPathComponent("Subscription_80012345_\(day).txt"), atomically: true, encoding: .utf8)
        }
        try subscription.write(to: dir.appendingPathComponent("Subscription_80012345_20261103 (1).txt"), atomically: true, encoding: .utf8)
        let ledger = read(["S_D_80012345_20261105.txt", "S_D_80012345_20261106.txt", "Subscription_80012345_20261102.txt",
                           "Subscription_80012345_20261103.txt", "Subscription_80012345_20261103 (1).txt"].map { dir.appendingPathComponent($0) })
        XCTAssertEqual(findings(ledger), [
            "Subscription_80012345_20261103 (1).txt:1:1 warning duplicate-report: the same report as Subscription_80012345_20261103.txt, read before it (the same 2 rows): its sales are counted once",
        ])
        // Two days of 130 US subscribers.
        XCTAssertEqual(SalesTotals(ledger).subscriptions.map { "\($0.key) \($0.amounts.sold)" }, ["Club Monthly\tJP 24", "Club Monthly\tUS 260"])
    }

    /// The same lines give the same digest; lines that only split differently, or differ in one
    /// byte past the first eight, do not.
    func testContentDigestTellsLinesApart() {
        func digest(_ lines: [String]) -> ContentDigest.Digest {
            var d = ContentDigest()
            for line in lines { d.add(line) }
            return d.finalize()
        }
        XCTAssertEqual(digest(["APPLE\tUS\tcoins", "x"]), digest(["APPLE\tUS\tcoins", "x"]))
        XCTAssertNotEqual(digest(["ab", "c"]), digest(["a", "bc"]))
        XCTAssertNotEqual(digest(["APPLE\tUS\tcoins\t12"]), digest(["APPLE\tUS\tcoins\t13"]))
        XCTAssertNotEqual(digest(["", ""]), digest([""]))
    }

    /// The text of a gzip file, through the reader under test's own zlib: the expected rows are
    /// compared as text, so a wrong decompression would show in the totals test above.
    func zcat(_ url: URL) -> String {
        var lines: [String] = []
        var reader = try! LineReader(path: url.path)
        while try! reader.next({ line, _ in lines.append(String(decoding: line, as: UTF8.self)) }) != nil {}
        return lines.joined(separator: "\n") + "\n"
    }
}
