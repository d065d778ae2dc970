/// Tables over one Objective-C file's tokens, each made in one pass, from which the linter answers
/// its questions about a token's surroundings — where its statement starts, where the message or
/// call holding it ends, which brace opens its block, whether an argument list names a price — in
/// constant time, instead of scanning the statement or the file again for every token. A file of
/// 4,000 nested `stringWithFormat:` messages (140 kB) took 17.8 s when each scanned to its end.
struct ObjCStructure {
    typealias Token = ObjCTokenizer.Token

    let count: Int
    /// For each token: the first token after the last `;`, `{` or `}` before it (0 when none).
    private let statementStarts: [Int32]
    /// For each position 0...count: the first `;` at or after it (count when none).
    private let nextSemicolon: [Int32]
    /// For each position 0...count: the first `;`, `{` or `}` at or after it (count when none).
    private let nextStop: [Int32]
    /// Depth of message and call brackets: `[` and `(` against `]` and `)`, as the linter counts
    /// them (loosely: any opener against any closer).
    let brackets: DepthIndex
    /// Depth of braces.
    let braces: DepthIndex
    /// Depth of every bracket: `(`, `[`, `{` against `)`, `]`, `}` (closers only: no `opener`).
    let allBrackets: DepthIndex
    /// For each token: the depth of braces before it, never below 0 (a stray `}` closes nothing).
    private let braceLevels: [Int32]

    init(_ tokens: [Token]) {
        count = tokens.count
        func isStop(_ t: Token) -> Bool { t.kind == .punctuation && (t.text == ";" || t.text == "{" || t.text == "}") }
        var starts = [Int32](repeating: 0, count: count)
        var start: Int32 = 0
        var levels = [Int32](repeating: 0, count: count)
        var level: Int32 = 0
        for (i, token) in tokens.enumerated() {
            starts[i] = start
            levels[i] = level
            if isStop(token) { start = Int32(i + 1) }
            if token.kind == .punctuation {
                if token.text == "{" { level += 1 } else if token.text == "}" { level = max(0, level - 1) }
            }
        }
        statementStarts = starts
        braceLevels = levels
        var semicolon = [Int32](repeating: Int32(count), count: count + 1)
        var stop = semicolon
        for i in stride(from: count - 1, through: 0, by: -1) {
            semicolon[i] = tokens[i].text == ";" ? Int32(i) : semicolon[i + 1]
            stop[i] = isStop(tokens[i]) ? Int32(i) : stop[i + 1]
        }
        nextSemicolon = semicolon
        nextStop = stop
        // Each punctuation token is one character: its first byte says which bracket it is.
        let bracket = tokens.map { token -> UInt8 in
            guard token.kind == .punctuation, let byte = token.text.utf8.first, token.text.utf8.count == 1 else { return 0 }
            return byte
        }
        brackets = Self.depths(bracket, opens: [0x5B, 0x28], closes: [0x5D, 0x29])
        braces = Self.depths(bracket, opens: [0x7B], closes: [0x7D])
        allBrackets = Self.depths(bracket, opens: [0x28, 0x5B, 0x7B], closes: [0x29, 0x5D, 0x7D], backward: false)
    }

    private static func depths(_ bracket: [UInt8], opens: [UInt8], closes: [UInt8], backward: Bool = true) -> DepthIndex {
        DepthIndex(count: bracket.count, backward: backward) { i in opens.contains(bracket[i]) ? 1 : closes.contains(bracket[i]) ? -1 : 0 }
    }

    /// The first token of the statement holding `index`: after the last `;`, `{` or `}` before it,
    /// and not before `floor`.
    func statementStart(_ index: Int, from floor: Int = 0) -> Int { max(floor, Int(statementStarts[index])) }

    /// The first `;` at or after `position`, or `count`.
    func semicolon(from position: Int) -> Int { Int(nextSemicolon[min(position, count)]) }

    /// The first `;`, `{` or `}` at or after `position`, or `count`.
    func stop(from position: Int) -> Int { Int(nextStop[min(position, count)]) }

    /// The depth of braces before `index`, a stray `}` taken as closing nothing.
    func braceLevel(at index: Int) -> Int { Int(braceLevels[index]) }

    /// Where the arguments after `index` end: the `]` or `)` that closes the message or call
    /// holding them, or the end of the statement (`;`), whichever comes first.
    func argumentsEnd(after index: Int) -> Int {
        let from = min(index + 1, count)
        return min(brackets.closer(enclosing: from), semicolon(from: from))
    }
}

