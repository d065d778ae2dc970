import Diagnostics
import IAPCatalog
import SalesReports

/// `sold-product-not-in-catalog`: an in-app purchase a report sold by product ID that no catalog
/// lists (`SalesCatalogMatch` joins them).
public enum SoldProductNotInCatalogRule: SalesJoinRule {
    public static let description = RuleDescription(
        id: "sold-product-not-in-catalog", name: "Sold product not in the catalog", severity: .warning,
        rationale: "An in-app purchase that sold but that the catalog does not list is one the app's code cannot know about, or a catalog that fell behind App Store Connect.",
        triggering: [], nonTriggering: [])

    /// Each in-app purchase that sold and that no catalog lists.
    static func check(_ match: SalesCatalogMatch, into found: inout [Diagnostic]) {
        for sale in match.sales where sale.entry == nil { found.append(finding(sale.product, at: sale.at)) }
    }

    static func finding(_ product: ProductCount, at: SourceLocation) -> Diagnostic {
        description.finding(
            "\(Quote.bounded(product.product)) sold \(product.amounts.sold) unit\(product.amounts.sold == 1 ? "" : "s") as \(product.types.joined(separator: ", ")) but is not in the catalog",
            at: at, fix: SuggestedFix("add it to the catalog, or check the catalog's IDs against App Store Connect"),
            subject: product.product)
    }
}
