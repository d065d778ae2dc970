import Foundation

/// A unified diff (`--- a`, `+++ b`, `@@` hunks with 3 lines of context) for `iap gen --check`.
///
/// Lines are compared by their bytes. The common head and tail are set aside in one pass, and
/// the rest is aligned by Myers' algorithm, whose time is the lines times the changes and whose
/// memory is the changes squared, never the lines squared (a table of every line against every
/// line took 7 GB for a 10,000-product file). Past `maxChangedLines` changed lines, the diff is
/// the first differing line alone, with its context.
public enum UnifiedDiff {
    /// The most changed lines (removed plus added) a diff aligns.
    public static let maxChangedLines = 1000

    public static func make(old: String, new: String, oldName: String, newName: String) -> String {
        diff(old: old, new: new, oldName: oldName, newName: newName).text
    }

    /// The diff, and whether it is whole (false: the first difference alone).
    public static func diff(old: String, new: String, oldName: String, newName: String,
                            maxChanges: Int = maxChangedLines) -> (text: String, complete: Bool) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        // Each distinct line as a number, by its bytes.
        var numbers: [[UInt8]: Int32] = [:]
        func number(_ line: Substring) -> Int32 {
            let key = Array(line.utf8)
            if let known = numbers[key] { return known }
            let next = Int32(numbers.count)
            numbers[key] = next
            return next
        }
        let x = a.map(number), y = b.map(number)
        var head = 0
        while head < x.count, head < y.count, x[head] == y[head] { head += 1 }
        var tail = 0
        while tail < x.count - head, tail < y.count - head, x[x.count - 1 - tail] == y[y.count - 1 - tail] { tail += 1 }
        guard head < x.count - tail || head < y.count - tail else { return ("", true) }

        enum Op { case same, remove, add }
        var ops: [Op] = Array(repeating: .same, count: head)
        if let middle = myers(Array(x[head..<(x.count - tail)]), Array(y[head..<(y.count - tail)]), maxChanges: maxChanges) {
            ops += middle.map { $0 == 0 ? Op.same : $0 == 1 ? Op.remove : Op.add }
        } else {
            // Too many changes to align: the first differing line, against its counterpart.
            var out = "--- \(oldName)\n+++ \(newName)\n"
            let context = max(head - 3, 0)
            let removed = head < x.count ? 1 : 0, added = head < y.count ? 1 : 0
            out += "@@ -\(context + 1),\(head - context + removed) +\(context + 1),\(head - context + added) @@\n"
            for k in context..<head { out += " \(a[k])\n" }
            if removed == 1 { out += "-\(a[head])\n" }
            if added == 1 { out += "+\(b[head])\n" }
            return (out, false)
        }
        ops += repeatElement(.same, count: tail)
        // Within each run of changes, the removed lines first, then the added ones.
        var k = 0
        while k < ops.count {
            guard ops[k] != .same else { k += 1; continue }
            var end = k
            var removes = 0
            while end < ops.count, ops[end] != .same { if ops[end] == .remove { removes += 1 }; end += 1 }
            for i in k..<end { ops[i] = i - k < removes ? .remove : .add }
            k = end
        }
        // The old and new line numbers before each op, and each op's line text.
        var oldAt = [Int](repeating: 0, count: ops.count + 1), newAt = oldAt
        for (i, op) in ops.enumerated() {
            oldAt[i + 1] = oldAt[i] + (op == .add ? 0 : 1)
            newAt[i + 1] = newAt[i] + (op == .remove ? 0 : 1)
        }
        func text(_ i: Int) -> Substring { ops[i] == .add ? b[newAt[i]] : a[oldAt[i]] }
        let changed = ops.indices.filter { ops[$0] != .same }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var c = 0
        while c < changed.count {
            let start = max(changed[c] - 3, 0)
            var end = min(changed[c] + 3, ops.count - 1)
            while c + 1 < changed.count && changed[c + 1] - 3 <= end + 1 {
                c += 1
                end = min(changed[c] + 3, ops.count - 1)
            }
            let oldCount = oldAt[end + 1] - oldAt[start], newCount = newAt[end + 1] - newAt[start]
            out += "@@ -\(oldAt[start] + 1),\(oldCount) +\(newAt[start] + 1),\(newCount) @@\n"
            for i in start...end {
                switch ops[i] {
                case .same: out += " \(text(i))\n"
                case .remove: out += "-\(text(i))\n"
                case .add: out += "+\(text(i))\n"
                }
            }
            c += 1
        }
        return (out, true)
    }

    /// A shortest edit script from `x` to `y` (Myers 1986), every line in order: 0 kept, 1
    /// removed, 2 added; nil past `maxChanges` edits. Keeps each round's furthest reaches to
    /// walk back: memory grows with the edits squared, never with the lines.
    static func myers(_ x: [Int32], _ y: [Int32], maxChanges: Int) -> [UInt8]? {
        let n = x.count, m = y.count
        let limit = min(n + m, maxChanges)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // trace[d]: the reaches on diagonals -(d-1)...(d-1) as round d found them.
        var trace: [[Int32]] = []
        var rounds = -1
        search: for d in 0...limit {
            trace.append(d == 0 ? [] : v[(offset - d + 1)...(offset + d - 1)].map { Int32($0) })
            for k in stride(from: -d, through: d, by: 2) {
                var px = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var py = px - k
                while px < n, py < m, x[px] == y[py] { px += 1; py += 1 }
                v[offset + k] = px
                if px >= n, py >= m { rounds = d; break search }
            }
        }
        guard rounds >= 0 else { return nil }
        var ops: [UInt8] = []
        var px = n, py = m
        for d in stride(from: rounds, through: 1, by: -1) {
            let reaches = trace[d]
            func reach(_ k: Int) -> Int { Int(reaches[k + d - 1]) }
            let k = px - py
            let down = k == -d || (k != d && reach(k - 1) < reach(k + 1))
            let priorK = down ? k + 1 : k - 1
            let priorX = reach(priorK), priorY = priorX - priorK
            while px > priorX, py > priorY { ops.append(0); px -= 1; py -= 1 }
            ops.append(down ? 2 : 1)
            (px, py) = (priorX, priorY)
        }
        ops += repeatElement(0, count: px)
        return ops.reversed()
    }
}
