import Diagnostics
import IAPCatalog
import SalesReports

/// Findings about the sales a ledger holds, with the app's catalogs when there are any: reports
/// that overlap, refund rates, products that sold but are not in a catalog, products of one that
/// did not sell, and a report's Product Type Identifier against the kind the catalog declares or
/// infers. Each rule decides in its own file; this runs them in order.
public enum SalesJoin {
    /// Findings about the sales, with the catalogs when there are any: each rule of
    /// `ReportRules.sales`, then, with catalogs, each of `SalesReportRules.joinRules`. `limits`:
    /// `rules.ID.limit` of `iap.yml`, by rule ID.
    public static func findings(_ ledger: SalesLedger, totals: SalesTotals, catalogs: [Catalog], limits: [String: Int] = [:]) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let review = SalesReview(ledger: ledger, totals: totals, limits: limits)
        for rule in ReportRules.sales { rule.check(review, into: &out) }
        guard !catalogs.isEmpty else { return out }
        let match = SalesCatalogMatch(ledger, totals: totals, catalogs: catalogs)
        for rule in SalesReportRules.joinRules { rule.check(match, into: &out) }
        return out
    }
}

/// A rule joining the sales with the catalogs: its check over their match.
protocol SalesJoinRule: Rule {
    static func check(_ match: SalesCatalogMatch, into found: inout [Diagnostic])
}

/// The sales joined with the catalogs, once, for the rules that compare them (`Rules/Catalog/`).
struct SalesCatalogMatch {
    let ledger: SalesLedger
    let catalogs: [Catalog]
    /// The in-app purchases reports name by product ID (Summary Sales, Financial; apps are not in a
    /// catalog), each with the catalog's product of that ID, if any, and where it was first seen.
    var sales: [(product: ProductCount, entry: Product?, at: SourceLocation)] = []
    /// The IDs of the catalogs' products some report names: by ID, or, in subscription and event
    /// reports, which name subscriptions, by reference or display name.
    var sold: Set<String> = []

    init(_ ledger: SalesLedger, totals: SalesTotals, catalogs: [Catalog]) {
        self.ledger = ledger
        self.catalogs = catalogs
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
