import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import ReportRendering
import SalesReports
import Support

/// `iap report` without `--sales`: every product × storefront, each price the catalog declares
/// for that storefront formatted in the storefront's locale and currency, with its period, monthly
/// equivalent and introductory offer in the storefront's language where we have its words.
/// Prices come from `.storekit` files (one storefront each) and the metadata plist's `prices`
/// (storefront → amount). A storefront without a declared price shows that it has none: nothing is
/// converted with invented exchange rates. The metadata plist's single `price` + `currency` is for
/// no storefront in particular: it is the base price column.
public struct PriceMatrix {
    public struct Cell: Sendable {
        public var storefront: Storefront
        public var amount: Decimal
        public var currency: String
        public var locale: String
        public var price: String
        public var period: String
        public var offer: String
        public var location: SourceLocation
    }

    public struct Row: Sendable {
        /// The catalog's name (its folder), which tells apart two apps of one run.
        public var catalog: String
        public var product: Product
        /// The base price (metadata `price` with its `currency`), formatted in en_US.
        public var base: (amount: Decimal, currency: String, text: String)?
        /// Declared prices by storefront alpha-3 code.
        public var cells: [String: Cell]
    }

    public var storefronts: [Storefront]
    public var rows: [Row]
    /// How many catalogs the rows come from: with more than one, tables name each row's.
    public var catalogCount: Int
    /// Loading's findings about prices (a price without currency, a bad amount or storefront).
    public var findings: [Diagnostic]

    /// The rules whose findings the matrix shows: the ones about prices.
    static let priceRules: Set<String> = [UnknownPriceCurrencyRule.id, InvalidMetadataRule.id]

    /// Builds the matrix. `storefronts` is nil for "the storefronts the catalog prices".
    public init(catalogs: [Catalog], storefronts: [Storefront]?, severities: [String: Severity?] = [:],
                formatter: PriceFormatter = PriceFormatter()) throws(PriceError) {
        var rows: [Row] = []
        var priced: Set<String> = []
        for catalog in catalogs {
            for product in catalog.products {
                var row = Row(catalog: catalog.name, product: product, base: nil, cells: [:])
                for occurrence in product.occurrences {
                    guard let metadata = occurrence.metadata else { continue }
                    var declared = metadata.storefrontPrices
                    if let single = metadata.price {
                        if single.value.storefront != nil { declared.append(single) }
                        else if row.base == nil, let currency = single.value.currency {
                            row.base = (single.value.amount, currency,
                                        try formatter.string(single.value.amount, currency: currency, locale: "en_US"))
                        }
                    }
                    for entry in declared {
                        let price = entry.value
                        guard let code = price.storefront, row.cells[code] == nil, let currency = price.currency,
                              let storefront = try? Storefronts.find(code) else { continue }
                        let locale = price.locale ?? storefront.locale
                        let texts = try CatalogPrices.texts(product, amount: price.amount, currency: currency, locale: locale,
                                                            style: .symbol, formatter: formatter)
                        row.cells[code] = Cell(storefront: storefront, amount: price.amount, currency: currency, locale: locale,
                                               price: texts.price, period: texts.period, offer: texts.offer, location: entry.location)
                        priced.insert(code)
                    }
                }
                rows.append(row)
            }
        }
        self.rows = rows.sorted { ($0.product.id, $0.catalog) < ($1.product.id, $1.catalog) }
        self.catalogCount = catalogs.count
        self.storefronts = storefronts ?? Storefronts.all.filter { priced.contains($0.alpha3) }.sorted { $0.alpha3 < $1.alpha3 }
        let found = catalogs.flatMap(\.loadDiagnostics).filter { Self.priceRules.contains($0.ruleID) }
        self.findings = ReportPlan.applySeverities(severities, to: found).sortedForOutput()
    }

    /// Cells with a declared price.
    public var declaredCount: Int { rows.reduce(0) { n, row in n + storefronts.filter { row.cells[$0.alpha3] != nil }.count } }

    /// True when no product has a price the matrix can show.
    public var isEmpty: Bool { rows.allSatisfy { $0.cells.isEmpty && $0.base == nil } }

    static func kind(_ product: Product) -> String { product.kind?.displayName ?? "unknown" }
    static func period(_ product: Product) -> String { product.metadata.subscriptionPeriod?.value.description ?? "" }

    // MARK: Forms

