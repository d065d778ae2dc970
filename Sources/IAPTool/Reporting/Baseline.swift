import Diagnostics
import Foundation
import PropertyList
import Support

/// Findings a team accepts for now, so `iap` can gate CI from the first day: a finding whose
/// fingerprint (`Fingerprint`: rule, path, subject; never the line) is in the baseline is held
/// back. Count-aware: when a fingerprint occurs more often than the baseline holds, only the extra
/// occurrences are new. Baselined findings that no longer occur are counted as fixed, so the file
/// can shrink (`--fail-on-fixed-baseline`). The file is sorted, pretty-printed JSON.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        public var fingerprint: Fingerprint
        public var count: Int
    }

    public static let formatVersion = 1
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted { $0.fingerprint < $1.fingerprint }
    }

    /// The baseline of these findings.
    public init(findings: [Diagnostic], root: String) {
        var counts: [Fingerprint: Int] = [:]
        for fingerprint in Fingerprint.all(findings, root: root) { counts[fingerprint, default: 0] += 1 }
        self.init(entries: counts.map { Entry(fingerprint: $0.key, count: $0.value) })
    }

    /// The file's text: `{"findings": [{"count", "path", "rule", "subject"}], "version": 1}`.
    public func rendered() -> String {
        JSONValue.object([
            ("version", .int(Self.formatVersion)),
            ("findings", .array(entries.map { entry in
                .object([("rule", .string(entry.fingerprint.rule)), ("path", .string(entry.fingerprint.path)),
                         ("subject", .string(entry.fingerprint.subject)), ("count", .int(entry.count))])
            })),
        ]).rendered()
    }

    /// Reads a baseline file; a missing or malformed one is a failure naming the file and what to do.
    public static func load(_ path: String) throws(ToolFailure) -> Baseline {
        let data: Data
        switch FileContents.read(path) {
        case .success(let bytes): data = bytes
        case .failure(let failure) where FileContents.isMissing(failure):
            throw .cannotRun("\(path): baseline not found; create it with --write-baseline \(Escape.shellArgument(path, path: true))")
        case .failure(let failure):
            throw .cannotRun("\(path): cannot read: \(failure.phrase)")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw .cannotRun("\(path): the baseline is not valid JSON; recreate it with --write-baseline \(Escape.shellArgument(path, path: true))")
        }
        guard let root = object as? [String: Any], let version = root["version"] as? Int else {
            throw .cannotRun("\(path): not an iap baseline (no \"version\"); recreate it with --write-baseline \(Escape.shellArgument(path, path: true))")
        }
        guard version == formatVersion else {
            throw .cannotRun("\(path): baseline version \(version) is not one this iap reads (\(formatVersion)); recreate it with --write-baseline \(Escape.shellArgument(path, path: true))")
        }
        guard let items = root["findings"] as? [[String: Any]] else {
            throw .cannotRun("\(path): \"findings\" must be an array; recreate it with --write-baseline \(Escape.shellArgument(path, path: true))")
        }
        var entries: [Entry] = []
        // The counts together stay within an Int, so no sum of them (per fingerprint, or of the
        // fixed ones) can overflow when the baseline is applied.
        var total = 0
        for (i, item) in items.enumerated() {
            guard let rule = item["rule"] as? String, let file = item["path"] as? String, let subject = item["subject"] as? String,
                  let count = item["count"] as? Int, count > 0 else {
                throw .cannotRun("\(path): findings[\(i)] needs rule, path, subject (strings) and a positive count")
            }
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else {
                throw .cannotRun("\(path): findings[\(i)]: the counts add up past \(Int.max); a count is how many times a finding "
                                 + "occurs: recreate the baseline with --write-baseline \(Escape.shellArgument(path, path: true))")
            }
            total = sum
            entries.append(Entry(fingerprint: Fingerprint(rule: rule, path: file, subject: subject), count: count))
        }
        return Baseline(entries: entries)
    }

    /// The findings the baseline does not hold back, how many it held back, and how many of its
    /// findings no longer occur. Of a fingerprint's occurrences, the first ones in output order
    /// are the baselined ones.
    public func apply(to findings: [Diagnostic], root: String) -> (new: [Diagnostic], suppressed: Int, fixed: Int) {
        var remaining: [Fingerprint: Int] = [:]
        // `load` keeps the counts' total within an Int; entries made in code saturate instead of trapping.
        func adding(_ a: Int, _ b: Int) -> Int { let (sum, overflow) = a.addingReportingOverflow(b); return overflow ? .max : sum }
        for entry in entries { remaining[entry.fingerprint] = adding(remaining[entry.fingerprint] ?? 0, entry.count) }
        let sorted = findings.sortedForOutput()
        var new: [Diagnostic] = []
        var suppressed = 0
        for (finding, fingerprint) in zip(sorted, Fingerprint.all(sorted, root: root)) {
            if let left = remaining[fingerprint], left > 0 {
                remaining[fingerprint] = left - 1
                suppressed += 1
            } else {
                new.append(finding)
            }
        }
        return (new, suppressed, remaining.values.reduce(0, adding))
    }
}
