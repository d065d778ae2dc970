import AppStoreConnect
import Diagnostics
import Foundation

/// The findings of `iap asc plan`: each step a change, each difference it does not change.
public enum PlanRules {
    static let change = ASCPlanChangeRule.description
    static let blocked = ASCPlanBlockedRule.description
    static let notDone = ASCPlanNotDoneRule.description

    public static let all = [change, blocked, notDone]

    /// The plan as findings, each at its place in the catalog (or the snapshot).
    public static func findings(_ plan: CatalogPlan, snapshotPath: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for step in plan.steps {
            let values = step.set.keys.sorted().filter { $0 != "baseTerritory" && !(step.action == .setPrices && $0 == "startDate") }.map { key in "\(key) \(Quote.escaped(step.set[key]!))" }
            let was = step.before.map { before in
                before.isEmpty ? "" : " (now " + before.keys.sorted().map { "\($0) \(Quote.escaped(before[$0]!))" }.joined(separator: ", ") + ")"
            } ?? ""
            found.append(change.finding("step \(step.number): \(PlanApply.describe(step)): \(values.joined(separator: ", "))\(was)",
                                        at: location(step.source, snapshotPath), subject: step.product ?? step.group))
        }
        for entry in plan.blocked {
            let rule = entry.level == .error ? blocked : notDone
            let subject = entry.product.map { Quote.escaped($0) } ?? entry.group.map { "the group \(Quote.escaped($0))" } ?? "the app"
            found.append(rule.finding("\(subject): not done: \(entry.what): \(entry.reason)", at: location(entry.source, snapshotPath),
                                      subject: entry.product ?? entry.group))
        }
        return found
    }

    /// `path:line` as a plan's `source` holds it.
    static func location(_ source: String?, _ fallback: String) -> SourceLocation {
        guard let source else { return SourceLocation(path: fallback) }
        if let colon = source.lastIndex(of: ":"), let line = Int(source[source.index(after: colon)...]), line > 0 {
            return SourceLocation(path: String(source[..<colon]), line: line)
        }
        return SourceLocation(path: source)
    }
}