/// A running depth over tokens, +1 at an opener and −1 at a closer, and for each position where
/// the depth first falls below its value there, ahead and behind (a monotonic stack, one pass
/// each way): the closer that ends the group a position sits in, or the opener that starts it,
/// without scanning the group.
struct DepthIndex {
    /// With depth[k] the depth before token k (depth[count]: after the last), for p in 0...count:
    /// the first q > p with depth[q] < depth[p] (count + 1 when none).
    private let nextLower: [Int32]
    /// For p in 0...count: the last q < p with depth[q] < depth[p] (-1 when none); empty when not
    /// asked for (`backward: false`).
    private let previousLower: [Int32]
    let count: Int

    /// `step(i)`: +1 when token i opens, −1 when it closes, 0 otherwise.
    init(count: Int, backward: Bool = true, step: (Int) -> Int32) {
        self.count = count
        var depth = [Int32](repeating: 0, count: count + 1)
        for i in 0..<count { depth[i + 1] = depth[i] + step(i) }
        var next = [Int32](repeating: Int32(count + 1), count: count + 1)
        var stack: [Int32] = []
        for p in stride(from: count, through: 0, by: -1) {
            while let top = stack.last, depth[Int(top)] >= depth[p] { stack.removeLast() }
            if let top = stack.last { next[p] = top }
            stack.append(Int32(p))
        }
        var previous: [Int32] = []
        if backward {
            previous = [Int32](repeating: -1, count: count + 1)
            stack.removeAll(keepingCapacity: true)
            for p in 0...count {
                while let top = stack.last, depth[Int(top)] >= depth[p] { stack.removeLast() }
                if let top = stack.last { previous[p] = top }
                stack.append(Int32(p))
            }
        }
        nextLower = next
        previousLower = previous
    }

    /// The closer that ends the group holding position `from` — the first token from `from` on
    /// after which the depth is below what it was before `from` — or `count` when none does.
    func closer(enclosing from: Int) -> Int {
        let q = Int(nextLower[from])
        return q > count ? count : q - 1
    }

    /// The closer that matches the opener at `open`, or `count` when none does.
    func closer(ofOpener open: Int) -> Int { closer(enclosing: open + 1) }

    /// The opener that matches the closer at `close` (the last token before it after which the
    /// depth was what it is after the closer), or -1 when none does.
    func opener(ofCloser close: Int) -> Int { Int(previousLower[close]) }

    /// The opener of the group holding the token at `index`, looking back from it (the token
    /// itself included): the last position up to `index` before which the depth is below the
    /// depth after `index`; -1 when none.
    func opener(enclosingThrough index: Int) -> Int { Int(previousLower[index + 1]) }
}

/// How many tokens up to each position have a property: whether a range holds one, in O(1).
struct TokenCount {
    private let prefix: [Int32]

    init(_ tokens: [ObjCTokenizer.Token], _ has: (Int) -> Bool) {
        var prefix = [Int32](repeating: 0, count: tokens.count + 1)
        for i in tokens.indices { prefix[i + 1] = prefix[i] + (has(i) ? 1 : 0) }
        self.prefix = prefix
    }

    /// Whether a token in `range` has the property.
    func any(in range: Range<Int>) -> Bool { !range.isEmpty && prefix[range.upperBound] > prefix[range.lowerBound] }
}

/// Whether a name holds a word, letters compared without case, as `name.lowercased().contains(word)`
/// answers: for an ASCII name by its bytes, without making a lowercased copy (asked of every
/// identifier of a file, the copies cost more than the rest of the lint).
enum NameWords {
    /// `word` is lowercase ASCII.
    static func contains(_ name: String, _ word: StaticString) -> Bool {
        var name = name
        return name.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return word.withUTF8Buffer { word in
                guard let first = word.first, bytes.count >= word.count else { return false }
                for start in 0...(bytes.count - word.count) where bytes[start] | 0x20 == first {
                    var k = 1
                    while k < word.count, bytes[start + k] | 0x20 == word[k] || (bytes[start + k] == word[k]) { k += 1 }
                    if k == word.count { return true }
                }
                return false
            }
        } ?? name.lowercased().contains(word.description)
    }

    /// `PricePattern.isMoneyExpression`, by bytes for an ASCII name.
    static func isMoney(_ name: String) -> Bool {
        contains(name, "price") || contains(name, "amount") || contains(name, "cost") || contains(name, "total") || contains(name, "fee")
            || contains(name, "money") || contains(name, "balance") || contains(name, "charge") || contains(name, "subtotal")
    }
}
