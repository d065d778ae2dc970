import Diagnostics

/// `duplicate-report`: `SalesReportReader` reports it when a report's rows match one already read, in
/// its one pass over the file.
public enum DuplicateReportRule: Rule {
    public static let description = RuleDescription(
        id: "duplicate-report", name: "Report given twice", severity: .warning,
        rationale: "The same report given twice (a browser's 'S_D_… (1).txt', a .txt beside its .txt.gz) would count every sale twice; it is recognised by its rows, whatever its name, and counted once.",
        triggering: [], nonTriggering: [])
}