    public func document() -> ReportDocument {
        typealias C = ReportDocument.Cell
        var doc = ReportDocument(title: "Price matrix")
        doc.facts = [
            ("Products", "\(rows.count)"),
            ("Storefronts", "\(storefronts.count)"),
            ("Prices declared", "\(declaredCount) of \(rows.count * storefronts.count)"),
            ("Findings", findings.isEmpty ? "none" : findings.severityCounts),
        ]
        let hasBase = rows.contains { $0.base != nil }
        let named = catalogCount > 1
        var header = (named ? ["Catalog"] : []) + ["Product", "Kind", "Period"]
        if hasBase { header.append("Base price") }
        header += storefronts.map { "\($0.alpha3) (\($0.currency))" }
        let first = header.count - storefronts.count
        doc.sections.append(.init(
            title: "Prices",
            note: "Each price as customers of that storefront see it. — means the catalog declares no price there; nothing is converted.",
            table: .init(header: header, numeric: Set(first..<header.count).union(hasBase ? [first - 1] : []), rows: rows.map { row in
                var cells: [C] = (named ? [C(row.catalog)] : []) + [C(row.product.id), C(Self.kind(row.product)), C(Self.period(row.product))]
                if hasBase { cells.append(row.base.map { C($0.text, sortKey: "\($0.amount)") } ?? C("—", sortKey: "-1")) }
                cells += storefronts.map { s in row.cells[s.alpha3].map { C($0.price, sortKey: "\($0.amount)") } ?? C("—", sortKey: "-1") }
                return cells
            })))
        doc.sections.append(.init(
            title: "Prices in words",
            note: "Subscription periods, monthly equivalents and introductory offers, in the storefront's language where iap has its words.",
            table: .init(header: ["Product", "Storefront", "Locale", "Price", "Per period", "Introductory offer"], numeric: [3],
                         rows: rows.flatMap { row in
                             storefronts.compactMap { s in row.cells[s.alpha3] }.map { c in
                                 [C(row.product.id), C("\(c.storefront.alpha3) \(c.storefront.name)"), C(c.locale),
                                  C(c.price, sortKey: "\(c.amount)"), C(c.period), C(c.offer)]
                             }
                         })))
        doc.sections.append(ReportDocument.findingsSection(findings))
        doc.notices = ReportDocument.notices(findings)
        return doc
    }

    public static let csvHeader = ["catalog", "product", "kind", "period", "storefront", "storefront_name", "declared", "currency", "locale",
                                   "amount", "price", "per_period", "introductory_offer"]

    /// One row per product and storefront; `declared` is `no` where the catalog has no price there.
    public func csv() -> String {
        let lines = rows.flatMap { row in
            storefronts.map { s -> [String] in
                let head = [row.catalog, row.product.id, row.product.kind?.rawValue ?? "", Self.period(row.product), s.alpha3, s.name]
                guard let c = row.cells[s.alpha3] else { return head + ["no", s.currency, s.locale, "", "", "", ""] }
                return head + ["yes", c.currency, c.locale, "\(c.amount)", c.price, c.period, c.offer]
            }
        }
        return CSVTable.render(header: Self.csvHeader, rows: lines)
    }

    public func json(generator: String) -> String {
        let value = JSONValue.object([
            ("version", .int(1)),
            ("kind", .string("prices")),
            ("generator", .string(generator)),
            ("storefronts", .array(storefronts.map { s in
                .object([("storefront", .string(s.alpha3)), ("name", .string(s.name)), ("currency", .string(s.currency)), ("locale", .string(s.locale))])
            })),
            ("products", .array(rows.map { row in
                .object([
                    ("catalog", .string(row.catalog)),
                    ("id", .string(row.product.id)),
                    ("kind", row.product.kind.map { .string($0.rawValue) } ?? .null),
                    ("period", row.product.metadata.subscriptionPeriod.map { .string($0.value.description) } ?? .null),
                    ("basePrice", row.base.map { .object([("amount", .string("\($0.amount)")), ("currency", .string($0.currency))]) } ?? .null),
                    ("prices", .array(storefronts.map { s in
                        guard let c = row.cells[s.alpha3] else { return .object([("storefront", .string(s.alpha3)), ("declared", .bool(false))]) }
                        return .object([("storefront", .string(s.alpha3)), ("declared", .bool(true)), ("amount", .string("\(c.amount)")),
                                        ("currency", .string(c.currency)), ("locale", .string(c.locale)), ("price", .string(c.price)),
                                        ("perPeriod", .string(c.period)), ("introductoryOffer", .string(c.offer)),
                                        ("location", .string(c.location.description))])
                    })),
                ])
            })),
            ("findings", ReportDocument.findingsJSON(findings)),
        ])
        return value.rendered()
    }
}
