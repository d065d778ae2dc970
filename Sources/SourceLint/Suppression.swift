import Foundation
/// A `//` comment of a source file: where it starts and its text after the slashes.
struct SourceComment: Sendable, Equatable {
    var line: Int
    var column: Int
    var text: Substring
}

/// `// iap:disable:next RULE`, `// iap:disable:this RULE`, `// iap:disable RULE` … `// iap:enable RULE`,
/// with `all` for every rule and an optional ` - reason`. Only a `//` comment whose text starts
/// with `iap:` is a suppression: a doc comment or a string that mentions `iap:` is not.
struct Suppressions {
    private var byLine: [Int: Set<String>] = [:]
    /// Per rule (or `all`): the lines between a disable and its enable, as sorted, disjoint,
    /// closed ranges, so that a finding is looked up in O(log n), not against every range.
    private var ranges: [String: [ClosedRange<Int>]] = [:]
    /// Suppressions naming rules that do not exist: (line, column, name).
    private(set) var unknown: [(Int, Int, String)] = []

    init(comments: [SourceComment], knownRules: Set<String>) {
        var open: [String: Int] = [:]
        var between: [String: [ClosedRange<Int>]] = [:]
        func close(_ rule: String, from: Int, to: Int) {
            // The lines strictly between the two comments.
            if to - 1 >= from + 1 { between[rule, default: []].append((from + 1)...(to - 1)) }
        }
        for comment in comments {
            // `///` is documentation, not a directive.
            guard comment.text.first != "/" else { continue }
            let text = comment.text.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix("iap:") else { continue }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let command = words.first else { continue }
            var rules: [String] = []
            for word in words.dropFirst() {
                if word == "-" { break }
                rules.append(String(word))
            }
            for rule in rules where rule != "all" && !knownRules.contains(rule) { unknown.append((comment.line, comment.column, rule)) }
            switch command {
            case "iap:disable:next": byLine[comment.line + 1, default: []].formUnion(rules)
            case "iap:disable:this": byLine[comment.line, default: []].formUnion(rules)
            case "iap:disable": for rule in rules { open[rule] = comment.line }
            case "iap:enable":
                for rule in rules { if let from = open.removeValue(forKey: rule) { close(rule, from: from, to: comment.line) } }
            default: break
            }
        }
        for (rule, from) in open { close(rule, from: from, to: Int.max) }
        for (rule, list) in between {
            var merged: [ClosedRange<Int>] = []
            for range in list.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last, range.lowerBound <= last.upperBound {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            ranges[rule] = merged
        }
    }

    func isSuppressed(_ rule: String, line: Int) -> Bool {
        if let rules = byLine[line], rules.contains(rule) || rules.contains("all") { return true }
        return Self.covers(ranges[rule], line) || Self.covers(ranges["all"], line)
    }

    private static func covers(_ ranges: [ClosedRange<Int>]?, _ line: Int) -> Bool {
        guard let ranges else { return false }
        // The last range starting at or before the line.
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound <= line { low = middle + 1 } else { high = middle }
        }
        return low > 0 && ranges[low - 1].contains(line)
    }
}

extension Collection where Element == UInt8 {
    /// Whether the bytes contain `needle` (ASCII), without Foundation's Unicode-aware search.
    func containsASCII(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        if let found = withContiguousStorageIfAvailable({ bytes in
            // memchr finds each place of the needle's first capital (rarer in code than a
            // lowercase letter), else of its first byte; memcmp the whole needle around it.
            guard let base = bytes.baseAddress, bytes.count >= pattern.count else { return false }
            let anchor = pattern.firstIndex { $0 >= 0x41 && $0 <= 0x5A } ?? 0
            let end = base + bytes.count
            var from = base + anchor
            let last = end - (pattern.count - anchor)
            while from <= last, let found = memchr(from, Int32(pattern[anchor]), last - from + 1) {
                let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - anchor
                if memcmp(candidate, pattern.baseAddress!, pattern.count) == 0 { return true }
                from = candidate + anchor + 1
            }
            return false
        }) { return found }
        var index = startIndex
        while let found = self[index...].firstIndex(of: first) {
            if self[found...].starts(with: pattern) { return true }
            index = self.index(after: found)
        }
        return false
    }

    /// Whether the bytes contain `needle` (lowercase ASCII letters) in any case: `price`, `Price`, `PRICE`.
    func containsASCIIIgnoringCase(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        if let found = withContiguousStorageIfAvailable({ Self.contains(pattern, in: $0, first: first, foldCase: true) }) { return found }
        return Self.contains(pattern, in: Array(self), first: first, foldCase: true)
    }

    /// One pass over contiguous bytes; with `foldCase`, bit 0x20 is set on each byte compared (the
    /// needle is lowercase letters, whose upper case differs by that bit alone).
    private static func contains(_ pattern: UnsafeBufferPointer<UInt8>, in bytes: some RandomAccessCollection<UInt8>, first: UInt8,
                                 foldCase: Bool) -> Bool {
        let fold: UInt8 = foldCase ? 0x20 : 0
        let count = pattern.count
        guard bytes.count >= count else { return false }
        var k = bytes.startIndex
        let last = bytes.index(bytes.endIndex, offsetBy: -count)
        while k <= last {
            if bytes[k] | fold == first {
                var j = 1
                var m = bytes.index(after: k)
                while j < count, bytes[m] | fold == pattern[j] { j += 1; m = bytes.index(after: m) }
                if j == count { return true }
            }
            k = bytes.index(after: k)
        }
        return false
    }
}
