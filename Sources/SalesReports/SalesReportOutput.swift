import Diagnostics
import Foundation
import PriceFormatting
import ReportRendering
import Support

/// The sales report in its four forms: a document (Markdown, HTML), tidy CSV, and versioned JSON.
/// Amounts are summed exactly in `Decimal` and shown in their own currency, with that currency's
/// digits, in the reader's locale (`--locale`, en_US by default); JSON and CSV give them exact.
public struct SalesReportOutput {
    public var ledger: SalesLedger
    public var totals: SalesTotals
    /// The reading's findings and the catalog join's, in output order.
    public var findings: [Diagnostic]
    /// The locale amounts are written in for people.
    public var locale: String
    private let formatter = PriceFormatter()

    /// The JSON document's version; docs/reports.md describes it.
    public static let jsonVersion = 1

    public init(ledger: SalesLedger, findings: [Diagnostic], locale: String = "en_US") {
        self.ledger = ledger
        self.totals = SalesTotals(ledger)
        self.findings = findings
        self.locale = locale
    }

    /// `USD 1,234.56`, `JPY 1,235`, `KWD 12.345`: the currency's own digits, the reader's grouping.
    public func money(_ amount: Decimal, _ currency: String) -> String {
        (try? formatter.string(amount, currency: currency, locale: locale, style: .isoCode)) ?? "\(amount) \(currency)"
    }

    /// `12.5%`: a rate to one decimal place of a percent.
    public static func percentText(_ rate: Decimal) -> String { "\((rate * 100).rounded(places: 1))%" }

    var period: String {
        guard let first = ledger.firstDay, let last = ledger.lastDay else { return "no dated rows" }
        return first == last ? "\(first)" : "\(first) to \(last)"
    }

    static func storefrontName(_ alpha2: String) -> String {
        Storefronts.all.first { $0.alpha2 == alpha2 }?.name ?? ""
    }

    // MARK: Document

