import Diagnostics
import IAPCatalog
import SalesReports

/// `sales-kind-mismatch`: a report's Product Type Identifier that no kind the catalog gives the
/// product fits (an auto-renewable subscription sold as a consumable).
public enum SalesKindMismatchRule: SalesJoinRule {
    public static let description = RuleDescription(
        id: "sales-kind-mismatch", name: "Sold as another kind", severity: .warning,
        rationale: "The report's Product Type Identifier says what App Store Connect sells the product as; a catalog that declares another kind gives the app the wrong purchase logic.",
        triggering: [], nonTriggering: [])

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

    /// Each sale whose product type the catalog's product of its ID cannot be sold as.
    static func check(_ match: SalesCatalogMatch, into found: inout [Diagnostic]) {
        for sale in match.sales {
            if let entry = sale.entry { found += findings(sale.product, entry, at: sale.at) }
        }
    }

    /// One finding per product type of `product` that the catalog's `entry` cannot be sold as.
    static func findings(_ product: ProductCount, _ entry: Product, at: SourceLocation) -> [Diagnostic] {
        guard let kind = entry.kind else { return [] }
        var out: [Diagnostic] = []
        for code in product.types {
            let category = ProductType(code: code).category
            guard let allowed = kinds(for: category), !allowed.contains(kind) else { continue }
            out.append(description.finding(
                "\(Quote.bounded(entry.id)) is sold as \(code) (\(category.rawValue)) but the catalog has it as \(kind.displayName) (\(entry.kindReason.description))",
                at: at, related: [RelatedLocation(entry.location, "the catalog's product")],
                fix: SuggestedFix("declare the kind App Store Connect sells it as"), subject: entry.id))
        }
        return out
    }
}
