import Diagnostics
import SalesReports

/// Every rule of `iap report --sales`, in the order `iap rules` lists them: SalesReports' own
/// (`ReportRules.all`: reading the reports, the sales alone), each followed by the rules joining
/// the sales with the catalog (`Rules/Sales/` here) that `iap rules` lists after it. A rule added
/// to `ReportRules.all` is listed here without a second edit.
public enum SalesReportRules {
    /// The joins, by the rule of SalesReports they follow.
    static let following: [String: [RuleDescription]] = [
        OverlappingReportsRule.id: [SoldProductNotInCatalogRule.description, UnsoldCatalogProductRule.description],
        HighRefundRateRule.id: [SalesKindMismatchRule.description],
    ]

    public static let all: [RuleDescription] = ReportRules.all.flatMap { [$0] + (following[$0.id] ?? []) }

    /// The rules that join the sales with the catalogs, in the order `all` lists them.
    public static let joins: [RuleDescription] = all.filter { rule in !ReportRules.all.contains { $0.id == rule.id } }
}
