/// `// iap:disable:next RULE`, `// iap:disable:this RULE`, `// iap:disable RULE` … `// iap:enable RULE`,
/// `all` for every rule, and ` - reason` after the rules.
struct Suppressions {
    private var byLine: [Int: Set<String>] = [:]
    private var ranges: [(rule: String, from: Int, to: Int)] = []
    /// Suppressions naming rules that do not exist: (line, column, name).
    private(set) var unknown: [(Int, Int, String)] = []

    init(source: String, knownRules: Set<String>) {
        // Most files have no suppression: look for the marker once before splitting into lines.
        guard source.utf8.containsASCII("iap:") else { return }
        var open: [String: Int] = [:]
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.utf8.containsASCII("iap:") else { continue }
            let number = index + 1
            guard let comment = line.range(of: "//"), let marker = line.range(of: "iap:", range: comment.upperBound..<line.endIndex) else { continue }
            let text = line[marker.lowerBound...]
            let words = text.split(separator: " ", omittingEmptySubsequences: true)
            guard let command = words.first else { continue }
            var rules: [String] = []
            for word in words.dropFirst() {
                if word == "-" { break }
                rules.append(String(word))
            }
            let column = line.distance(from: line.startIndex, to: comment.lowerBound) + 1
            for rule in rules where rule != "all" && !knownRules.contains(rule) { unknown.append((number, column, rule)) }
            switch command {
            case "iap:disable:next": byLine[number + 1, default: []].formUnion(rules)
            case "iap:disable:this": byLine[number, default: []].formUnion(rules)
            case "iap:disable": for rule in rules { open[rule] = number }
            case "iap:enable":
                for rule in rules { if let from = open.removeValue(forKey: rule) { ranges.append((rule, from, number)) } }
            default: break
            }
        }
        for (rule, from) in open { ranges.append((rule, from, Int.max)) }
    }

    func isSuppressed(_ rule: String, line: Int) -> Bool {
        if let rules = byLine[line], rules.contains(rule) || rules.contains("all") { return true }
        return ranges.contains { ($0.rule == rule || $0.rule == "all") && line > $0.from && line < $0.to }
    }
}

extension Collection where Element == UInt8 {
    /// Whether the bytes contain `needle` (ASCII), without Foundation's Unicode-aware search.
    func containsASCII(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        var index = startIndex
        while let found = self[index...].firstIndex(of: first) {
            if self[found...].starts(with: pattern) { return true }
            index = self.index(after: found)
        }
        return false
    }
}
