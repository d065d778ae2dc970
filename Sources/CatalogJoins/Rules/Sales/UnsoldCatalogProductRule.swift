import Diagnostics
import IAPCatalog
import SalesReports

/// `unsold-catalog-product`: a product of the catalogs that no report of the period sold, only
/// when some report counts sales by product ID (Summary Sales, Financial).
public enum UnsoldCatalogProductRule: SalesJoinRule {
    public static let description = RuleDescription(
        id: "unsold-catalog-product", name: "Catalog product with no sales", severity: .info,
        rationale: "A product of the catalog that no report of the period sold may be unreachable in the app, or not yet on sale.",
        triggering: [], nonTriggering: [])

    static func check(_ match: SalesCatalogMatch, into found: inout [Diagnostic]) {
        found += findings(match.ledger, catalogs: match.catalogs, sold: match.sold)
    }

    /// `sold`: the IDs of the catalogs' products some report names (`SalesCatalogMatch.sold`).
    static func findings(_ ledger: SalesLedger, catalogs: [Catalog], sold: Set<String>) -> [Diagnostic] {
        guard ledger.files.contains(where: { $0.kind == .summarySales || $0.kind == .financial }) else { return [] }
        let period = ledger.firstDay.map { first in first == ledger.lastDay ? "on \(first)" : "from \(first) to \(ledger.lastDay ?? first)" } ?? "in the reports"
        var said = sold
        var out: [Diagnostic] = []
        for catalog in catalogs {
            for product in catalog.products where !said.contains(product.id) {
                said.insert(product.id)
                out.append(description.finding(
                    "\(Quote.bounded(product.id)) is in the catalog but sold nothing \(period)",
                    at: product.location, subject: product.id))
            }
        }
        return out
    }
}
