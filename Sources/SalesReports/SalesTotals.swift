import Foundation

/// A group of totals in one pair of currencies: never adds amounts of different currencies.
public struct CurrencyLine<Key: Hashable & Sendable>: Sendable {
    public var key: Key
    public var customerCurrency: String
    public var proceedsCurrency: String
    public var amounts: Amounts
}

/// One product's counts across every currency (units can be added; money cannot).
public struct ProductCount: Sendable {
    public var product: String
    public var title: String
    /// Product Type Identifiers seen, sorted.
    public var types: [String]
    public var amounts: Amounts

    /// Refunded units over units sold, or nil when none sold.
    public var refundRate: Decimal? {
        amounts.sold > 0 ? Decimal(amounts.refunded) / Decimal(amounts.sold) : nil
    }
}

/// One currency's totals: customer amounts of rows in that customer currency, proceeds of rows
/// whose proceeds are in it.
public struct CurrencyTotal: Sendable {
    public var currency: String
    public var sold: Int
    public var refunded: Int
    public var customer: Decimal
    public var proceeds: Decimal
}

/// A product and one of its Product Type Identifiers.
public struct ProductAndType: Sendable, Hashable {
    public var product: String
    public var type: String
}

/// The totals `iap report --sales` shows, summed from a ledger and sorted for output. Every total
/// but `others` and `otherLines` counts in-app purchase rows only (Apple's in-app purchase
/// product types): an app's downloads, updates and re-downloads are not in-app purchases sold.
public struct SalesTotals: Sendable {
    public var products: [ProductCount]
    /// Apps, app bundles, updates, re-downloads and product types not in Apple's table, per
    /// product and product type: an app's refund rate is its paid downloads', not diluted by its
    /// updates or free downloads.
    public var others: [ProductCount]
    /// The same, per product, product type and currency pair.
    public var otherLines: [CurrencyLine<ProductAndType>]
    public var byProduct: [CurrencyLine<String>]
    public var byStorefront: [CurrencyLine<String>]
    public var byDay: [CurrencyLine<String>]
    public var byCurrency: [CurrencyTotal]
    /// Units per day across currencies (for the chart).
    public var unitsByDay: [(day: String, sold: Int, refunded: Int)]
    public var subscriptions: [CurrencyLine<String>]
    public var events: [(product: String, event: String, quantity: Int)]

    public init(_ ledger: SalesLedger) {
        let names = ledger.interner
        struct Group: Hashable {
            var key: Int32
            var customer: Int32
            var proceeds: Int32
        }
        let inApp = ledger.inAppPurchaseTypes()
        let isInApp = { (k: RowKey) in inApp.contains(k.type) }
        func lines(_ key: (RowKey) -> Int32, _ name: (Int32) -> String) -> [CurrencyLine<String>] {
            ledger.grouped(where: isInApp) { Group(key: key($0), customer: $0.customer, proceeds: $0.proceeds) }
                .map { CurrencyLine(key: name($0.key.key), customerCurrency: names[$0.key.customer], proceedsCurrency: names[$0.key.proceeds],
                                    amounts: $0.value) }
                .sorted { ($0.key, $0.customerCurrency, $0.proceedsCurrency) < ($1.key, $1.customerCurrency, $1.proceedsCurrency) }
        }
        byProduct = lines({ $0.product }) { names[$0] }
        byStorefront = lines({ $0.country }) { names[$0] }
        byDay = lines({ $0.day }) { ledger.day($0)?.description ?? "" }
        var subscriptionGroups: [[String]: Amounts] = [:]
        for (k, a) in ledger.subscriptions { subscriptionGroups[[k.product + "\t" + k.country, k.customerCurrency, k.proceedsCurrency], default: Amounts()] += a }
        subscriptions = subscriptionGroups.map { CurrencyLine(key: $0.key[0], customerCurrency: $0.key[1], proceedsCurrency: $0.key[2], amounts: $0.value) }
            .sorted { ($0.key, $0.customerCurrency, $0.proceedsCurrency) < ($1.key, $1.customerCurrency, $1.proceedsCurrency) }

        struct ProductGroup: Hashable { var product: Int32; var type: Int32 }
        func productCounts(_ include: @escaping (RowKey) -> Bool) -> [ProductCount] {
            var counts: [String: (Set<String>, Amounts)] = [:]
            for (k, a) in ledger.grouped(where: include, { ProductGroup(product: $0.product, type: $0.type) }) {
                counts[names[k.product], default: ([], Amounts())].0.insert(names[k.type])
                counts[names[k.product]]!.1 += a
            }
            return counts.map { product, value in
                ProductCount(product: product, title: ledger.titles[product] ?? "", types: value.0.filter { !$0.isEmpty }.sorted(), amounts: value.1)
            }.sorted { $0.product < $1.product }
        }
        var currencies: [String: CurrencyTotal] = [:]
        for (k, a) in ledger.grouped(where: isInApp, { $0.customer }) {
            currencies[names[k]] = CurrencyTotal(currency: names[k], sold: a.sold, refunded: a.refunded, customer: a.customer, proceeds: 0)
        }
        for (k, a) in ledger.grouped(where: isInApp, { $0.proceeds }) {
            currencies[names[k], default: CurrencyTotal(currency: names[k], sold: 0, refunded: 0, customer: 0, proceeds: 0)].proceeds = a.proceeds
        }
        products = productCounts(isInApp)
        others = ledger.grouped(where: { !inApp.contains($0.type) }, { ProductGroup(product: $0.product, type: $0.type) })
            .map { ProductCount(product: names[$0.key.product], title: ledger.titles[names[$0.key.product]] ?? "",
                                types: names[$0.key.type].isEmpty ? [] : [names[$0.key.type]], amounts: $0.value) }
            .sorted { ($0.product, $0.types.first ?? "") < ($1.product, $1.types.first ?? "") }
        struct OtherGroup: Hashable { var product: Int32; var type: Int32; var customer: Int32; var proceeds: Int32 }
        otherLines = ledger.grouped(where: { !inApp.contains($0.type) }) {
            OtherGroup(product: $0.product, type: $0.type, customer: $0.customer, proceeds: $0.proceeds)
        }.map { CurrencyLine(key: ProductAndType(product: names[$0.key.product], type: names[$0.key.type]), customerCurrency: names[$0.key.customer],
                             proceedsCurrency: names[$0.key.proceeds], amounts: $0.value) }
            .sorted { ($0.key.product, $0.key.type, $0.customerCurrency, $0.proceedsCurrency) < ($1.key.product, $1.key.type, $1.customerCurrency, $1.proceedsCurrency) }
        byCurrency = currencies.values.sorted { $0.currency < $1.currency }
        unitsByDay = ledger.grouped(where: isInApp) { $0.day }.map { (day: ledger.day($0.key)?.description ?? "", sold: $0.value.sold, refunded: $0.value.refunded) }
            .sorted { $0.day < $1.day }
        var eventTotals: [[String]: Int] = [:]
        for (k, n) in ledger.events { eventTotals[[k.product, k.event], default: 0] += n }
        events = eventTotals.map { (product: $0.key[0], event: $0.key[1], quantity: $0.value) }
            .sorted { ($0.product, $0.event) < ($1.product, $1.event) }
    }
}
