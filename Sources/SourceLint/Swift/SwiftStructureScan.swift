/// What the Swift linter measures before swift-syntax parses a file: the shapes whose cost in
/// swift-syntax is not linear in the file's size, each with a limit no real code comes near.
///
/// - square brackets nested more than 16 deep: the parser's time doubles with each level;
/// - string interpolations inside interpolations: the lexer's time and memory grow with the square
///   of the depth (8,000 levels in 40 kB took 3 GB);
/// - generic arguments inside generic arguments, runs of prefix keywords and operators (`try try
///   try …`), long postfix chains (`a.b.b.b…`, `f()()()`, `x!!!`), `else if` chains, `#if` inside
///   `#if`, and `->` chains: each level is a level of recursion in the parser and in every walk
///   of the tree, which overflowed the stack at 1,400 nested generics (3 kB), 10,000 `try`s and
///   60,000 `.b`s.
///
/// The scan reads literals as swift-syntax lexes them: strings with their interpolations (which
/// are code), raw strings, multi-line strings, regex literals (`#/…/#`, and bare `/…/` where an
/// expression starts) and comments, whose brackets and quotes are text. The shapes that recurse
/// are counted a second time with no literal or comment recognised at all, so no literal can
/// hide them. Should the scan still misjudge where a literal ends, the parse runs under a time
/// limit (`SwiftLinter.parseTimeLimit`) and is abandoned past it. Two passes, no allocation per byte.
struct SwiftStructureScan {
    struct Excess: Equatable {
        /// What nests or runs too deep, for the message (`LIMIT` stands for the limit).
        let what: String
        let limit: Int
        let line: Int
        let column: Int

        /// The `unparsed-source` finding's message.
        var message: String {
            let why = what.hasPrefix("square") ? "swift-syntax's time doubles with each level"
                : what.hasPrefix("string") ? "swift-syntax's time and memory grow with the square of the depth"
                : "each is a level of recursion in swift-syntax, which would overflow its stack"
            return what.replacingOccurrences(of: "LIMIT", with: "\(limit)") + " here (\(why)): not linted"
        }
    }

    static let squareBracketLimit = 16
    static let interpolationLimit = 32
    static let genericLimit = 100
    static let prefixRunLimit = 100
    static let postfixChainLimit = 2_000
    static let elseIfLimit = 1_000
    static let conditionalCompilationLimit = 64
    static let arrowLimit = 200

    /// The file's bytes, alive for the whole scan (`excess(in:)`).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var line = 1
    private var column = 1

    /// The pass that sees no literal or comment: everything is code.
    private let literalsAsCode: Bool

    private init(_ bytes: UnsafeBufferPointer<UInt8>, literalsAsCode: Bool) {
        self.bytes = bytes
        self.literalsAsCode = literalsAsCode
    }

    /// The first shape past its limit, or nil when the file can be parsed safely.
    static func excess(in source: String) -> Excess? {
        Array(source.utf8).withUnsafeBufferPointer { bytes in
            var aware = SwiftStructureScan(bytes, literalsAsCode: false)
            if let found = aware.run() { return found }
            var blind = SwiftStructureScan(bytes, literalsAsCode: true)
            return blind.run()
        }
    }

    // MARK: The scan

    private enum Context {
        case code
        /// A string literal (its interpolations are code contexts above it).
        case string(multiline: Bool, hashes: Int)
    }

    private var square = 0
    private var contexts: [Context] = [.code]
    private var interpolationParens: [Int] = []
    private var generics = 0
    private var prefixRun = 0
    private var arrows = 0
    private var ifConfigs = 0
    private var chain = 0
    private var elseIfs = 0
    private var previousWasElse = false
    /// The last token was a `}`: an `else` may carry on its `if` chain, anything else ends it.
    private var justClosedBrace = false
    private var chainLevels: [(chain: Int, elseIfs: Int)] = []

    private func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

    private mutating func step(_ n: Int = 1) {
        for _ in 0..<n where i < bytes.count {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
    }

    private func excess(_ what: String, _ count: Int, _ limit: Int, at position: (line: Int, column: Int)? = nil) -> Excess? {
        count > limit ? Excess(what: what, limit: limit, line: position?.line ?? line, column: position?.column ?? column) : nil
    }

    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c >= 0x80
    }

