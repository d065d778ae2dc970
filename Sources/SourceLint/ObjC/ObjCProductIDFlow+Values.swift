

/// The values an expression can have, as far as the file shows: what the sinks of `ObjCProductIDFlow` follow.
extension ObjCProductIDFlow {
    // MARK: Values

    /// The string tokens an expression's value can be, as far as the file shows.
    mutating func valueStrings(_ range: Range<Int>, depth: Int, hops: Int, budget: inout Int) -> [Int] {
        budget -= 1
        guard depth < Self.maxValueDepth, budget > 0, !range.isEmpty else { return [] }
        var (a, b) = (range.lowerBound, range.upperBound)
        // `( … )` around the whole, and a C cast `(NSString *)` before it.
        while a < b, tokens[a].text == "(", closer[a] > a {
            if closer[a] == b - 1 { a += 1; b -= 1; continue }
            let inside = tokens[(a + 1)..<closer[a]]
            guard inside.allSatisfy({ $0.kind == .identifier || ["*", "<", ">", ","].contains($0.text) }) else { break }
            a = closer[a] + 1
        }
        guard a < b else { return [] }
        let next = depth + 1
        if b - a == 1 {
            switch tokens[a].kind {
            case .string: return [a]
            case .identifier: return valuesNamed(tokens[a].text, at: a, member: tokens[a].text.hasPrefix("_"), hops: hops, depth: next, budget: &budget)
            default: return []
            }
        }
        // `cond ? x : y`.
        if let question = topLevel("?", in: a..<b, budget: &budget), let colon = topLevel(":", in: (question + 1)..<b, budget: &budget) {
            return valueStrings((question + 1)..<colon, depth: next, hops: hops, budget: &budget)
                + valueStrings((colon + 1)..<b, depth: next, hops: hops, budget: &budget)
        }
        // `self.name`.
        if b - a == 3, tokens[a].text == "self", tokens[a + 1].text == ".", tokens[a + 2].kind == .identifier {
            return valuesNamed(tokens[a + 2].text, at: a, member: true, hops: hops, depth: next, budget: &budget)
        }
        // `@[a, b]`.
        if tokens[a].text == "@", tokens[a + 1].text == "[", closer[a + 1] == b - 1 {
            return values(of: elements((a + 2)..<(b - 1), budget: &budget), depth: next, hops: hops, budget: &budget)
        }
        // `[receiver part:argument …]`.
        if tokens[a].text == "[", closer[a] == b - 1, let send = reachedMessage(at: a), let first = send.parts.first {
            if Self.collectionConstructors.contains(first.name) {
                return values(of: first.arguments, depth: next, hops: hops, budget: &budget)
            }
            if Self.collectionExtenders.contains(first.name) {
                return valueStrings(send.receiver, depth: next, hops: hops, budget: &budget)
                    + values(of: first.arguments, depth: next, hops: hops, budget: &budget)
            }
            if send.parts.count == 1, first.arguments.isEmpty || first.name == "sortedArrayUsingSelector" {
                if first.name == "allKeys" || first.name == "allValues" {
                    return dictionaryParts(send.receiver, keys: first.name == "allKeys", depth: next, hops: hops, budget: &budget)
                }
                if Self.keepingSelectors.contains(first.name) { return valueStrings(send.receiver, depth: next, hops: hops, budget: &budget) }
            }
        }
        return []
    }

    /// The message at `open`, read the first time a value leads into it: a large message many
    /// sinks lead to is read once.
    mutating func reachedMessage(at open: Int) -> Message? {
        if let known = reached[open] { return known }
        let send = message(at: open)
        reached[open] = .some(send)
        return send
    }

    /// The strings of each expression in turn, while the budget lasts.
    mutating func values(of ranges: [Range<Int>], depth: Int, hops: Int, budget: inout Int) -> [Int] {
        var found: [Int] = []
        for range in ranges {
            guard budget > 0 else { break }
            found += valueStrings(range, depth: depth, hops: hops, budget: &budget)
        }
        return found
    }

