import Diagnostics

/// `report-totals-missing`: `SalesReportReader` reports it at the end of a Financial report without
/// totals lines, in its one pass over the file.
public enum ReportTotalsMissingRule: Rule {
    public static let description = RuleDescription(
        id: "report-totals-missing", name: "Report totals missing", severity: .error,
        rationale: "A Financial report ends with Total_Rows, Total_Amount and Total_Units lines; a file without them was cut short, and its totals leave out the rows it lost.",
        triggering: [], nonTriggering: [])
}
