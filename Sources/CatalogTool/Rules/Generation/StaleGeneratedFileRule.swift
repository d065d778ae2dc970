import Diagnostics

/// `stale-generated-file`: a generated file differs from what its catalog generates now.
public enum StaleGeneratedFileRule: Rule {
    public static let description = RuleDescription(
        id: "stale-generated-file", name: "Stale generated file", severity: .error,
        rationale: "A generated file that no longer matches its catalog (or is missing) lets code use IDs the catalog dropped and miss the ones it added; regenerate it with iap gen.",
        triggering: [], nonTriggering: [])
}
