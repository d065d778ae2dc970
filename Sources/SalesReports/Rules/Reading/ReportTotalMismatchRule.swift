import Diagnostics

/// `report-total-mismatch`: `SalesReportReader` reports it when a Financial report's totals lines are
/// read, in its one pass over the file.
public enum ReportTotalMismatchRule: Rule {
    public static let description = RuleDescription(
        id: "report-total-mismatch", name: "Report totals disagree", severity: .warning,
        rationale: "A Financial report ends with Total_Rows, Total_Amount and Total_Units lines; rows that do not add up to them mean an edited file, or a convention Apple does not document (whether Total_Units subtracts returns), so the totals are shown and the difference is a warning.",
        triggering: [], nonTriggering: [])
}
