import Diagnostics
import SalesReports

/// Every rule of `iap report --sales`, in the order `iap rules` lists them: SalesReports' own
/// (`ReportRules.all`: reading the reports, the sales alone), each followed by the rules joining
/// the sales with the catalog (`Rules/Sales/` here) that `iap rules` lists after it. A rule added
/// to `ReportRules.all` is listed here without a second edit.
public enum SalesReportRules {
    /// The joins, by the rule of SalesReports they follow.
    static let following: [String: [any SalesJoinRule.Type]] = [
        OverlappingReportsRule.id: [SoldProductNotInCatalogRule.self, UnsoldCatalogProductRule.self],
        HighRefundRateRule.id: [SalesKindMismatchRule.self],
    ]

    public static let all: [RuleDescription] = ReportRules.all.flatMap { [$0] + (following[$0.id] ?? []).map { $0.description } }

    /// The rules that join the sales with the catalogs, in the order `all` lists them.
    static let joinRules: [any SalesJoinRule.Type] = ReportRules.all.flatMap { following[$0.id] ?? [] }

    public static let joins: [RuleDescription] = joinRules.map { $0.description }
}
