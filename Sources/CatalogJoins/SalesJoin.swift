import Diagnostics
import IAPCatalog
import SalesReports

/// Findings about the sales a ledger holds, with the app's catalogs when there are any: reports
/// that overlap, refund rates, products that sold but are not in a catalog, products of one that
/// did not sell, and a report's Product Type Identifier against the kind the catalog declares or
/// infers. Each rule decides in its own file; this runs them in order.
public enum SalesJoin {
    /// The refund rate, in percent, at or above which a product is `high-refund-rate` (units
    /// refunded over units sold) unless `iap.yml` sets `rules.high-refund-rate.limit`.
    public static let defaultRefundRateLimit = HighRefundRateRule.description.defaultLimit!

    /// Findings about the sales, with the catalogs when there are any.
    public static func findings(_ ledger: SalesLedger, totals: SalesTotals, catalogs: [Catalog],
                                refundRateLimit: Int = defaultRefundRateLimit) -> [Diagnostic] {
        var out = OverlappingReportsRule.findings(ledger)
        out += HighRefundRateRule.findings(ledger, totals: totals, limit: refundRateLimit)
        guard !catalogs.isEmpty else { return out }
        let match = SalesCatalogMatch(ledger, totals: totals, catalogs: catalogs)
        for sale in match.sales {
            if let entry = sale.entry {
                out += SalesKindMismatchRule.findings(sale.product, entry, at: sale.at)
            } else {
                out.append(SoldProductNotInCatalogRule.finding(sale.product, at: sale.at))
            }
        }
        out += UnsoldCatalogProductRule.findings(ledger, catalogs: catalogs, sold: match.sold)
        return out
    }
}

/// The sales joined with the catalogs, once, for the rules that compare them (`Rules/Catalog/`).
struct SalesCatalogMatch {
    /// The in-app purchases reports name by product ID (Summary Sales, Financial; apps are not in a
    /// catalog), each with the catalog's product of that ID, if any, and where it was first seen.
    var sales: [(product: ProductCount, entry: Product?, at: SourceLocation)] = []
    /// The IDs of the catalogs' products some report names: by ID, or, in subscription and event
    /// reports, which name subscriptions, by reference or display name.
    var sold: Set<String> = []

    init(_ ledger: SalesLedger, totals: SalesTotals, catalogs: [Catalog]) {
        var byID: [String: Product] = [:]
        var byName: [String: Product] = [:]
        for catalog in catalogs {
            for product in catalog.products {
                byID[product.id] = byID[product.id] ?? product
                for name in [product.metadata.referenceName?.value, product.displayName].compactMap({ $0 }) {
                    byName[name.lowercased()] = byName[name.lowercased()] ?? product
                }
            }
        }
        for product in totals.products {
            let categories = product.types.map { ProductType(code: $0).category }
            guard categories.contains(where: \.isInAppPurchase) else { continue }
            let entry = byID[product.product]
            sales.append((product, entry, ledger.firstSeen[product.product] ?? SourceLocation(path: "")))
            if let entry { sold.insert(entry.id) }
        }
        let named = Set(ledger.subscriptions.keys.map(\.product)).union(ledger.events.keys.map(\.product))
        for name in named { if let entry = byName[name.lowercased()] { sold.insert(entry.id) } }
    }
}
