import Diagnostics

/// What one rule finds in one catalog, capped as the rule finds it: the first `limit` findings in
/// output order (path, line, column, then message) and a count of the rest. A rule offers each
/// finding with its location first and builds it only when asked (`add(at:_:)`): once `limit` are
/// kept, a finding placed after the last of them is counted and never built, so a rule that fires
/// on every product of a million costs a counter, not a million messages. A nil limit
/// (`--all-findings`) keeps every finding.
public struct FindingCollector {
    /// How many findings are kept; nil keeps all.
    public let limit: Int?
    /// Every finding offered, kept or not.
    public private(set) var count = 0
    /// With a limit, the smallest in output order, kept sorted (equal ones in the order offered);
    /// without, every finding in the order offered. Each with its place in that order.
    private var kept: [(finding: Diagnostic, order: Int)] = []

    public init(limit: Int?) {
        precondition(limit.map { $0 > 0 } ?? true, "a limit keeps at least one finding")
        self.limit = limit
        if let limit { kept.reserveCapacity(limit) }
    }

    /// Offers the finding `make` builds, which is at `location`: `make` is called unless the
    /// collector is full and `location` is after its last kept finding's (at the same location,
    /// the messages decide, so it is built).
    public mutating func add(at location: SourceLocation, _ make: () -> Diagnostic) {
        let order = count
        count += 1
        guard let limit else {
            kept.append((make(), order))
            return
        }
        if kept.count == limit, Self.precedes(kept[limit - 1].finding.location, location) { return }
        let finding = make()
        assert(finding.location == location, "a finding offered at \(location) is at \(finding.location)")
        if kept.count == limit, !Self.precedes(finding, kept[limit - 1].finding) { return }
        // Rules offer mostly in file order: most findings that are kept are appended.
        var low = 0, high = kept.count
        if let last = kept.last, !Self.precedes(finding, last.finding) {
            low = high
        }
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(finding, kept[middle].finding) { high = middle } else { low = middle + 1 }
        }
        kept.insert((finding, order), at: low)
        if kept.count > limit { kept.removeLast() }
    }

    /// Offers a finding already built.
    public mutating func add(_ finding: Diagnostic) {
        add(at: finding.location) { finding }
    }

    /// Offers each of `findings`.
    public mutating func add(contentsOf findings: some Sequence<Diagnostic>) {
        for finding in findings { add(finding) }
    }

    /// The findings of `rule`: all of them in the order offered when there are no more than the
    /// limit (or it is nil); otherwise the first `limit` in output order and one summary of the
    /// rest at the first one's place: a rule that fires on most of a large catalog says so once.
    public func findings(of rule: RuleDescription) -> [Diagnostic] {
        guard let limit, count > limit else {
            return limit == nil ? kept.map(\.finding) : kept.sorted { $0.order < $1.order }.map(\.finding)
        }
        var found = kept.map(\.finding)
        found.append(rule.finding(
            "\(count - limit) more '\(rule.id)' findings not shown (\(count) in all, the first \(limit) above): "
                + "one cause is likely behind them all; fix it and run again",
            at: found[0].location))
        return found
    }

    /// Output order of locations: path, line, then column.
    private static func precedes(_ a: SourceLocation, _ b: SourceLocation) -> Bool {
        if a.path != b.path { return a.path < b.path }
        if a.line != b.line { return a.line < b.line }
        return a.column < b.column
    }

    /// Output order: location, then message.
    static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.location != b.location { return precedes(a.location, b.location) }
        return a.message < b.message
    }
}
