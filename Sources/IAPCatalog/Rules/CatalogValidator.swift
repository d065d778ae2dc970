import Diagnostics
import Foundation
import Support

/// Runs every catalog rule and returns the findings in stable order.
public struct CatalogValidator: Sendable {
    public var options: ValidationOptions
    public var rules: [any CatalogRule]

    public init(options: ValidationOptions = ValidationOptions(), rules: [any CatalogRule] = CatalogRules.all) {
        self.options = options
        self.rules = rules
    }

    public func validate(_ catalog: Catalog) -> [Diagnostic] {
        unsorted(catalog).sortedForOutput()
    }

    public func validate(_ catalogs: [Catalog]) -> [Diagnostic] {
        catalogs.flatMap(unsorted).sortedForOutput()
    }

    private func unsorted(_ catalog: Catalog) -> [Diagnostic] {
        // The slowest rules on a large catalog are taken first, so two threads end together.
        let order = rules.indices.sorted { (rules[$0].schedulingRank ?? 99, $0) < (rules[$1].schedulingRank ?? 99, $1) }
        let workers = catalog.products.count < 2_000 ? 1 : options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let found = ResultSlots.run(count: rules.count, workers: workers) { slot in
            let rule = rules[order[slot]]
            return Self.capped(rule.check(catalog, options: options), of: rule.description, to: options.findingsPerRule)
        }.all()
        return Self.syncedAsInfo(found, catalog)
    }

    /// Rules that predict App Store Connect refusing a value when it is saved there (each says so:
    /// `isAppStoreConnectLimit`).
    public static let appStoreConnectLimits = Set(CatalogRules.all.filter(\.isAppStoreConnectLimit).map(\.description.id))

    /// In a `.storekit` synced from App Store Connect, what those rules find is what App Store
    /// Connect already holds (a description from before today's limit): info, saying why.
    static func syncedAsInfo(_ found: [Diagnostic], _ catalog: Catalog) -> [Diagnostic] {
        let synced = Set(catalog.files.filter(\.syncedFromAppStoreConnect).map(\.path))
        guard !synced.isEmpty else { return found }
        return found.map { finding in
            guard appStoreConnectLimits.contains(finding.ruleID), synced.contains(finding.location.path) else { return finding }
            var copy = finding
            copy.severity = .info
            copy.message += " (info: this file is synced from App Store Connect, which already holds it; "
                + "the limit applies when it is next edited there)"
            return copy
        }
    }

    /// The first `limit` findings in output order, and one summary of the rest at the first one's
    /// place: a rule that fires on most of a large catalog says so once, not a million times.
    /// One rule's findings: the first `limit` in output order and one summary of the rest at the
    /// first one's place, or all of them when there are no more than `limit` (or it is nil).
    public static func capped(_ found: [Diagnostic], of rule: RuleDescription, to limit: Int?) -> [Diagnostic] {
        guard let limit, found.count > limit else { return found }
        // The `limit` smallest, kept sorted: rules emit mostly in file order, so most findings
        // fail the first comparison with the largest kept.
        var kept: [Diagnostic] = []
        kept.reserveCapacity(limit + 1)
        for finding in found {
            if kept.count == limit, !Self.precedes(finding, kept[limit - 1]) { continue }
            let at = kept.firstIndex { Self.precedes(finding, $0) } ?? kept.count
            kept.insert(finding, at: at)
            if kept.count > limit { kept.removeLast() }
        }
        let more = found.count - limit
        kept.append(rule.finding(
            "\(more) more '\(rule.id)' findings not shown (\(found.count) in all, the first \(limit) above): "
                + "one cause is likely behind them all; fix it and run again",
            at: kept[0].location))
        return kept
    }

    /// Output order: path, line, column, then message.
    private static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.location.path != b.location.path { return a.location.path < b.location.path }
        if a.location.line != b.location.line { return a.location.line < b.location.line }
        if a.location.column != b.location.column { return a.location.column < b.location.column }
        return a.message < b.message
    }
}
