import Diagnostics
import Foundation

/// `high-refund-rate`: an in-app purchase refunded for `limit` percent or more of the units sold in
/// the reports' period, counted over its in-app purchase rows (Apple's in-app purchase product types,
/// `ProductType.Category.isInAppPurchase`) only. Needs no catalog. An app's rows (paid downloads,
/// bundles, updates, re-downloads) and rows of a product type not in Apple's table are not in-app
/// purchases: the rule is about what a catalog sells, and an app's refunds are App Store
/// Connect's to show.
public enum HighRefundRateRule: SalesRule {
    public static let description = RuleDescription(
        id: "high-refund-rate", name: "High refund rate", severity: .warning, defaultLimit: 10,
        rationale: "An in-app purchase refunded for 10% or more of its units sold in the period (rules.high-refund-rate.limit in iap.yml sets another percentage) is one customers feel misled by: its name, description or price needs a look.",
        triggering: [], nonTriggering: [])

    /// One finding per in-app purchase whose refund rate, over its in-app purchase rows, reaches
    /// `limit` percent (`totals.products`: `totals.others` holds apps and unknown product types).
    package static func check(_ review: SalesReview, into found: inout [Diagnostic]) {
        guard let limit = review.limit(of: description) else { return }
        found += findings(review.ledger, totals: review.totals, limit: limit)
    }

    static func findings(_ ledger: SalesLedger, totals: SalesTotals, limit: Int) -> [Diagnostic] {
        let threshold = Decimal(limit) / 100
        var out: [Diagnostic] = []
        for product in totals.products {
            guard let rate = product.refundRate, rate >= threshold, let at = ledger.firstSeen[product.product] else { continue }
            out.append(description.finding(
                "\(Quote.bounded(product.product)) was refunded for \(product.amounts.refunded) of \(product.amounts.sold) units sold (\(SalesReportOutput.percentText(rate)))",
                at: at, fix: SuggestedFix("read its reviews and check that its name, description and price say what it is"),
                subject: product.product))
        }
        return out
    }
}
