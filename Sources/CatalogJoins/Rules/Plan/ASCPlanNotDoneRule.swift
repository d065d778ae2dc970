import Diagnostics

/// `asc-plan-not-done`: a difference the plan leaves (`iap asc plan`; `PlanRules.findings` reports it).
public enum ASCPlanNotDoneRule: Rule {
    public static let description = RuleDescription(
        id: "asc-plan-not-done", name: "Difference the plan leaves", severity: .info,
        rationale: "A difference the plan does not change: a removal (iap never deletes: a product, localization or territory App Store Connect has and the catalog does not is removed by hand), a field the snapshot does not hold (pull it with --all-storefronts, --availability, --storefront, --promotional-offers, --win-back-offers or --offer-codes to plan it), or an offer App Store Connect holds on other terms (it changes an offer only by ending it, or only some of its fields).",
        triggering: [], nonTriggering: [])
}
