import Diagnostics

/// `unknown-product-type`: `SalesReportReader` reports it for the first row of each unknown Product
/// Type Identifier, in its one pass over the file.
public enum UnknownProductTypeRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-product-type", name: "Unknown product type", severity: .warning,
        rationale: "A Product Type Identifier that is not in Apple's table is kept and totalled as unknown, apart from the in-app purchases, since iap cannot tell what it sells; it is either new or a damaged row.",
        triggering: [], nonTriggering: [])
}
