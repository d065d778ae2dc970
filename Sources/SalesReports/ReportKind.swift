/// The App Store Connect reports `iap report --sales` reads, told apart by their header names.
public enum ReportKind: String, Sendable, Hashable, CaseIterable {
    /// Sales and Trends, Sales, Summary: one row per product, storefront, price and day.
    case summarySales = "Summary Sales"
    /// Sales and Trends, Subscription: active subscriptions per subscription, storefront and price.
    case subscription = "Subscription"
    /// Sales and Trends, Subscription Event: subscribe, renew, cancel, refund… per day.
    case subscriptionEvent = "Subscription Event"
    /// Payments and Financial Reports: what Apple pays, per product and storefront, with total lines.
    case financial = "Financial"
}

extension ReportKind {
    /// The fields a report of this kind must have for its rows to be totalled.
    var required: [Field] {
        switch self {
        case .subscriptionEvent: [.beginDate, .event, .subscriptionName, .units, .country]
        case .subscription: [.subscriptionName, .customerPrice, .customerCurrency, .proceeds, .proceedsCurrency, .country]
        case .financial: [.product, .units, .proceeds, .extendedProceeds, .proceedsCurrency, .beginDate]
        case .summarySales: [.product, .productType, .units, .proceeds, .customerPrice, .customerCurrency, .proceedsCurrency, .country, .beginDate]
        }
    }
}

/// The fields `iap report` reads, and the header names each goes by across report kinds and
/// header versions (2008 onwards). Columns are found by name, never by position: versions add,
/// drop, move and rename columns. Before 2011 a Summary Sales report said `Vendor Identifier`,
/// `Title / Episode / Season`, `Royalty Price` and `Royalty Currency` where it now says `SKU`,
/// `Title`, `Developer Proceeds` and `Currency of Proceeds`; docs/reports.md cites the sources.
enum Field: Int, CaseIterable {
    case product, title, productType, units, customerPrice, customerCurrency, proceeds, extendedProceeds
    case proceedsCurrency, country, beginDate, endDate, saleOrReturn, event, subscriptionName, subscribers, activeStandard

    /// Every header name of the field, normalised (`ColumnMap.normalised`), preferred first.
    var names: [String] {
        switch self {
        case .product: ["sku", "vendor identifier"]
        case .title: ["title", "title/episode/season"]
        case .productType: ["product type identifier"]
        case .units: ["units", "quantity"]
        case .customerPrice: ["customer price"]
        case .customerCurrency: ["customer currency"]
        case .proceeds: ["developer proceeds", "royalty price", "partner share"]
        case .extendedProceeds: ["extended partner share"]
        case .proceedsCurrency: ["currency of proceeds", "royalty currency", "partner share currency", "proceeds currency"]
        case .country: ["country code", "country of sale", "country"]
        case .beginDate: ["begin date", "start date", "transaction date", "event date"]
        case .endDate: ["end date", "settlement date"]
        case .saleOrReturn: ["sales or return", "sale or return"]
        case .event: ["event"]
        case .subscriptionName: ["subscription name"]
        case .subscribers: ["subscribers", "active subscriptions"]
        case .activeStandard: ["active standard price subscriptions"]
        }
    }

    /// The name a report of `kind` gives the field in its current header, for a message about a
    /// column the header lacks: a Financial report's units are `Quantity`, a Summary Sales
    /// report's `Units`. (A message about a field the header has quotes the header's own name.)
    func name(in kind: ReportKind) -> String {
        switch (self, kind) {
        case (.product, .financial): "Vendor Identifier"
        case (.product, _): "SKU"
        case (.title, _): "Title"
        case (.productType, _): "Product Type Identifier"
        case (.units, .summarySales): "Units"
        case (.units, _): "Quantity"
        case (.customerPrice, _): "Customer Price"
        case (.customerCurrency, _): "Customer Currency"
        case (.proceeds, .financial): "Partner Share"
        case (.proceeds, _): "Developer Proceeds"
        case (.extendedProceeds, _): "Extended Partner Share"
        case (.proceedsCurrency, .financial): "Partner Share Currency"
        case (.proceedsCurrency, .subscription): "Proceeds Currency"
        case (.proceedsCurrency, _): "Currency of Proceeds"
        case (.country, .financial): "Country Of Sale"
        case (.country, .summarySales): "Country Code"
        case (.country, _): "Country"
        case (.beginDate, .financial): "Start Date"
        case (.beginDate, .subscriptionEvent): "Event Date"
        case (.beginDate, _): "Begin Date"
        case (.endDate, _): "End Date"
        case (.saleOrReturn, _): "Sale or Return"
        case (.event, _): "Event"
        case (.subscriptionName, _): "Subscription Name"
        case (.subscribers, _): "Subscribers"
        case (.activeStandard, _): "Active Standard Price Subscriptions"
        }
    }

