import Diagnostics
import Foundation
import IAPCatalog
import SalesReports

/// Sales reports against the app's catalog: products that sold but are not in it, products of it
/// that did not sell, refund rates, and a report's Product Type Identifier against the kind the
/// catalog declares or infers.
public enum SalesJoin {
    /// The refund rate, in percent, at or above which a product is `high-refund-rate` (units
    /// refunded over units sold) unless `iap.yml` sets `rules.high-refund-rate.limit`.
    public static let defaultRefundRateLimit = 10

    /// The kinds a report's product type can be, or nil when any kind fits (or none: apps).
    static func kinds(for category: ProductType.Category) -> Set<ProductKind>? {
        switch category {
        case .inAppPurchase: [.consumable, .nonConsumable]
        case .restoredInAppPurchase: [.nonConsumable, .autoRenewable]
        case .nonRenewingSubscription: [.nonRenewing]
        case .autoRenewableSubscription: [.autoRenewable]
        default: nil
        }
    }

    /// Findings about the sales, with the catalogs when there are any.
    public static func findings(_ ledger: SalesLedger, totals: SalesTotals, catalogs: [Catalog],
                                refundRateLimit: Int = defaultRefundRateLimit) -> [Diagnostic] {
        let threshold = Decimal(refundRateLimit) / 100
        var out: [Diagnostic] = []
        let reportKinds = Set(ledger.files.compactMap(\.kind))
        if reportKinds.contains(.summarySales), reportKinds.contains(.financial),
           let financial = ledger.files.filter({ $0.kind == .financial }).map(\.path).sorted().first {
            out.append(ReportRules.overlappingReports.finding(
                "Summary Sales and Financial reports are totalled together: both count the same purchases, so every total counts them twice",
                at: SourceLocation(path: financial, line: 1, column: 1),
                fix: SuggestedFix("run iap report --sales once on the Summary Sales reports and once on the Financial ones")))
        }
        // Refund rates need no catalog; a paid app's count as much as an in-app purchase's.
        for product in totals.products + totals.others {
            guard let rate = product.refundRate, rate >= threshold, let at = ledger.firstSeen[product.product] else { continue }
            out.append(ReportRules.highRefundRate.finding(
                "\(Quote.bounded(product.product)) was refunded for \(product.amounts.refunded) of \(product.amounts.sold) units sold (\(SalesReportOutput.percentText(rate)))",
                at: at, fix: SuggestedFix("read its reviews and check that its name, description and price say what it is"),
                subject: product.product))
        }
        guard !catalogs.isEmpty else { return out }
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
        var sold: Set<String> = []
        // Rows named by product ID (Summary Sales, Financial): in-app purchases only, apps are not in a catalog.
        for product in totals.products {
            let categories = product.types.map { ProductType(code: $0).category }
            guard categories.contains(where: \.isInAppPurchase) else { continue }
            let at = ledger.firstSeen[product.product] ?? SourceLocation(path: "")
            guard let entry = byID[product.product] else {
                out.append(ReportRules.soldNotInCatalog.finding(
                    "\(Quote.bounded(product.product)) sold \(product.amounts.sold) unit\(product.amounts.sold == 1 ? "" : "s") as \(product.types.joined(separator: ", ")) but is not in the catalog",
                    at: at, fix: SuggestedFix("add it to the catalog, or check the catalog's IDs against App Store Connect"),
                    subject: product.product))
                continue
            }
            sold.insert(entry.id)
            guard let kind = entry.kind else { continue }
            for code in product.types {
                let category = ProductType(code: code).category
                guard let allowed = kinds(for: category), !allowed.contains(kind) else { continue }
                out.append(ReportRules.kindMismatch.finding(
                    "\(Quote.bounded(entry.id)) is sold as \(code) (\(category.rawValue)) but the catalog has it as \(kind.displayName) (\(entry.kindReason.description))",
                    at: at, related: [RelatedLocation(entry.location, "the catalog's product")],
                    fix: SuggestedFix("declare the kind App Store Connect sells it as"), subject: entry.id))
            }
        }
        // Subscription and event reports name subscriptions, not IDs: matched by reference or display name.
        let named = Set(ledger.subscriptions.keys.map(\.product)).union(ledger.events.keys.map(\.product))
        for name in named { if let entry = byName[name.lowercased()] { sold.insert(entry.id) } }
        // Unsold products only when some report counts sales by product ID.
        let countsSales = ledger.files.contains { $0.kind == .summarySales || $0.kind == .financial }
        if countsSales {
            let period = ledger.firstDay.map { first in first == ledger.lastDay ? "on \(first)" : "from \(first) to \(ledger.lastDay ?? first)" } ?? "in the reports"
            for catalog in catalogs {
                for product in catalog.products where !sold.contains(product.id) {
                    sold.insert(product.id)
                    out.append(ReportRules.unsoldProduct.finding(
                        "\(Quote.bounded(product.id)) is in the catalog but sold nothing \(period)",
                        at: product.location, subject: product.id))
                }
            }
        }
        return out
    }
}
