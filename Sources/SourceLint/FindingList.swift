import Diagnostics

/// The findings of one file as a linter makes them: suppressed ones dropped at once, and of each
/// rule only the first `reportedPerRulePerFile + 1` in file order kept, with a count of the rest.
/// Output is what capping every finding at the end gave, but a file with a finding on every line
/// holds about a hundred findings per rule, not one per line: 40,000 formatted prices in 1.9 MB of
/// Objective-C held 40 MB of messages until the end.
struct FindingList {
    private let suppressions: Suppressions
    private let limit: Int
    /// Per rule: how many unsuppressed findings were added, and the first `limit + 1` in file order.
    private var rules: [String: (count: Int, kept: [Ordered])] = [:]
    /// Added so far: orders findings at the same line and column as they were added.
    private var added = 0
    /// The product IDs the file's code asks StoreKit for (`RequestedProductID.mark`): never
    /// reported, never suppressed or capped.
    private(set) var requested: [RequestedProductID] = []
    /// What the file's flow hands on to the other files (`CrossFileAsks`): never reported.
    private(set) var crossFile = CrossFileAsks()

    private struct Ordered {
        var finding: Finding
        var order: Int
        static func < (a: Ordered, b: Ordered) -> Bool {
            (a.finding.line, a.finding.column, a.order) < (b.finding.line, b.finding.column, b.order)
        }
    }

    init(suppressions: Suppressions, limit: Int = SourceLinter.reportedPerRulePerFile) {
        self.suppressions = suppressions
        self.limit = limit
    }

    mutating func append(_ finding: Finding) {
        if finding.rule.id == RequestedProductID.mark.id {
            requested.append(RequestedProductID(id: finding.message, line: finding.line, column: finding.column))
            return
        }
        if crossFile.take(finding) { return }
        guard !suppressions.isSuppressed(finding.rule.id, line: finding.line) else { return }
        let item = Ordered(finding: finding, order: added)
        added += 1
        Self.keep(item, in: &rules[finding.rule.id, default: (0, [])], limit: limit)
    }

    /// Keeps `entry.kept` sorted: linters add mostly in file order, so a finding is most often
    /// appended or, once `limit + 1` are kept, dropped after one comparison.
    private static func keep(_ item: Ordered, in entry: inout (count: Int, kept: [Ordered]), limit: Int) {
        entry.count += 1
        if let last = entry.kept.last, item < last {
            var low = 0, high = entry.kept.count - 1
            while low < high {
                let middle = (low + high) / 2
                if item < entry.kept[middle] { high = middle } else { low = middle + 1 }
            }
            entry.kept.insert(item, at: low)
            if entry.kept.count > limit + 1 { entry.kept.removeLast() }
        } else if entry.kept.count <= limit {
            entry.kept.append(item)
        }
    }

    mutating func append(contentsOf findings: some Sequence<Finding>) {
        for finding in findings { append(finding) }
    }

    static func += (list: inout FindingList, findings: some Sequence<Finding>) { list.append(contentsOf: findings) }

    /// The findings listed one by one that name a holder (`Finding.holder`), by place and rule: a
    /// rule whose findings are summed up past the limit keeps them all (its count would be wrong).
    var held: [HeldFinding] {
        rules.flatMap { id, entry in
            entry.count > limit ? [] : entry.kept.compactMap { item in
                item.finding.holder.map { HeldFinding(line: item.finding.line, column: item.finding.column, rule: id, holder: $0) }
            }
        }
    }

    /// The first `limit` findings of each rule, in file order, and one finding for the rest at the
    /// first one left out: a generated table of a million prices is not a million lines of output.
    func diagnostics(path: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var summaries: [Diagnostic] = []
        for (id, entry) in rules {
            let kept = entry.kept
            for item in kept.prefix(limit) {
                let finding = item.finding
                var diagnostic = finding.rule.finding(finding.message, at: SourceLocation(path: path, line: finding.line, column: finding.column))
                if let severity = finding.severity { diagnostic.severity = severity }
                diagnostics.append(diagnostic)
            }
            guard entry.count > limit, let first = kept.dropFirst(limit).first?.finding else { continue }
            let more = entry.count - limit
            summaries.append(first.rule.finding(
                "\(more) more \(id) finding\(more == 1 ? "" : "s") in this file from here on, not listed one by one "
                    + "(iap lists the first \(limit) of a rule per file)",
                at: SourceLocation(path: path, line: first.line, column: first.column)))
        }
        return diagnostics + summaries
    }
}

/// A finding on a literal that a named declaration holds, for `HolderUses`.
struct HeldFinding: Sendable, Hashable {
    var line: Int
    var column: Int
    var rule: String
    var holder: String
}


/// A product ID the code asks StoreKit (or an SDK that takes App Store IDs) for, as lint's
/// product-ID flow finds it: a literal that reaches `Product.products(for:)`,
/// `SKProductsRequest(productIdentifiers:)` and the like, directly or through values.
public struct RequestedProductID: Sendable, Hashable {
    public var id: String
    public var location: SourceLocation

    init(id: String, line: Int, column: Int, path: String = "") {
        self.id = id
        self.location = SourceLocation(path: path, line: line, column: column)
    }

    /// The linters hand a requested ID on as a finding of this mark (its message the ID), so that
    /// it takes the findings' way out of a file (columns in characters); `FindingList` takes it
    /// out before anything is reported.
    static let mark = RuleDescription(id: "-requested-product-id", name: "Requested product ID", severity: .info, rationale: "", triggering: [], nonTriggering: [])
}
