import Diagnostics

/// `overlapping-reports`: Summary Sales and Financial reports totalled in one run, said once at
/// the first Financial report.
public enum OverlappingReportsRule: SalesRule {
    public static let description = RuleDescription(
        id: "overlapping-reports", name: "Sales counted twice", severity: .warning,
        rationale: "Summary Sales and Financial reports of the same period count the same purchases; totalled together they count each twice. Total them in separate runs.",
        triggering: [], nonTriggering: [])

    package static func check(_ review: SalesReview, into found: inout [Diagnostic]) {
        found += findings(review.ledger)
    }

    static func findings(_ ledger: SalesLedger) -> [Diagnostic] {
        let reportKinds = Set(ledger.files.compactMap(\.kind))
        guard reportKinds.contains(.summarySales), reportKinds.contains(.financial),
              let financial = ledger.files.filter({ $0.kind == .financial }).map(\.path).sorted().first else { return [] }
        return [description.finding(
            "Summary Sales and Financial reports are totalled together: both count the same purchases, so every total counts them twice",
            at: SourceLocation(path: financial, line: 1, column: 1),
            fix: SuggestedFix("run iap report --sales once on the Summary Sales reports and once on the Financial ones"))]
    }
}
