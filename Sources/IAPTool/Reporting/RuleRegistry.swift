import AppStoreConnect
import CatalogJoins
import CodeGeneration
import Diagnostics
import IAPCatalog
import SalesReports
import SourceLint

/// Every rule the tool has, in the order `iap rules` lists them: catalog rules (load-time ones
/// first), lint rules, the tool's own, the sales reports', then App Store Connect drift and readiness.
public enum RuleRegistry {
    public static let all: [RuleDescription] = CatalogRules.descriptions + LintRules.all + ToolRules.all + SalesReportRules.all + ASCRules.all + ReadinessRules.all + PricePointRules.all + PlanRules.all

    private static let byID: [String: RuleDescription] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

    public static func rule(_ id: String) -> RuleDescription? { byID[id] }

    /// The family a rule belongs to, as `iap rules` groups them.
    public static func family(of id: String) -> String {
        if CatalogRules.rule(id) != nil { return "catalog" }
        if LintRules.ids.contains(id) { return "lint" }
        if SalesReportRules.all.contains(where: { $0.id == id }) { return "report" }
        if ASCRules.all.contains(where: { $0.id == id }) || ReadinessRules.all.contains(where: { $0.id == id })
            || PricePointRules.all.contains(where: { $0.id == id }) || PlanRules.all.contains(where: { $0.id == id }) { return "asc" }
        return "tool"
    }
}
