import Diagnostics

/// `unreadable-report-row`: `SalesReportReader` reports it for each row it cannot read, in its one pass
/// over the file.
public enum UnreadableReportRowRule: Rule {
    public static let description = RuleDescription(
        id: "unreadable-report-row", name: "Unreadable report row", severity: .error,
        rationale: "A row whose fields do not parse (a count that is not a whole number, an amount that is not a decimal, a date in the wrong form, too few fields) is left out of the totals; it is reported with its line so the totals are never silently short.",
        triggering: [], nonTriggering: [])
}