    /// The field's name in `kind`'s older header versions, where it differs ("'Royalty Price'
    /// before 2011"), for the same message.
    func olderName(in kind: ReportKind) -> String? {
        switch (self, kind) {
        case (.product, .summarySales): "Vendor Identifier"
        case (.title, .summarySales): "Title / Episode / Season"
        case (.proceeds, .summarySales): "Royalty Price"
        case (.proceedsCurrency, .summarySales): "Royalty Currency"
        case (.subscribers, .subscription): "Active Subscriptions"
        default: nil
        }
    }
}

/// Where each field is in one report's rows.
struct ColumnMap {
    var kind: ReportKind
    /// Column of each field by its raw value; -1 when the header lacks it.
    private var columns: [Int]
    var count: Int

    /// How many fields a row needs: up to the last column iap reads.
    var needed: Int
    /// Each column's name as the header writes it (trimmed), for messages about a row's field.
    private var header: [String]

    init(kind: ReportKind, index: [Field: Int], header: [String]) {
        self.kind = kind
        self.columns = Field.allCases.map { index[$0] ?? -1 }
        self.count = header.count
        self.header = header.map { $0.trimmingCharacters(in: .whitespaces) }
        self.needed = (index.values.max() ?? -1) + 1
    }

    /// The field's name as this report's header writes it (`Quantity`, `Royalty Price`).
    func name(of field: Field) -> String {
        guard let column = self[field], column < header.count, !header[column].isEmpty else { return field.name(in: kind) }
        return header[column]
    }

    /// A header name as the field tables write it: lowercased, outer spaces trimmed, inner runs of
    /// spaces made one, and no spaces around a slash (`Title / Episode / Season` is
    /// `title/episode/season`, as some versions and tools write it).
    static func normalised(_ name: String) -> String {
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\u{A0}" })
        var out = ""
        for word in words {
            if !out.isEmpty, !out.hasSuffix("/"), !word.hasPrefix("/") { out += " " }
            out += word
        }
        return out
    }

    subscript(_ field: Field) -> Int? {
        let column = columns[field.rawValue]
        return column < 0 ? nil : column
    }

    /// Finds the report kind and its columns from the header's names (case and surrounding spaces
    /// ignored), or says which columns are missing. A header that names a kind's own columns
    /// (a Subscription Event report's `Event` and `Subscription Name`, a Financial report's
    /// `Extended Partner Share`, a Summary Sales report's `Product Type Identifier` and `Units`)
    /// is that kind; one that lacks such a column is the kind whose needed columns, spelled as that
    /// kind spells them, it has at least half of, the most of them first (a Summary Sales report
    /// without `Units` is still one, and told just that).
    static func resolve(_ header: [String]) -> Result<ColumnMap, ResolveFailure> {
        let names = header.map(normalised)
        var index: [Field: Int] = [:]
        for field in Field.allCases {
            // The first header column that has one of the field's names, in the names' order.
            for name in field.names {
                if let i = names.firstIndex(of: name) { index[field] = i; break }
            }
        }
        let kind: ReportKind
        if index[.event] != nil, index[.subscriptionName] != nil {
            kind = .subscriptionEvent
        } else if index[.subscriptionName] != nil, index[.subscribers] != nil || index[.activeStandard] != nil {
            kind = .subscription
        } else if index[.extendedProceeds] != nil {
            kind = .financial
        } else if index[.productType] != nil, names.contains("units") {
            kind = .summarySales
        } else {
            // No kind's own columns: the kind most of whose needed columns the header has in that
            // kind's spelling, when that is at least half of them.
            func column(_ field: Field, _ kind: ReportKind) -> Int? {
                let spellings = [field.name(in: kind)] + (field.olderName(in: kind).map { [$0] } ?? [])
                return spellings.lazy.compactMap { names.firstIndex(of: normalised($0)) }.first
            }
            let scored = ReportKind.allCases.map { kind in (kind: kind, found: kind.required.filter { column($0, kind) != nil }.count) }
            guard let best = scored.max(by: { $0.found < $1.found }), best.found * 2 >= best.kind.required.count else {
                let recognised = Set(index.values).sorted().map { header[$0] }
                return .failure(.unknownHeader(recognised: recognised))
            }
            var missing = best.kind.required.filter { column($0, best.kind) == nil }
            // A Subscription report's own column, Subscribers (or Active Standard Price
            // Subscriptions), is the one a kind's own column that its needed ones leave out.
            if missing.isEmpty { missing = [.subscribers] }
            let present = best.kind.required.compactMap { column($0, best.kind).map { header[$0] } }
            return .failure(.missingColumns(best.kind, missing, present: present))
        }
        let missing = kind.required.filter { index[$0] == nil }
        guard missing.isEmpty else {
            return .failure(.missingColumns(kind, missing, present: kind.required.compactMap { index[$0].map { header[$0] } }))
        }
        return .success(ColumnMap(kind: kind, index: index, header: header))
    }

    enum ResolveFailure: Error {
        /// No kind: the header's columns iap reads, as it writes them (perhaps none).
        case unknownHeader(recognised: [String])
        /// A kind without some columns it needs: those, and the needed ones it has (as it writes them).
        case missingColumns(ReportKind, [Field], present: [String])
    }
}

import Foundation
