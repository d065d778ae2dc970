import Diagnostics

/// `asc-plan-change`: a change the plan makes (`iap asc plan`; `PlanRules.findings` reports it).
public enum ASCPlanChangeRule: Rule {
    public static let description = RuleDescription(
        id: "asc-plan-change", name: "Change the plan makes", severity: .info,
        rationale: "A step of the plan `iap asc apply` makes: App Store Connect does not hold what the catalog declares (a product, a localization, a field, a price, an availability, an offer). Reported so a pull request shows what merging it will change in App Store Connect; a baseline keeps accepted ones quiet.",
        triggering: [], nonTriggering: [])
}
