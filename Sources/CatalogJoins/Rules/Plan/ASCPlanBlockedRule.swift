import Diagnostics

/// `asc-plan-blocked`: a change App Store Connect cannot make (`iap asc plan`; `PlanRules.findings` reports it).
public enum ASCPlanBlockedRule: Rule {
    public static let description = RuleDescription(
        id: "asc-plan-blocked", name: "Change App Store Connect cannot make", severity: .error,
        rationale: "The catalog declares what App Store Connect cannot become: a product's type changed, a subscription moved to another group, Family Sharing turned off, a product without the kind, reference name or group App Store Connect needs, a price with no territory, an offer of a duration App Store Connect lacks or on a subscription with no price. `iap asc apply` never attempts it; the catalog must change.",
        triggering: [], nonTriggering: [])
}
