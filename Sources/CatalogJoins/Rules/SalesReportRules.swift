import Diagnostics
import SalesReports

/// Every rule of `iap report --sales`, in the order `iap rules` lists them: SalesReports' own
/// (`ReportRules.all`: reading the reports, the sales alone) with the sales joined to the catalog
/// (`Rules/Sales/` here) among them.
public enum SalesReportRules {
    /// The rules that join the sales with the catalogs.
    public static let joins = [SoldProductNotInCatalogRule.description, UnsoldCatalogProductRule.description, SalesKindMismatchRule.description]

    public static let all = [UnreadableReportRule.description, UnreadableReportRowRule.description, ReportTotalsMissingRule.description,
                             ReportTotalMismatchRule.description, DuplicateReportRule.description, UnknownProductTypeRule.description,
                             OverlappingReportsRule.description, SoldProductNotInCatalogRule.description, UnsoldCatalogProductRule.description,
                             HighRefundRateRule.description, SalesKindMismatchRule.description]
}
