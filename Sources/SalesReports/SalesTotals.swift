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

/// The totals `iap report --sales` shows, summed from a ledger and sorted for output.
public struct SalesTotals: Sendable {
    public var products: [ProductCount]
    public var byProduct: [CurrencyLine<String>]
    public var byStorefront: [CurrencyLine<String>]
    public var byDay: [CurrencyLine<String>]
    public var byCurrency: [CurrencyTotal]
    /// Units per day across currencies (for the chart).
    public var unitsByDay: [(day: String, sold: Int, refunded: Int)]
    public var subscriptions: [CurrencyLine<String>]
    public var events: [(product: String, event: String, quantity: Int)]

    public init(_ ledger: SalesLedger) {
        func lines(_ source: [SalesKey: Amounts], _ key: (SalesKey) -> String) -> [CurrencyLine<String>] {
            var grouped: [[String]: Amounts] = [:]
            for (k, a) in source { grouped[[key(k), k.customerCurrency, k.proceedsCurrency], default: Amounts()] += a }
            return grouped.map { CurrencyLine(key: $0.key[0], customerCurrency: $0.key[1], proceedsCurrency: $0.key[2], amounts: $0.value) }
                .sorted { ($0.key, $0.customerCurrency, $0.proceedsCurrency) < ($1.key, $1.customerCurrency, $1.proceedsCurrency) }
        }
        byProduct = lines(ledger.sales) { $0.product }
        byStorefront = lines(ledger.sales) { $0.country }
        byDay = lines(ledger.sales) { $0.day?.description ?? "" }
        subscriptions = lines(ledger.subscriptions) { $0.product + "\t" + $0.country }

        var counts: [String: (Set<String>, Amounts)] = [:]
        var currencies: [String: CurrencyTotal] = [:]
        var days: [String: (Int, Int)] = [:]
        for (k, a) in ledger.sales {
            counts[k.product, default: ([], Amounts())].0.insert(k.productType)
            counts[k.product]!.1 += a
            var c = currencies[k.customerCurrency] ?? CurrencyTotal(currency: k.customerCurrency, sold: 0, refunded: 0, customer: 0, proceeds: 0)
            c.sold += a.sold
            c.refunded += a.refunded
            c.customer += a.customer
            currencies[k.customerCurrency] = c
            var p = currencies[k.proceedsCurrency] ?? CurrencyTotal(currency: k.proceedsCurrency, sold: 0, refunded: 0, customer: 0, proceeds: 0)
            p.proceeds += a.proceeds
            currencies[k.proceedsCurrency] = p
            let day = k.day?.description ?? ""
            days[day, default: (0, 0)].0 += a.sold
            days[day]!.1 += a.refunded
        }
        products = counts.map { product, value in
            ProductCount(product: product, title: ledger.titles[product] ?? "", types: value.0.filter { !$0.isEmpty }.sorted(), amounts: value.1)
        }.sorted { $0.product < $1.product }
        byCurrency = currencies.values.sorted { $0.currency < $1.currency }
        unitsByDay = days.map { (day: $0.key, sold: $0.value.0, refunded: $0.value.1) }.sorted { $0.day < $1.day }
        var eventTotals: [[String]: Int] = [:]
        for (k, n) in ledger.events { eventTotals[[k.product, k.event], default: 0] += n }
        events = eventTotals.map { (product: $0.key[0], event: $0.key[1], quantity: $0.value) }
            .sorted { ($0.product, $0.event) < ($1.product, $1.event) }
    }
}
