import Diagnostics
import Foundation
import TestSupport
@testable import SalesReports
import ReportRendering
import Support
import XCTest

/// Reading the sample reports under Tests/Fixtures/Sales: every total below was added up by hand
/// from the rows of the files, not by the code under test.
final class SalesReaderTests: XCTestCase {
    static let fixtures = Prerequisite.packageRoot
        .appendingPathComponent("Tests/Fixtures/Sales")

    func read(_ names: [String]) -> SalesLedger {
        var ledger = SalesLedger()
        for name in names { SalesReportReader.read(Self.fixtures.appendingPathComponent(name).path, displayPath: name, into: &ledger) }
        return ledger
    }

    func line(_ lines: [CurrencyLine<String>], _ key: String, _ currency: String) -> Amounts? {
        lines.first { $0.key == key && $0.customerCurrency == currency }?.amounts
    }

    func testSummarySalesTotalsPerCurrencyAreExactAndNeverMixed() {
        let ledger = read(["S_D_80012345_20261102.txt", "S_D_80012345_20261103.txt.gz"])
        let totals = SalesTotals(ledger)
        XCTAssertEqual(ledger.diagnostics, [])
        XCTAssertEqual(ledger.rowCount, 16)
        XCTAssertEqual(totals.byCurrency.map(\.currency), ["EUR", "JPY", "KWD", "USD"])
        let usd = totals.byCurrency.first { $0.currency == "USD" }!
        // US rows: 20×0.99 coins, 9×4.99 − 2×4.99 pro, 25×2.99 club, 2×0.99 hints, 2×1.99 gems, 0 for restores.
        // Units: 20 coins + 9 pro + 25 club + 2 hints + 2 gems; the app's 40 downloads (1F) are not in-app purchases.
        XCTAssertEqual(usd.customer, Decimal(string: "135.44")!)
        XCTAssertEqual(usd.proceeds, Decimal(string: "94.86")!)
        XCTAssertEqual(usd.sold, 58)
        XCTAssertEqual(usd.refunded, 2)
        let jpy = totals.byCurrency.first { $0.currency == "JPY" }!
        XCTAssertEqual(jpy.customer, 1120)
        XCTAssertEqual(jpy.proceeds, 784)
        let kwd = totals.byCurrency.first { $0.currency == "KWD" }!
        XCTAssertEqual(kwd.customer, Decimal(string: "0.870")!)
        XCTAssertEqual(kwd.proceeds, Decimal(string: "0.609")!)
        let pro = totals.products.first { $0.product == "com.acme.puzzle.pro" }!
        XCTAssertEqual(pro.amounts.sold, 13)
        XCTAssertEqual(pro.amounts.refunded, 2)
        XCTAssertEqual(pro.amounts.restored, 2)
        XCTAssertEqual(pro.types, ["IA1", "IA3"])
        XCTAssertEqual(pro.refundRate, Decimal(2) / Decimal(13))
        XCTAssertEqual(line(totals.byProduct, "com.acme.puzzle.pro", "USD")?.customer, Decimal(string: "34.93")!)
        XCTAssertEqual(line(totals.byDay, "2026-11-03", "USD")?.sold, 16)
        XCTAssertEqual(line(totals.byStorefront, "KW", "KWD")?.sold, 3)
        XCTAssertEqual(ledger.firstDay?.description, "2026-11-02")
        XCTAssertEqual(ledger.lastDay?.description, "2026-11-03")
        XCTAssertEqual(ledger.files.map(\.compressed), [false, true])
        XCTAssertFalse(totals.products.contains { $0.product == "puzzle-app" })
        XCTAssertEqual(totals.others.map { "\($0.product) \($0.types) \($0.amounts.sold)" }, ["puzzle-app [\"1F\"] 40"])
        XCTAssertEqual(totals.otherLines.map { "\($0.key.product) \($0.key.type) \($0.customerCurrency) \($0.amounts.sold) \($0.amounts.customer)" },
                       ["puzzle-app 1F USD 40 0"])
    }

