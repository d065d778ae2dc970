/// Turns any text (a reference name, an ID segment, emoji, Unicode) into a valid Swift identifier.
public enum SwiftIdentifier {
    /// Swift 6's keywords, statement and expression keywords, and the contextual ones that are
    /// unsafe or confusing as member names. Escaped with backticks wherever they appear.
    public static let keywords: Set<String> = [
        // declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        // expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // contextual and recent
        "actor", "any", "async", "consume", "copy", "discard", "each", "isolated", "macro", "sending", "some", "Type",
        "Protocol", "associativity", "convenience", "didSet", "dynamic", "final", "get", "indirect", "infix", "lazy",
        "left", "mutating", "none", "nonmutating", "optional", "override", "postfix", "precedence", "prefix",
        "required", "right", "set", "unowned", "weak", "willSet", "throws", "rethrows",
    ]

    /// lowerCamelCase (`extraLives`) or UpperCamelCase (`ExtraLives`) from words of `text`:
    /// split at anything that is not a letter or digit and at camelCase boundaries; characters
    /// Swift does not allow in identifiers (emoji, symbols) are dropped; a leading digit gets
    /// an underscore; keywords are escaped. Empty results fall back to `fallback`.
    public static func make(from text: String, upper: Bool = false, fallback: String = "unnamed") -> String {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for ch in text {
            let allowed = ch.isLetter || ch.isNumber
            if !allowed || !isIdentifierCharacter(ch) {
                if !current.isEmpty { words.append(current); current = "" }
                previous = nil
                continue
            }
            if let p = previous, p.isLowercase && ch.isUppercase {
                words.append(current)
                current = ""
            }
            current.append(ch)
            previous = ch
        }
        if !current.isEmpty { words.append(current) }
        // A leading acronym is one word: `ARSubscription` → `AR` + `Subscription` (→ `arSubscription`).
        if let first = words.first, let split = Self.leadingAcronymEnd(first) {
            words[0] = String(first[..<split])
            words.insert(String(first[split...]), at: 1)
        }
        var name = ""
        for (i, word) in words.enumerated() {
            let allCaps = word.count > 1 && word.allSatisfy { !$0.isLowercase }
            let base = allCaps ? word.lowercased() : word
            if i == 0 && !upper {
                name += base.prefix(1).lowercased() + base.dropFirst()
            } else {
                name += base.prefix(1).uppercased() + base.dropFirst()
            }
        }
        if name.isEmpty { name = upper ? fallback.prefix(1).uppercased() + fallback.dropFirst() : fallback }
        if let first = name.first, first.isNumber { name = "_" + name }
        return escaped(name)
    }

    /// Where a word that opens with an acronym (two capitals or more, then a capital starting a
    /// lowercase word) splits: `ARSubscription` at `S`, `URLSession` at `S`.
    static func leadingAcronymEnd(_ word: String) -> String.Index? {
        let chars = Array(word.indices)
        var n = 0
        while n < chars.count, word[chars[n]].isUppercase { n += 1 }
        guard n >= 3, n < chars.count, word[chars[n]].isLowercase else { return nil }
        return chars[n - 1]
    }

    /// The name in backticks when it is a keyword.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`" + name + "`" : name
    }

    /// The name without backticks, for comparisons.
    public static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// Letters and digits Swift accepts in identifiers: ASCII, and the Unicode letters and
    /// digits of its grammar's ranges (approximated by Unicode's alphabetic property, which
    /// excludes emoji and symbols).
    static func isIdentifierCharacter(_ ch: Character) -> Bool {
        ch.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII ? (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                : (scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal)
        }
    }
}
