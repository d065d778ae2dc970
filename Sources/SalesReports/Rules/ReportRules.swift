import Diagnostics

/// The registry of this module's rules of `iap report --sales`: what reading App Store Connect
/// reports finds (`Rules/Reading/`) and the sales alone (`Rules/Sales/`). The rules that join the
/// sales with the catalog live above both, in CatalogJoins, whose `SalesReportRules.all` lists
/// every rule of the command in the order `iap rules` shows. Each finding names the report's file
/// and line (`S_D_….txt:4`).
public enum ReportRules {
    public static let all = [UnreadableReportRule.description, UnreadableReportRowRule.description, ReportTotalsMissingRule.description,
                             ReportTotalMismatchRule.description, DuplicateReportRule.description, UnknownProductTypeRule.description,
                             OverlappingReportsRule.description, HighRefundRateRule.description]
}
