import Diagnostics

/// The registry of this module's rules of `iap report --sales`: what reading App Store Connect
/// reports finds (`Rules/Reading/`) and the sales alone (`Rules/Sales/`). The rules that join the
/// sales with the catalog live above both, in CatalogJoins, whose `SalesReportRules.all` lists
/// every rule of the command in the order `iap rules` shows. Each finding names the report's file
/// and line (`S_D_….txt:4`).
public enum ReportRules {
    /// Every rule, in the order `iap rules` lists them.
    static let rules: [any Rule.Type] = [
        UnreadableReportRule.self, UnreadableReportRowRule.self, ReportTotalsMissingRule.self, ReportTotalMismatchRule.self,
        DuplicateReportRule.self, UnknownProductTypeRule.self, OverlappingReportsRule.self, HighRefundRateRule.self,
    ]

    public static let all: [RuleDescription] = rules.map { $0.description }

    /// The rules about the sales alone, which `SalesJoin` runs over a `SalesReview` (the reading
    /// rules are found by the reader, as it reads).
    package static let sales: [any SalesRule.Type] = rules.compactMap { $0 as? any SalesRule.Type }
}

/// A rule about the sales alone: its check over what the reports hold once all are read.
package protocol SalesRule: Rule {
    static func check(_ review: SalesReview, into found: inout [Diagnostic])
}

/// What the rules about the sales read: the reports' ledger, its totals, and the limits
/// `iap.yml` sets (`rules.ID.limit`), by rule ID.
package struct SalesReview {
    package let ledger: SalesLedger
    package let totals: SalesTotals
    package let limits: [String: Int]

    package init(ledger: SalesLedger, totals: SalesTotals, limits: [String: Int]) {
        self.ledger = ledger
        self.totals = totals
        self.limits = limits
    }

    /// The rule's limit: the one set, or its default.
    package func limit(of rule: RuleDescription) -> Int? { limits[rule.id] ?? rule.defaultLimit }
}
