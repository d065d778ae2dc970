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
            var collector = FindingCollector(limit: options.findingsPerRule)
            rule.check(catalog, options: options, into: &collector)
            return collector.findings(of: rule.description)
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

    /// One rule's findings: the first `limit` in output order and one summary of the rest at the
    /// first one's place, or all of them when there are no more than `limit` (or it is nil).
    public static func capped(_ found: [Diagnostic], of rule: RuleDescription, to limit: Int?) -> [Diagnostic] {
        var collector = FindingCollector(limit: limit)
        collector.add(contentsOf: found)
        return collector.findings(of: rule)
    }
}