    private static let prefixKeywords: [StaticString] = ["try", "await", "consume", "copy", "each", "repeat", "some", "any",
                                                         "borrowing", "consuming", "inout"]

    /// Whether the word that starts at `start` and ends at `i` is `keyword`, without copying it.
    private func isWord(_ keyword: StaticString, from start: Int) -> Bool {
        guard i - start == keyword.utf8CodeUnitCount else { return false }
        let pointer = keyword.utf8Start
        for k in 0..<keyword.utf8CodeUnitCount where bytes[start + k] != pointer[k] { return false }
        return true
    }

    private func isPrefixKeyword(from start: Int) -> Bool {
        let length = i - start
        guard length >= 3, length <= 9 else { return false }
        // The keywords' first letters.
        switch bytes[start] {
        case UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "r"), UInt8(ascii: "s"),
             UInt8(ascii: "b"), UInt8(ascii: "i"): break
        default: return false
        }
        return Self.prefixKeywords.contains { isWord($0, from: start) }
    }

    /// Where a regex literal that starts here ends (the index after it), as swift-syntax lexes
    /// them: `#/…/#` (any number of `#`, over several lines when `#/` ends its line), and a bare
    /// `/…/` where an expression starts (after an opening bracket, a comma, a colon, an operator,
    /// `return`, or at the start of a line), not followed by a space, and closed on its line.
    private func regexLiteralEnd() -> Int? {
        var hashes = 0
        while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
        guard at(i + hashes) == UInt8(ascii: "/") else { return nil }
        let open = i + hashes + 1
        if hashes == 0 {
            let next = at(open)
            guard next != UInt8(ascii: " "), next != UInt8(ascii: "\t"), next != 0x0A, next != UInt8(ascii: "/"), next != UInt8(ascii: "*"),
                  next != UInt8(ascii: "="), next != 0, startsExpression() else { return nil }
        }
        let multiline = hashes > 0 && (at(open) == 0x0A || (at(open) == UInt8(ascii: "\r") && at(open + 1) == 0x0A))
        var k = open
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\\") { k += 2; continue }
            if b == 0x0A && !multiline { return nil }
            if b == UInt8(ascii: "/") {
                var closing = 0
                while closing < hashes && at(k + 1 + closing) == UInt8(ascii: "#") { closing += 1 }
                if closing == hashes { return k + 1 + hashes }
            }
            k += 1
        }
        return nil
    }

    /// Whether an expression can start at `i`: what precedes it (spaces aside) opens, separates or
    /// operates, or the line starts here.
    private func startsExpression() -> Bool {
        var k = i - 1
        while k >= 0, bytes[k] == UInt8(ascii: " ") || bytes[k] == UInt8(ascii: "\t") { k -= 1 }
        guard k >= 0 else { return true }
        let b = bytes[k]
        if b == 0x0A { return true }
        if Self.isWordByte(b) {
            // `return /x/`, `case /x/`: a keyword; `a / b`: a value.
            var w = k
            while w > 0, Self.isWordByte(bytes[w - 1]) { w -= 1 }
            let word = Array(bytes[w...k])
            return [Array("return".utf8), Array("case".utf8), Array("in".utf8), Array("try".utf8), Array("await".utf8)].contains(word)
        }
        return ![UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(b)
    }

    /// Ends a postfix chain (anything but `.name`, a call, a subscript, `?`, `!`).
    private mutating func breakChain() { chain = 0 }

    private mutating func run() -> Excess? {
        while i < bytes.count {
            let c = bytes[i]
            switch contexts[contexts.count - 1] {
            case .code:
                if let found = code(c) { return found }
            case .string(let multiline, let hashes):
                if let found = string(c, multiline: multiline, hashes: hashes) { return found }
            }
        }
        return nil
    }

    private mutating func code(_ c: UInt8) -> Excess? {
        if justClosedBrace, c != UInt8(ascii: " "), c != UInt8(ascii: "\t"), c != UInt8(ascii: "\r"), c != 0x0A {
            justClosedBrace = false
            if !(c == UInt8(ascii: "e") && bytes[i...].starts(with: "else".utf8) && !Self.isWordByte(at(i + 4))) { elseIfs = 0 }
        }
        // Comments: their brackets count from here, as if they were code, until they end.
        if !literalsAsCode, c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "/") {
            // To the line's end: a column per character (what `step` counts), no line.
            while i < bytes.count && bytes[i] != 0x0A {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return nil
        }
        if !literalsAsCode, c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
            var nesting = 0
            repeat {
                if at(i) == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") { nesting += 1; step(2) }
                else if at(i) == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/") { nesting -= 1; step(2) }
                else { step() }
            } while nesting > 0 && i < bytes.count
            return nil
        }
        if !literalsAsCode, c == UInt8(ascii: "/") || c == UInt8(ascii: "#"), let end = regexLiteralEnd() {
            // A regex literal is text to the parser: its brackets and quotes are not code.
            step(end - i)
            breakChain()
            return nil
        }
        if c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") {
            var hashes = 0
            while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
            if !literalsAsCode, at(i + hashes) == UInt8(ascii: "\"") {
                let multiline = at(i + hashes + 1) == UInt8(ascii: "\"") && at(i + hashes + 2) == UInt8(ascii: "\"")
                step(hashes + (multiline ? 3 : 1))
                contexts.append(.string(multiline: multiline, hashes: hashes))
                return nil
            }
            if c == UInt8(ascii: "#"), at(i + 1) == UInt8(ascii: "i"), at(i + 2) == UInt8(ascii: "f"), !Self.isWordByte(at(i + 3)) {
                ifConfigs += 1
                if let found = excess("#if blocks nest more than LIMIT deep", ifConfigs, Self.conditionalCompilationLimit) { return found }
            } else if c == UInt8(ascii: "#"), bytes[i...].starts(with: "#endif".utf8) {
                ifConfigs = max(ifConfigs - 1, 0)
            }
            breakChain()
            previousWasElse = false
            step(max(hashes, 1))
            return nil
        }
        if Self.isWordByte(c) {
            let wordStart = i
            let start = (line, column)
            let afterDot = i > 0 && bytes[i - 1] == UInt8(ascii: ".")
            while i < bytes.count, Self.isWordByte(bytes[i]) {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            if !afterDot { breakChain() }
            if isPrefixKeyword(from: wordStart) {
                prefixRun += 1
                if let found = excess("more than LIMIT prefix keywords and operators in a row", prefixRun, Self.prefixRunLimit, at: start) { return found }
            } else {
                prefixRun = 0
            }
            if previousWasElse, isWord("if", from: wordStart) {
                elseIfs += 1
                if let found = excess("more than LIMIT `else if` branches in a row", elseIfs, Self.elseIfLimit, at: start) { return found }
            }
            previousWasElse = isWord("else", from: wordStart)
            return nil
        }
        let previous = i > 0 ? bytes[i - 1] : 0
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            // A run of them at once (indentation): each is what `step` does for one.
            repeat {
                column += 1
                i += 1
            } while i < bytes.count && (bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\r"))
            return nil
        case 0x0A:
            generics = 0
            arrows = 0
            step()
            // A chain goes on across lines only when the next line starts with `.`.
            var k = i
            while k < bytes.count, bytes[k] == UInt8(ascii: " ") || bytes[k] == UInt8(ascii: "\t") || bytes[k] == 0x0A || bytes[k] == UInt8(ascii: "\r") { k += 1 }
            if at(k) != UInt8(ascii: ".") { breakChain() }
            return nil
        case UInt8(ascii: "."):
            if Self.isWordByte(at(i + 1)) {
                chain += 1
                if let found = excess("a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than LIMIT", chain, Self.postfixChainLimit) { return found }
            }
            prefixRun = 0
            previousWasElse = false
            step()
            return nil
        case UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"):
            let postfix = c != UInt8(ascii: "{") && (Self.isWordByte(previous) || previous == UInt8(ascii: ")")
                || previous == UInt8(ascii: "]") || previous == UInt8(ascii: "?") || previous == UInt8(ascii: "!"))
            let outer = postfix ? chain + 1 : 0
            if postfix, let found = excess("a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than LIMIT", outer, Self.postfixChainLimit) { return found }
            chainLevels.append((outer, elseIfs))
            chain = 0
            elseIfs = 0
            if c == UInt8(ascii: "[") {
                square += 1
                if !literalsAsCode, let found = excess("square brackets nest more than LIMIT deep", square, Self.squareBracketLimit) { return found }
            }
            if c == UInt8(ascii: "("), !interpolationParens.isEmpty { interpolationParens[interpolationParens.count - 1] += 1 }
            if c == UInt8(ascii: "{") { generics = 0; arrows = 0; elseIfs = 0 }
            prefixRun = 0
            previousWasElse = false
            step()
            return nil
        case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "}"):
            if c == UInt8(ascii: "]") { square = max(square - 1, 0) }
            if c == UInt8(ascii: ")"), !literalsAsCode, let open = interpolationParens.last {
                if open == 0 {
                    // The end of an interpolation: back into its string.
                    interpolationParens.removeLast()
                    contexts.removeLast()
                    step()
                    return nil
                }
                interpolationParens[interpolationParens.count - 1] = open - 1
            }
            let restored = chainLevels.popLast()
            chain = c == UInt8(ascii: "}") ? 0 : (restored?.chain ?? 0)
            elseIfs = restored?.elseIfs ?? 0
            if c == UInt8(ascii: "}") { generics = 0; arrows = 0; justClosedBrace = true }
            prefixRun = 0
            previousWasElse = false
            step()
            return nil
        case UInt8(ascii: "<"):
            // `A<B<C<…>>>`: a `<` right after a name opens generic arguments.
            if Self.isWordByte(previous) {
                generics += 1
                if let found = excess("generic arguments nest more than LIMIT deep", generics, Self.genericLimit) { return found }
            }
            breakChain()
            step()
            return nil
        case UInt8(ascii: ">"):
            generics = max(generics - 1, 0)
            step()
            return nil
        case UInt8(ascii: "?"), UInt8(ascii: "!"):
            // `x!!!`, `Int???`, `a?.b`: postfix when glued to what precedes it.
            if Self.isWordByte(previous) || [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: ">")].contains(previous) {
                chain += 1
                if let found = excess("a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than LIMIT", chain, Self.postfixChainLimit) { return found }
            } else {
                prefixRun += 1
                if let found = excess("more than LIMIT prefix keywords and operators in a row", prefixRun, Self.prefixRunLimit) { return found }
            }
            step()
            return nil
        case UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "="):
            breakChain()
            prefixRun = 0
            previousWasElse = false
            if c == UInt8(ascii: ";") { generics = 0; arrows = 0; elseIfs = 0 }
            step()
            return nil
        case UInt8(ascii: "-") where at(i + 1) == UInt8(ascii: ">"):
            arrows += 1
            if let found = excess("more than LIMIT `->` in one type", arrows, Self.arrowLimit) { return found }
            breakChain()
            step(2)
            return nil
        default:
            // Other operators: prefix when followed by an operand (`- - - x`), else binary.
            breakChain()
            let next = at(i + 1)
            if next != UInt8(ascii: " ") && previous == UInt8(ascii: " ") || previous == UInt8(ascii: "(") {
                prefixRun += 1
                if let found = excess("more than LIMIT prefix keywords and operators in a row", prefixRun, Self.prefixRunLimit) { return found }
            } else {
                prefixRun = 0
            }
            previousWasElse = false
            step()
            return nil
        }
    }

    private mutating func string(_ c: UInt8, multiline: Bool, hashes: Int) -> Excess? {
        if c == UInt8(ascii: "\\") {
            var k = 1
            while k <= hashes && at(i + k) == UInt8(ascii: "#") { k += 1 }
            if k == hashes + 1 && at(i + k) == UInt8(ascii: "(") {
                step(k + 1)
                contexts.append(.code)
                interpolationParens.append(0)
                return excess("string interpolations nest more than LIMIT deep", interpolationParens.count, Self.interpolationLimit)
            }
            step(k + 1)
            return nil
        }
        if c == UInt8(ascii: "\"") && (!multiline || (at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\""))) {
            let quotes = multiline ? 3 : 1
            var k = quotes
            while k < quotes + hashes && at(i + k) == UInt8(ascii: "#") { k += 1 }
            step(k)
            if k == quotes + hashes { contexts.removeLast() }
            return nil
        }
        if c == 0x0A && !multiline {
            contexts.removeLast()   // an unterminated string ends at the line's end
            step()
            return nil
        }
        // The string's text up to the next `\`, `"` or line end, at once.
        repeat {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        } while i < bytes.count && bytes[i] != UInt8(ascii: "\\") && bytes[i] != UInt8(ascii: "\"") && bytes[i] != 0x0A
        return nil
    }
}