    public func document(title: String = "Sales report") -> ReportDocument {
        var doc = ReportDocument(title: title)
        let kinds = Set(ledger.files.compactMap(\.kind?.rawValue)).sorted()
        doc.facts = [
            ("Period", period),
            ("Reports", "\(ledger.files.count) file\(ledger.files.count == 1 ? "" : "s")" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))")),
            ("Rows read", "\(ledger.rowCount)" + (ledger.badRowCount > 0 ? ", \(ledger.badRowCount) unreadable (left out)" : "")),
            ("Products", "\(totals.products.count)" + (totals.others.isEmpty ? "" : " in-app purchases")),
        ]
        if !totals.others.isEmpty {
            doc.facts.append(("Apps and other types", "\(Set(totals.others.map(\.product)).count), totalled apart from the in-app purchases"))
        }
        doc.facts.append(("Findings", findings.isEmpty ? "none" : findings.severityCounts))
        doc.notices = ReportDocument.notices(findings)
        // Sales tables only when a Summary Sales or Financial report was read: a run on
        // subscription reports alone shows their own tables, not empty ones.
        let hasSales = ledger.files.contains { $0.kind == .summarySales || $0.kind == .financial }
        if hasSales { salesSections(into: &doc) }
        if !totals.subscriptions.isEmpty {
            doc.sections.append(.init(
                title: "Active subscriptions",
                note: "From Subscription reports: subscribers, and what one period of them is worth at their prices.",
                table: .init(header: ["Subscription", "Storefront", "Subscribers", "Customer total", "Proceeds"], numeric: [2, 3, 4],
                             rows: totals.subscriptions.map { line in
                                 let parts = line.key.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                                 return [Cell(parts[0]), Cell(parts.count > 1 ? parts[1] : ""), count(line.amounts.sold),
                                         amount(line.amounts.customer, line.customerCurrency), amount(line.amounts.proceeds, line.proceedsCurrency)]
                             })))
        }
        if !totals.events.isEmpty {
            doc.sections.append(.init(
                title: "Subscription events",
                table: .init(header: ["Subscription", "Event", "Quantity"], numeric: [2],
                             rows: totals.events.map { [Cell($0.product), Cell($0.event), count($0.quantity)] })))
        }
        doc.sections.append(.init(
            title: "Files",
            table: .init(header: ["File", "Report", "Rows", "Unreadable", "Note"], numeric: [2, 3],
                         rows: ledger.files.sorted { $0.path < $1.path }.map { f in
                             [Cell(f.path), Cell(f.kind?.rawValue ?? ""), count(f.rows), count(f.badRows),
                              Cell([f.compressed ? "gzip" : nil, f.noSales ? "no sales that day" : nil,
                                    f.duplicateOf.map { "the same rows as \($0): not counted again" }].compactMap { $0 }.joined(separator: ", "))]
                         })))
        doc.sections.append(ReportDocument.findingsSection(findings))
        return doc
    }

    /// Totals per currency, per product, per storefront and per day.
    private func salesSections(into doc: inout ReportDocument) {
        // Per currency, with each currency's proceeds split by product.
        var proceedsByCurrency: [String: [String: Decimal]] = [:]
        for line in totals.byProduct { proceedsByCurrency[line.proceedsCurrency, default: [:]][line.key, default: 0] += line.amounts.proceeds }
        let shares = totals.byCurrency.filter { $0.proceeds != 0 }.map { c in
            (label: c.currency, total: money(c.proceeds, c.currency),
             parts: (proceedsByCurrency[c.currency] ?? [:]).sorted { $0.key < $1.key }.map { (label: $0.key, value: $0.value) })
        }
        let apart = totals.others.isEmpty ? "" : " In-app purchases only: apps and other product types are totalled apart, below."
        doc.sections.append(.init(
            title: "Totals per currency",
            note: "Customer totals count rows paid in the currency; proceeds count rows paid out in it. Currencies are never added together." + apart,
            table: .init(header: ["Currency", "Units sold", "Refunded", "Customer total", "Proceeds"], numeric: [1, 2, 3, 4],
                         rows: totals.byCurrency.map { [Cell($0.currency), count($0.sold), count($0.refunded),
                                                        amount($0.customer, $0.currency), amount($0.proceeds, $0.currency)] }),
            chart: shares.isEmpty ? nil : .shares(title: "Proceeds per currency, by product", groups: shares)))
        doc.sections.append(.init(
            title: "Products",
            note: "Units across storefronts; the refund rate is units refunded over units sold. Restored units (IA3) are free.",
            table: .init(header: ["Product", "Title", "Type", "Sold", "Refunded", "Restored", "Refund rate"], numeric: [3, 4, 5, 6],
                         rows: totals.products.map { p in
                             [Cell(p.product), Cell(p.title), Cell(p.types.map(Self.typeLabel).joined(separator: ", ")),
                              count(p.amounts.sold), count(p.amounts.refunded), count(p.amounts.restored),
                              Cell(p.refundRate.map(Self.percentText) ?? "", sortKey: p.refundRate.map { "\($0)" } ?? "-1")]
                         }),
            chart: totals.products.isEmpty ? nil : .bars(title: "Units sold per product",
                                                          items: totals.products.map { (label: $0.product, value: Decimal($0.amounts.sold), text: "\($0.amounts.sold)") })))
        doc.sections.append(.init(
            title: "Per product and currency",
            table: lineTable(totals.byProduct, first: ["Product"]) { [Cell($0.key)] }))
        doc.sections.append(.init(
            title: "Per storefront",
            table: lineTable(totals.byStorefront, first: ["Storefront", "Name"]) { [Cell($0.key), Cell(Self.storefrontName($0.key))] }))
        doc.sections.append(.init(
            title: "Per day",
            table: lineTable(totals.byDay, first: ["Date"]) { [Cell($0.key)] },
            chart: totals.unitsByDay.count < 2 ? nil : .columns(title: "Units sold per day",
                                                                items: totals.unitsByDay.map { (label: $0.day, value: Decimal($0.sold), text: "\($0.sold) sold, \($0.refunded) refunded") })))
        if !totals.otherLines.isEmpty {
            doc.sections.append(.init(
                title: "Apps and other product types",
                note: "App downloads, app bundles, updates, re-downloads and product types not in Apple's table: never counted in the in-app purchase totals, tables or charts above. Units are downloads (or updates); refunded units and amounts are subtracted as above.",
                table: .init(header: ["Product", "Title", "Type", "Currency", "Units", "Refunded", "Customer total", "Proceeds"], numeric: [4, 5, 6, 7],
                             rows: totals.otherLines.map { line in
                                 [Cell(line.key.product), Cell(ledger.titles[line.key.product] ?? ""), Cell(Self.typeLabel(line.key.type)),
                                  Cell(line.customerCurrency + (line.proceedsCurrency == line.customerCurrency ? "" : " → " + line.proceedsCurrency)),
                                  count(line.amounts.sold + line.amounts.restored), count(line.amounts.refunded),
                                  amount(line.amounts.customer, line.customerCurrency), amount(line.amounts.proceeds, line.proceedsCurrency)]
                             })))
        }
    }

    private typealias Cell = ReportDocument.Cell

    private func count(_ n: Int) -> Cell { Cell("\(n)") }

    /// An amount in its currency, sorted by its exact value.
    private func amount(_ value: Decimal, _ currency: String) -> Cell { Cell(money(value, currency), sortKey: "\(value)") }

    private func lineTable(_ lines: [CurrencyLine<String>], first: [String],
                           _ keyCells: (CurrencyLine<String>) -> [Cell]) -> ReportDocument.Table {
        let offset = first.count
        return .init(header: first + ["Currency", "Sold", "Refunded", "Customer total", "Proceeds"],
                     numeric: Set((offset + 1)...(offset + 4)),
                     rows: lines.map { line in
                         keyCells(line) + [Cell(line.customerCurrency + (line.proceedsCurrency == line.customerCurrency ? "" : " → " + line.proceedsCurrency)),
                                           count(line.amounts.sold), count(line.amounts.refunded),
                                           amount(line.amounts.customer, line.customerCurrency), amount(line.amounts.proceeds, line.proceedsCurrency)]
                     })
    }

    /// `IAY (auto-renewable subscription)`; unknown codes say so.
    static func typeLabel(_ code: String) -> String {
        let type = ProductType(code: code)
        return "\(code) (\(type.category.rawValue))"
    }

    // MARK: CSV

    public static let csvHeader = ["date", "product", "title", "product_type", "type_category", "storefront", "customer_currency",
                                   "units_sold", "units_refunded", "units_restored", "customer_total", "proceeds_currency", "proceeds"]

    /// One row per day, product, type, storefront and currency pair: the finest totals, for a
    /// spreadsheet's own pivots. Amounts are exact decimals.
    public func csv() -> String {
        let rows = ledger.sales.sorted { a, b in
            (a.key.day?.description ?? "", a.key.product, a.key.productType, a.key.country, a.key.customerCurrency, a.key.proceedsCurrency)
                < (b.key.day?.description ?? "", b.key.product, b.key.productType, b.key.country, b.key.customerCurrency, b.key.proceedsCurrency)
        }.map { key, a in
            [key.day?.description ?? "", key.product, ledger.titles[key.product] ?? "", key.productType, ProductType(code: key.productType).category.rawValue,
             key.country, key.customerCurrency, "\(a.sold)", "\(a.refunded)", "\(a.restored)", "\(a.customer)", key.proceedsCurrency, "\(a.proceeds)"]
        }
        return CSVTable.render(header: Self.csvHeader, rows: rows)
    }

    // MARK: JSON

    public func json(generator: String) -> String {
        func line(_ l: CurrencyLine<String>, _ name: String) -> JSONValue {
            .object([(name, .string(l.key)), ("customerCurrency", .string(l.customerCurrency)), ("proceedsCurrency", .string(l.proceedsCurrency)),
                     ("sold", .int(l.amounts.sold)), ("refunded", .int(l.amounts.refunded)), ("restored", .int(l.amounts.restored)),
                     ("customerTotal", .string("\(l.amounts.customer)")), ("proceeds", .string("\(l.amounts.proceeds)"))])
        }
        let period: JSONValue = ledger.firstDay.map { first in
            .object([("first", .string("\(first)")), ("last", .string("\(ledger.lastDay ?? first)"))])
        } ?? .null
        let value = JSONValue.object([
            ("version", .int(Self.jsonVersion)),
            ("kind", .string("sales")),
            ("generator", .string(generator)),
            ("period", period),
            ("files", .array(ledger.files.sorted { $0.path < $1.path }.map { f in
                .object([("path", .string(f.path)), ("report", f.kind.map { .string($0.rawValue) } ?? .null), ("compressed", .bool(f.compressed)),
                         ("rows", .int(f.rows)), ("unreadableRows", .int(f.badRows)), ("noSales", .bool(f.noSales)),
                         ("duplicateOf", f.duplicateOf.map { .string($0) } ?? .null)])
            })),
            ("currencies", .array(totals.byCurrency.map { c in
                .object([("currency", .string(c.currency)), ("sold", .int(c.sold)), ("refunded", .int(c.refunded)),
                         ("customerTotal", .string("\(c.customer)")), ("proceeds", .string("\(c.proceeds)"))])
            })),
            ("products", .array(totals.products.map { p in
                .object([("product", .string(p.product)), ("title", .string(p.title)), ("types", .array(p.types.map { .string($0) })),
                         ("sold", .int(p.amounts.sold)), ("refunded", .int(p.amounts.refunded)), ("restored", .int(p.amounts.restored)),
                         ("refundRate", p.refundRate.map { .string("\($0.rounded(places: 4))") } ?? .null)])
            })),
            ("byProduct", .array(totals.byProduct.map { line($0, "product") })),
            ("byStorefront", .array(totals.byStorefront.map { line($0, "storefront") })),
            ("byDay", .array(totals.byDay.map { line($0, "day") })),
            ("others", .array(totals.otherLines.map { l in
                .object([("product", .string(l.key.product)), ("title", .string(ledger.titles[l.key.product] ?? "")), ("type", .string(l.key.type)),
                         ("category", .string(ProductType(code: l.key.type).category.rawValue)),
                         ("customerCurrency", .string(l.customerCurrency)), ("proceedsCurrency", .string(l.proceedsCurrency)),
                         ("units", .int(l.amounts.sold + l.amounts.restored)), ("refunded", .int(l.amounts.refunded)),
                         ("customerTotal", .string("\(l.amounts.customer)")), ("proceeds", .string("\(l.amounts.proceeds)"))])
            })),
            ("subscriptions", .array(totals.subscriptions.map { l in
                let parts = l.key.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return .object([("subscription", .string(parts[0])), ("storefront", .string(parts.count > 1 ? parts[1] : "")),
                                ("customerCurrency", .string(l.customerCurrency)), ("proceedsCurrency", .string(l.proceedsCurrency)),
                                ("subscribers", .int(l.amounts.sold)), ("customerTotal", .string("\(l.amounts.customer)")),
                                ("proceeds", .string("\(l.amounts.proceeds)"))])
            })),
            ("events", .array(totals.events.map { .object([("subscription", .string($0.product)), ("event", .string($0.event)), ("quantity", .int($0.quantity))]) })),
            ("findings", ReportDocument.findingsJSON(findings)),
        ])
        return value.rendered()
    }
}