    func testHeaderVariantMalformedRowsAndUnknownTypeAreDiagnosedWithFileAndLine() {
        let ledger = read(["S_D_80012345_20261104_v1_0.txt"])
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.ruleID): \($0.message)" }, [
            "S_D_80012345_20261104_v1_0.txt:3:63 unreadable-report-row: Units 'two' is not a whole number: the row is left out of the totals",
            "S_D_80012345_20261104_v1_0.txt:4:1 unreadable-report-row: the row has 7 fields; the header has 17: the row is left out of the totals",
            "S_D_80012345_20261104_v1_0.txt:5:61 unknown-product-type: Product Type Identifier 'IAZ' is not in Apple's table: its rows are totalled as unknown, apart from the in-app purchases",
        ])
        XCTAssertEqual(ledger.files.first?.rows, 4)
        XCTAssertEqual(ledger.files.first?.badRows, 2)
        let totals = SalesTotals(ledger)
        // The sticker row's code is not in Apple's table: totalled apart from the in-app purchases.
        XCTAssertEqual(totals.byCurrency.map { "\($0.currency) \($0.sold) \($0.customer)" }, ["GBP 4 3.96"])
        XCTAssertEqual(totals.others.map { "\($0.product) \($0.types) \($0.amounts.sold)" }, ["com.acme.puzzle.stickers [\"IAZ\"] 1"])
    }

    func testNoSalesFileIsAnEmptyReport() {
        let ledger = read(["S_D_80012345_20261105.txt"])
        XCTAssertEqual(ledger.diagnostics, [])
        XCTAssertEqual(ledger.files.map(\.noSales), [true])
        XCTAssertEqual(ledger.rowCount, 0)
    }

    func testFinancialReportTotalLinesAreCheckedNotRead() {
        let ledger = read(["80012345_1126_EU.txt"])
        XCTAssertEqual(ledger.diagnostics, [])
        XCTAssertEqual(ledger.rowCount, 4)
        let totals = SalesTotals(ledger)
        XCTAssertEqual(totals.byCurrency.map { "\($0.currency) \($0.sold) \($0.refunded) \($0.proceeds)" }, ["EUR 21 1 31.22"])
    }

    func testFinancialTotalsThatDisagreeOrAreMissingAreFindings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("80012345_1126_EU.txt"), encoding: .utf8)
        try text.replacingOccurrences(of: "Total_Amount\t31.22", with: "Total_Amount\t31.23")
            .write(to: folder.appendingPathComponent("wrong.txt"), atomically: true, encoding: .utf8)
        try String(text[..<text.range(of: "\nTotal_Rows")!.lowerBound]).appending("\n")
            .write(to: folder.appendingPathComponent("cut.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("wrong.txt").path, displayPath: "wrong.txt", into: &ledger)
        SalesReportReader.read(folder.appendingPathComponent("cut.txt").path, displayPath: "cut.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.severity) \($0.ruleID): \($0.message)" }, [
            "wrong.txt:8:1 warning report-total-mismatch: Total_Amount is 31.23 but the rows add up to 31.22",
            "cut.txt:6:1 error report-totals-missing: the Financial report ends without its Total_Rows, Total_Amount, Total_Units lines: it may be cut short",
        ])
    }

    func testSubscriptionAndEventReports() {
        let ledger = read(["Subscription_80012345_20261102.txt", "Subscription_Event_80012345_20261102.txt"])
        XCTAssertEqual(ledger.diagnostics, [])
        let totals = SalesTotals(ledger)
        XCTAssertEqual(totals.subscriptions.map { "\($0.key) \($0.amounts.sold) \($0.amounts.customer) \($0.customerCurrency)" },
                       ["Club Monthly\tJP 12 5760 JPY", "Club Monthly\tUS 130 388.7 USD"])
        XCTAssertEqual(totals.events.map { "\($0.event) \($0.quantity)" }, ["Cancel 3", "Refund 1", "Renew 14", "Subscribe 22"])
        XCTAssertEqual(ledger.firstDay?.description, "2026-11-02")
        // No Summary Sales or Financial report: no empty sales tables.
        XCTAssertEqual(SalesReportOutput(ledger: ledger, findings: []).document().sections.map(\.title),
                       ["Active subscriptions", "Subscription events", "Files", "Findings"])
    }

    func testOlderSubscriptionHeaderWithActiveSubscriptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-sub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        App Name\tSubscription Name\tCustomer Price\tCustomer Currency\tDeveloper Proceeds\tProceeds Currency\tCountry\tActive Subscriptions
        Acme\tClub Monthly\t2.99\tUSD\t2.09\tUSD\tUS\t10

        """.write(to: folder.appendingPathComponent("Subscription_1_20261102.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("Subscription_1_20261102.txt").path, displayPath: "s.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics, [])
        XCTAssertEqual(ledger.files.first?.kind, .subscription)
        XCTAssertEqual(SalesTotals(ledger).subscriptions.map { "\($0.amounts.sold) \($0.amounts.proceeds)" }, ["10 20.9"])
    }

    func testTruncatedGzipAndUnknownHeaderAreUnreadableReports() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gz = try Data(contentsOf: Self.fixtures.appendingPathComponent("S_D_80012345_20261103.txt.gz"))
        try gz.prefix(gz.count - 40).write(to: folder.appendingPathComponent("cut.txt.gz"))
        try "Name\tAge\nBob\t3\n".write(to: folder.appendingPathComponent("other.txt"), atomically: true, encoding: .utf8)
        try "just some text\n".write(to: folder.appendingPathComponent("text.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        for name in ["cut.txt.gz", "other.txt", "text.txt", "missing.txt"] {
            SalesReportReader.read(folder.appendingPathComponent(name).path, displayPath: name, into: &ledger)
        }
        XCTAssertEqual(ledger.diagnostics.map(\.ruleID), Array(repeating: "unreadable-report", count: 4))
        XCTAssertTrue(ledger.diagnostics[0].message.hasPrefix("the compressed report is damaged or cut short"), ledger.diagnostics[0].message)
        XCTAssertEqual(ledger.diagnostics[1].message, "the header names no App Store Connect report iap reads (Summary Sales, Subscription, Subscription Event, Financial): its 2 tab-separated names include none of the columns they have")
        XCTAssertEqual(ledger.diagnostics[2].message, "not a tab-separated App Store Connect report: its first line has no tab (14 characters)")
        XCTAssertEqual(ledger.diagnostics[3].message, "cannot open the report: No such file or directory")
    }

    func testByteOrderMarkAndShortOrLongRows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = ["SKU", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date", "Customer Currency", "Country Code",
                      "Currency of Proceeds", "Customer Price", "Promo Code", "Device"]
        let rows = [
            "com.a.coins\tIA1\t2\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99",             // trailing columns iap does not read: missing
            "com.a.coins\tIA1\t1\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99\t \tiPad\t\t",  // extra empty fields
            "com.a.coins\tIA1\t1\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99\t \tiPad\tX",   // text past the header
            "com.a.coins\tIA1\t1\t0.70\t11/02/2026\tUSD\tUS\tUSD",                  // short of Customer Price
        ]
        try ("\u{FEFF}" + ([header.joined(separator: "\t")] + rows).joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("bom.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("bom.txt").path, displayPath: "bom.txt", into: &ledger)
        XCTAssertEqual(ledger.files.first?.kind, .summarySales)
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.message)" }, [
            "bom.txt:4:1 the row has 12 fields; the header has 11: the row is left out of the totals",
            "bom.txt:5:1 the row has 8 fields; the header has 11: the row is left out of the totals",
        ])
        XCTAssertEqual(SalesTotals(ledger).byCurrency.map { "\($0.currency) \($0.sold) \($0.customer)" }, ["USD 3 2.97"])
    }

    func testBinaryFilesAreUnreadableReportsNotMemory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0xFF]).write(to: folder.appendingPathComponent("image.txt"))
        try Data(repeating: 0x41, count: LineReader.longestLine + 10).write(to: folder.appendingPathComponent("long.txt"))
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("image.txt").path, displayPath: "image.txt", into: &ledger)
        SalesReportReader.read(folder.appendingPathComponent("long.txt").path, displayPath: "long.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.message)" }, [
            "image.txt:1:1 not a tab-separated App Store Connect report: its first line holds binary data (4 characters); it is not text",
            "long.txt:1 not a text report: line 1 is longer than 16 MB; the rows before it are counted",
        ])
    }

    func testManyBadRowsAreSummedUpAfterTwenty() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("S_D_80012345_20261102.txt"), encoding: .utf8)
        let header = text.split(separator: "\n")[0]
        let rows = (0..<25).map { _ in "APPLE\tUS\tbroken" }
        try ([String(header)] + rows).joined(separator: "\n").write(to: folder.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("bad.txt").path, displayPath: "bad.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics.count, 21)
        XCTAssertEqual(ledger.diagnostics.last.map { "\($0.location) \($0.message)" },
                       "bad.txt:22:1 5 more unreadable rows from this line on are left out of the totals (25 in all)")
        XCTAssertEqual(ledger.files.first?.badRows, 25)
    }

    /// Units that add up past an Int trapped (SIGILL) in the totals; the row that would pass it
    /// is left out with a finding at its Units field, and the rest are counted.
    func testUnitsPastWhatAnIntHoldsAreLeftOutNotATrap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = ["SKU", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date", "Customer Currency", "Country Code",
                      "Currency of Proceeds", "Customer Price"].joined(separator: "\t")
        let big = "com.a.coins\tIA1\t999999999999999999\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99"
        let small = "com.a.coins\tIA1\t-1\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99"
        try ([header] + Array(repeating: big, count: 10) + [small]).joined(separator: "\n")
            .write(to: folder.appendingPathComponent("big.txt"), atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(folder.appendingPathComponent("big.txt").path, displayPath: "big.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.message)" }, [
            "big.txt:11:17 Units 999999999999999999 would bring the units of the rows read past 9223372036854775807, the most iap can count: the row is left out of the totals",
        ])
        let totals = SalesTotals(ledger)
        XCTAssertEqual(totals.byCurrency.map { "\($0.currency) \($0.sold) \($0.refunded)" }, ["USD 8999999999999999991 1"])
        XCTAssertEqual(totals.products.map { "\($0.product) \($0.amounts.net)" }, ["com.a.coins 8999999999999999990"])
    }

    /// Blank lines are counted by the line reader, a buffer at a time, and never handed to the
    /// report reader: a gzip file of a billion newlines cost 39 s. The lines after them keep
    /// their numbers, and a report past the text limit is refused with what was read counted.
    func testBlankLinesAreCountedAndTheTextIsLimited() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-blank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = ["SKU", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date", "Customer Currency", "Country Code",
                      "Currency of Proceeds", "Customer Price"].joined(separator: "\t")
        let row = "com.a.coins\tIA1\t2\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99"
        // 1,000,000 blank lines of three kinds between the header and two rows, one bad.
        let blanks = String(repeating: "\n \t\r\n\t\n", count: 333_334)
        let text = header + "\n" + blanks + row + "\n" + "com.a.coins\tIA1\ttwo\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99\n\n\n"
        let file = folder.appendingPathComponent("blank.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        var ledger = SalesLedger()
        SalesReportReader.read(file.path, displayPath: "blank.txt", into: &ledger)
        XCTAssertEqual(ledger.diagnostics.map { "\($0.location) \($0.message)" }, [
            "blank.txt:1000005:17 Units 'two' is not a whole number: the row is left out of the totals",
        ])
        XCTAssertEqual(SalesTotals(ledger).byCurrency.map { "\($0.currency) \($0.sold)" }, ["USD 2"])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip") || FileManager.default.isExecutableFile(atPath: "/bin/gzip") {
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
            gzip.arguments = ["-c", "gzip -c blank.txt > blank.txt.gz"]
            gzip.currentDirectoryURL = folder
            try gzip.run()
            gzip.waitUntilExit()
            var zipped = SalesLedger()
            SalesReportReader.read(folder.appendingPathComponent("blank.txt.gz").path, displayPath: "blank.txt.gz", into: &zipped)
            XCTAssertEqual(zipped.diagnostics.map { "\($0.location) \($0.message)" }, [
                "blank.txt.gz:1000005:17 Units 'two' is not a whole number: the row is left out of the totals",
            ])
        }
        // Past the limit of text: what came before the chunk that passed it is counted.
        var limited = SalesLedger()
        SalesReportReader.read(file.path, displayPath: "blank.txt", textLimit: 1000, into: &limited)
        XCTAssertEqual(limited.diagnostics.map { "\($0.location) \($0.message)" }, [
            "blank.txt:1 the report holds more than 1000 bytes of text (uncompressed), the most iap reads of one report; the rows before line 1 are counted",
        ])
        XCTAssertEqual(LineReader.maxTextBytes, 1 << 30)
    }

    func testFieldParsers() {
        func fixed(_ s: String) -> String? {
            var s = s
            return s.withUTF8 { FieldParse.fixed($0) }.map { "\($0.decimal)" }
        }
        XCTAssertEqual(fixed("0.99"), "0.99")
        XCTAssertEqual(fixed("-4.99"), "-4.99")
        XCTAssertEqual(fixed("160"), "160")
        XCTAssertEqual(fixed(".5"), "0.5")
        XCTAssertNil(fixed("1,99"))
        XCTAssertNil(fixed("."))
        XCTAssertNil(fixed("1.2.3"))
        XCTAssertNil(fixed(""))
        var sum = ExactSum()
        sum.add(FixedAmount(mantissa: 1, scale: 1), times: 3)   // 0.3, never 0.30000000000000004
        sum.add(FixedAmount(mantissa: 1, scale: 9), times: 1)   // finer than millionths: kept exactly
        sum.add(FixedAmount(mantissa: Int64.max, scale: 0), times: 2)
        XCTAssertEqual("\(sum.value)", "18446744073709551614.300000001")
        func day(_ s: String, _ form: Day.Form) -> String? {
            var s = s
            return s.withUTF8 { Day.parse($0, form) }?.description
        }
        XCTAssertEqual(day("11/02/2026", .monthDayYear), "2026-11-02")
        XCTAssertNil(day("2026-11-02", .monthDayYear))
        XCTAssertEqual(day("2024-02-29", .isoDate), "2024-02-29")
        XCTAssertNil(day("2026-02-29", .isoDate))
        XCTAssertEqual(ProductType(code: "IAY").category, .autoRenewableSubscription)
        XCTAssertEqual(ProductType(code: "IA3").category, .restoredInAppPurchase)
        XCTAssertEqual(ProductType(code: "XYZ").category, .unknown)
    }

    func testCSVQuotesPerRFC4180AndMarkdownEscapes() {
        XCTAssertEqual(CSVTable.render(header: ["a", "b"], rows: [["Club, \"Monthly\"", "line\r\nbreak"], ["plain", ""]]),
                       "a,b\r\n\"Club, \"\"Monthly\"\"\",\"line\r\nbreak\"\r\nplain,\r\n")
        XCTAssertEqual(Escape.markdownCell("a|b_c<d>\n*e*"), "a\\|b\\_c&lt;d&gt;<br>\\*e\\*")
        XCTAssertEqual(Escape.html("<script>\"x\" & 'y'</script>"), "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;")
    }
}
