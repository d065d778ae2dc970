import Diagnostics
import Foundation
import TestSupport
@testable import SalesReports
import CatalogJoins
import XCTest

/// `high-refund-rate` is about in-app purchases: rows of every app product type (and of types not
/// in Apple's table) never make a finding, however many of their units were refunded, while the
/// in-app purchases beside them in the same report still do.
final class RefundRateTests: XCTestCase {
    static let fixtures = Prerequisite.packageRoot
        .appendingPathComponent("Tests/Fixtures/Sales")

    /// A Summary Sales report (the fixture's header) of `rows`: SKU, product type, units (negative: refunded).
    func report(_ rows: [(sku: String, type: String, units: Int)]) throws -> SalesLedger {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("Mixed/S_D_80012345_20261110.txt"), encoding: .utf8)
        let template = text.split(separator: "\n")
        let header = template[0].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let row = template[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let column = { (name: String) in header.firstIndex(of: name)! }
        var lines = [String(template[0])]
        for (sku, type, units) in rows {
            var fields = row
            fields[column("SKU")] = sku
            fields[column("Product Type Identifier")] = type
            fields[column("Units")] = String(units)
            fields[column("Developer Proceeds")] = units < 0 ? "-0.70" : "0.70"
            fields[column("Customer Price")] = units < 0 ? "-0.99" : "0.99"
            lines.append(fields.joined(separator: "\t"))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iap-refunds-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var ledger = SalesLedger()
        SalesReportReader.read(url.path, displayPath: "S_D.txt", into: &ledger)
        return ledger
    }

    func testOnlyInAppPurchaseRowsCanHaveAHighRefundRate() throws {
        // Every app type of Apple's table, and a code not in it: 1 of 2 units refunded (50%).
        let appTypes = ProductType.all.filter { !$0.category.isInAppPurchase }.map(\.code) + ["ZZ9"]
        var rows: [(sku: String, type: String, units: Int)] = []
        for type in appTypes { rows += [("app-\(type)", type, 2), ("app-\(type)", type, -1)] }
        // In-app purchases: one refunded for 1 of 4 units (25%), one for 1 of 20 (5%, under the 10% limit).
        rows += [("com.acme.coins", "IA1", 4), ("com.acme.coins", "IA1", -1), ("com.acme.club", "IAY", 20), ("com.acme.club", "IAY", -1)]
        let ledger = try report(rows)
        XCTAssertEqual(ledger.diagnostics.filter { $0.ruleID != "unknown-product-type" }, [])
        let found = SalesJoin.findings(ledger, totals: SalesTotals(ledger), catalogs: [])
        // The coins' first row: line 2 (the header) + 2 rows per app type + 1.
        XCTAssertEqual(found.map { "\($0.location) \($0.ruleID): \($0.message)" }, [
            "S_D.txt:\(2 + 2 * appTypes.count):1 high-refund-rate: 'com.acme.coins' was refunded for 1 of 4 units sold (25%)",
        ])
    }

    /// An app and an in-app purchase under one SKU (a report that reuses it): only the in-app
    /// purchase rows count, so its rate is theirs.
    func testASharedSKUCountsItsInAppPurchaseRowsOnly() throws {
        let ledger = try report([("shared", "1", 10), ("shared", "1", -9), ("shared", "IA1", 10), ("shared", "IA1", -1)])
        XCTAssertEqual(SalesJoin.findings(ledger, totals: SalesTotals(ledger), catalogs: [], limits: [HighRefundRateRule.id: 20]).map(\.message), [])
        XCTAssertEqual(SalesJoin.findings(ledger, totals: SalesTotals(ledger), catalogs: [], limits: [HighRefundRateRule.id: 10]).map(\.message),
                       ["'shared' was refunded for 1 of 10 units sold (10%)"])
    }
}
