import Diagnostics

/// The registry of the rules of `iap report --sales`, in the order `iap rules` lists them: what
/// reading App Store Connect reports finds (`Rules/Reading/`), the sales alone (`Rules/Sales/`),
/// and the sales joined with the catalog (`Rules/Catalog/`). Each finding names the report's
/// file and line (`S_D_….txt:4`) or the catalog's.
public enum ReportRules {
    public static let all = [UnreadableReportRule.description, UnreadableReportRowRule.description, ReportTotalsMissingRule.description,
                             ReportTotalMismatchRule.description, DuplicateReportRule.description, UnknownProductTypeRule.description,
                             OverlappingReportsRule.description, SoldProductNotInCatalogRule.description, UnsoldCatalogProductRule.description,
                             HighRefundRateRule.description, SalesKindMismatchRule.description]
}
