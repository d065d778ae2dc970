import Diagnostics

/// The rules of `iap report --sales`: what reading App Store Connect reports and joining them with
/// the catalog finds. Each finding names the report's file and line (`S_D_….txt:4`) or the
/// catalog's.
public enum ReportRules {
    public static let unreadableReport = RuleDescription(
        id: "unreadable-report", name: "Unreadable sales report", severity: .error,
        rationale: "A report that cannot be opened, is damaged, or whose header names no App Store Connect report cannot be totalled; nothing of it is counted, and the totals say so.",
        triggering: [], nonTriggering: [])

    public static let unreadableRow = RuleDescription(
        id: "unreadable-report-row", name: "Unreadable report row", severity: .error,
        rationale: "A row whose fields do not parse (a count that is not a whole number, an amount that is not a decimal, a date in the wrong form, too few fields) is left out of the totals; it is reported with its line so the totals are never silently short.",
        triggering: [], nonTriggering: [])

    public static let totalMismatch = RuleDescription(
        id: "report-total-mismatch", name: "Report totals disagree", severity: .warning,
        rationale: "A Financial report ends with Total_Rows, Total_Amount and Total_Units lines; rows that do not add up to them mean an edited file, or a convention Apple does not document (whether Total_Units subtracts returns), so the totals are shown and the difference is a warning.",
        triggering: [], nonTriggering: [])

    public static let totalsMissing = RuleDescription(
        id: "report-totals-missing", name: "Report totals missing", severity: .error,
        rationale: "A Financial report ends with Total_Rows, Total_Amount and Total_Units lines; a file without them was cut short, and its totals leave out the rows it lost.",
        triggering: [], nonTriggering: [])

    public static let duplicateReport = RuleDescription(
        id: "duplicate-report", name: "Report given twice", severity: .warning,
        rationale: "The same report given twice (a browser's 'S_D_… (1).txt', a .txt beside its .txt.gz) would count every sale twice; it is recognised by its rows, whatever its name, and counted once.",
        triggering: [], nonTriggering: [])

    public static let unknownProductType = RuleDescription(
        id: "unknown-product-type", name: "Unknown product type", severity: .warning,
        rationale: "A Product Type Identifier that is not in Apple's table is kept and totalled as unknown, apart from the in-app purchases, since iap cannot tell what it sells; it is either new or a damaged row.",
        triggering: [], nonTriggering: [])

    public static let soldNotInCatalog = RuleDescription(
        id: "sold-product-not-in-catalog", name: "Sold product not in the catalog", severity: .warning,
        rationale: "An in-app purchase that sold but that the catalog does not list is one the app's code cannot know about, or a catalog that fell behind App Store Connect.",
        triggering: [], nonTriggering: [])

    public static let unsoldProduct = RuleDescription(
        id: "unsold-catalog-product", name: "Catalog product with no sales", severity: .info,
        rationale: "A product of the catalog that no report of the period sold may be unreachable in the app, or not yet on sale.",
        triggering: [], nonTriggering: [])

    public static let highRefundRate = RuleDescription(
        id: "high-refund-rate", name: "High refund rate", severity: .warning,
        rationale: "A product refunded for 10% or more of its units sold in the period (rules.high-refund-rate.limit in iap.yml sets another percentage) is one customers feel misled by: its name, description or price needs a look.",
        triggering: [], nonTriggering: [])

    public static let kindMismatch = RuleDescription(
        id: "sales-kind-mismatch", name: "Sold as another kind", severity: .warning,
        rationale: "The report's Product Type Identifier says what App Store Connect sells the product as; a catalog that declares another kind gives the app the wrong purchase logic.",
        triggering: [], nonTriggering: [])

    public static let overlappingReports = RuleDescription(
        id: "overlapping-reports", name: "Sales counted twice", severity: .warning,
        rationale: "Summary Sales and Financial reports of the same period count the same purchases; totalled together they count each twice. Total them in separate runs.",
        triggering: [], nonTriggering: [])

    public static let all = [unreadableReport, unreadableRow, totalsMissing, totalMismatch, duplicateReport, unknownProductType, overlappingReports,
                             soldNotInCatalog, unsoldProduct, highRefundRate, kindMismatch]
}
