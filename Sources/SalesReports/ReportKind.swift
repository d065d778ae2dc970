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

/// The fields `iap report` reads, and the header names each goes by across report kinds and
/// header versions. Columns are found by name, never by position: versions add, drop and move
/// columns (older Summary Sales headers have no `Parent Identifier`).
enum Field: Int, CaseIterable {
    case product, title, productType, units, customerPrice, customerCurrency, proceeds, extendedProceeds
    case proceedsCurrency, country, beginDate, endDate, saleOrReturn, event, subscriptionName, subscribers, activeStandard

    var names: [String] {
        switch self {
        case .product: ["sku", "vendor identifier"]
        case .title: ["title"]
        case .productType: ["product type identifier"]
        case .units: ["units", "quantity"]
        case .customerPrice: ["customer price"]
        case .customerCurrency: ["customer currency"]
        case .proceeds: ["developer proceeds", "partner share"]
        case .extendedProceeds: ["extended partner share"]
        case .proceedsCurrency: ["currency of proceeds", "partner share currency", "proceeds currency"]
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

    /// The name shown when the column is missing.
    var displayName: String {
        names[0].split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
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

    init(kind: ReportKind, index: [Field: Int], count: Int) {
        self.kind = kind
        self.columns = Field.allCases.map { index[$0] ?? -1 }
        self.count = count
        self.needed = (index.values.max() ?? -1) + 1
    }

    subscript(_ field: Field) -> Int? {
        let column = columns[field.rawValue]
        return column < 0 ? nil : column
    }

    /// Finds the report kind and its columns from the header's names (case and surrounding spaces
    /// ignored), or says which columns are missing.
    static func resolve(_ header: [String]) -> Result<ColumnMap, ResolveFailure> {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var index: [Field: Int] = [:]
        for field in Field.allCases {
            // The first header column that has one of the field's names, in the names' order.
            for name in field.names {
                if let i = names.firstIndex(of: name) { index[field] = i; break }
            }
        }
        let kind: ReportKind
        let required: [Field]
        if index[.event] != nil, index[.subscriptionName] != nil {
            kind = .subscriptionEvent
            required = [.beginDate, .event, .subscriptionName, .units, .country]
        } else if index[.subscriptionName] != nil, index[.subscribers] != nil || index[.activeStandard] != nil {
            kind = .subscription
            required = [.subscriptionName, .customerPrice, .customerCurrency, .proceeds, .proceedsCurrency, .country]
        } else if index[.extendedProceeds] != nil {
            kind = .financial
            required = [.product, .units, .proceeds, .extendedProceeds, .proceedsCurrency, .beginDate]
        } else if index[.productType] != nil, names.contains("units") {
            kind = .summarySales
            required = [.product, .productType, .units, .proceeds, .customerPrice, .customerCurrency, .proceedsCurrency,
                        .country, .beginDate]
        } else {
            return .failure(.unknownHeader)
        }
        let missing = required.filter { index[$0] == nil }
        guard missing.isEmpty else { return .failure(.missingColumns(kind, missing.map(\.displayName))) }
        return .success(ColumnMap(kind: kind, index: index, count: header.count))
    }

    enum ResolveFailure: Error {
        case unknownHeader
        case missingColumns(ReportKind, [String])
    }
}

import Foundation
