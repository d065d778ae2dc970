import Diagnostics

/// `unreadable-report`: `SalesReportReader` reports it while opening and reading a report, in its one
/// pass over the file.
public enum UnreadableReportRule: Rule {
    public static let description = RuleDescription(
        id: "unreadable-report", name: "Unreadable sales report", severity: .error,
        rationale: "A report that cannot be opened, is damaged, or whose header names no App Store Connect report cannot be totalled; nothing of it is counted, and the totals say so.",
        triggering: [], nonTriggering: [])
}