    /// The first `text` at the range's own depth; each token stepped over spends the budget.
    func topLevel(_ text: String, in range: Range<Int>, budget: inout Int) -> Int? {
        var k = range.lowerBound
        while k < range.upperBound, budget > 0 {
            budget -= 1
            if tokens[k].kind == .punctuation, ["(", "[", "{"].contains(tokens[k].text), closer[k] > k { k = closer[k] + 1; continue }
            if tokens[k].text == text, tokens[k].kind == .punctuation { return k }
            k += 1
        }
        return nil
    }

    /// A literal's elements: the ranges between its commas at its own depth, as many as the
    /// budget reaches.
    func elements(_ range: Range<Int>, budget: inout Int) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start = range.lowerBound
        var k = start
        while k < range.upperBound {
            guard budget > 0 else { return found }
            budget -= 1
            if tokens[k].kind == .punctuation, ["(", "[", "{"].contains(tokens[k].text), closer[k] > k { k = closer[k] + 1; continue }
            if tokens[k].text == "," { found.append(start..<k); start = k + 1 }
            k += 1
        }
        if start < range.upperBound { found.append(start..<range.upperBound) }
        return found
    }

    /// The keys or values of `@{k: v, …}`, given directly or by name.
    mutating func dictionaryParts(_ range: Range<Int>, keys: Bool, depth: Int, hops: Int, budget: inout Int) -> [Int] {
        var literals: [Range<Int>] = []
        let (a, b) = (range.lowerBound, range.upperBound)
        if b - a >= 2, tokens[a].text == "@", tokens[a + 1].text == "{", closer[a + 1] == b - 1 {
            literals = [range]
        } else if b - a == 1, tokens[a].kind == .identifier, hops < Self.maxNameHops {
            literals = declarationsSeen(tokens[a].text, at: a, member: tokens[a].text.hasPrefix("_"), budget: &budget).filter {
                $0.count >= 2 && tokens[$0.lowerBound].text == "@" && tokens[$0.lowerBound + 1].text == "{" && closer[$0.lowerBound + 1] == $0.upperBound - 1
            }
        }
        var found: [Int] = []
        for literal in literals {
            for element in elements((literal.lowerBound + 2)..<(literal.upperBound - 1), budget: &budget) {
                guard budget > 0 else { return found }
                guard let colon = topLevel(":", in: element, budget: &budget) else { continue }
                let part = keys ? element.lowerBound..<colon : (colon + 1)..<element.upperBound
                found += valueStrings(part, depth: depth, hops: hops + 1, budget: &budget)
            }
        }
        return found
    }

    mutating func valuesNamed(_ name: String, at use: Int, member: Bool, hops: Int, depth: Int, budget: inout Int) -> [Int] {
        guard hops < Self.maxNameHops else { return [] }
        return values(of: declarationsSeen(name, at: use, member: member, budget: &budget), depth: depth, hops: hops + 1, budget: &budget)
    }

    /// The values written to a name that a use at `use` sees: the innermost local declaration
    /// whose braces hold the use (looked for through at most `maxBlockLevels` enclosing blocks);
    /// else the file's (`#define`, a global) and the object's own (`self.name = …`, `_name = …`).
    /// A local of another method is never followed. At most as many as the budget has steps.
    func declarationsSeen(_ rawName: String, at use: Int, member: Bool, budget: inout Int) -> [Range<Int>] {
        let name = rawName.hasPrefix("_") ? String(rawName.dropFirst()) : rawName
        if !member, let byBrace = locals[name] {
            var brace = enclosingBrace[use]
            var levels = 0
            while brace >= 0, levels < Self.maxBlockLevels, budget > 0 {
                budget -= 1
                if closer[brace] > use, let ranges = byBrace[brace] { return Array(ranges.prefix(max(budget, 0))) }
                brace = enclosingBrace[brace]
                levels += 1
            }
        }
        return Array((shared[name] ?? []).prefix(max(budget, 0)))
    }
}
