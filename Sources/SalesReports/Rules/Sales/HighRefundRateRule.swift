import Diagnostics
import Foundation

/// `high-refund-rate`: a product refunded for `limit` percent or more of the units sold in the
/// reports' period. Needs no catalog: a paid app's refunds count as much as an in-app purchase's.
public enum HighRefundRateRule: Rule {
    public static let description = RuleDescription(
        id: "high-refund-rate", name: "High refund rate", severity: .warning, defaultLimit: 10,
        rationale: "A product refunded for 10% or more of its units sold in the period (rules.high-refund-rate.limit in iap.yml sets another percentage) is one customers feel misled by: its name, description or price needs a look.",
        triggering: [], nonTriggering: [])

    /// One finding per product (in-app purchase or app) whose refund rate reaches `limit` percent.
    static func findings(_ ledger: SalesLedger, totals: SalesTotals, limit: Int) -> [Diagnostic] {
        let threshold = Decimal(limit) / 100
        var out: [Diagnostic] = []
        for product in totals.products + totals.others {
            guard let rate = product.refundRate, rate >= threshold, let at = ledger.firstSeen[product.product] else { continue }
            out.append(description.finding(
                "\(Quote.bounded(product.product)) was refunded for \(product.amounts.refunded) of \(product.amounts.sold) units sold (\(SalesReportOutput.percentText(rate)))",
                at: at, fix: SuggestedFix("read its reviews and check that its name, description and price say what it is"),
                subject: product.product))
        }
        return out
    }
}
