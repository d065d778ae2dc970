import Foundation

/// A small tokenizer of Objective-C (`.m`, `.mm`, `.h`) that knows `@"…"` and C string literals,
/// character literals, numbers, comments and preprocessor lines. Directives are skipped (`#import
/// "Store.h"` is a file name) except a `#define`'s body, which is code; `#if DEBUG` branches are
/// remembered, since they never ship.
struct ObjCTokenizer {
    enum Kind { case string, identifier, number, punctuation }

    /// 32 bytes: a file of punctuation is a token per byte. The text is Swift's small string
    /// when it has at most 15 bytes; a longer identifier shares one copy per file (`names`).
    struct Token {
        var text: String
        private var storedLine: Int32
        private var storedColumn: Int32
        var kind: Kind
        /// Inside an `#if DEBUG` (or `#ifdef DEBUG`) branch.
        var debugOnly = false
        /// Part of a `#define` line.
        var inDefine = false

        var line: Int { Int(storedLine) }
        var column: Int { Int(storedColumn) }

        /// Lines and columns fit: sources over 16 MB are not read.
        init(kind: Kind, text: String, line: Int, column: Int, debugOnly: Bool = false, inDefine: Bool = false) {
            self.text = text
            storedLine = Int32(clamping: line)
            storedColumn = Int32(clamping: column)
            self.kind = kind
            self.debugOnly = debugOnly
            self.inDefine = inDefine
        }
    }

    private(set) var tokens: [Token] = []
    /// `//` comments, for suppressions.
    private(set) var comments: [SourceComment] = []
    /// Where the text stops being code the tokenizer understands: an unterminated string or
    /// comment (line, column, what).
    private(set) var unterminated: (line: Int, column: Int, what: String)?
    /// The file imports StoreKit (`#import <StoreKit/StoreKit.h>`, `@import StoreKit;`).
    private(set) var importsStoreKit = false

    init(_ source: String) {
        let chars = Array(source.unicodeScalars)
        var i = 0
        var line = 1
        var column = 1
        var atLineStart = true
        var defineLine = 0
        // Each open conditional: whether this branch is DEBUG-only, and whether its #else would be.
        var conditionals: [(debug: Bool, elseDebug: Bool)] = []
        // How many open branches are DEBUG-only: asked for every token, so counted, not searched.
        var debugBranches = 0
        var debugOnly: Bool { debugBranches > 0 }
        func push(_ branch: (debug: Bool, elseDebug: Bool)) {
            conditionals.append(branch)
            if branch.debug { debugBranches += 1 }
        }
        func pop() -> (debug: Bool, elseDebug: Bool)? {
            guard let top = conditionals.popLast() else { return nil }
            if top.debug { debugBranches -= 1 }
            return top
        }
        func advance(_ n: Int = 1) {
            for _ in 0..<n where i < chars.count {
                if chars[i] == "\n" { line += 1; column = 1; atLineStart = true } else { column += 1 }
                i += 1
            }
        }
        func peek(_ k: Int) -> Unicode.Scalar? { i + k < chars.count ? chars[i + k] : nil }
        // Identifiers longer than a small string, one copy each: `stringWithFormat` is 16 bytes.
        var names: Set<String> = []
        func append(_ kind: Kind, _ text: String, _ line: Int, _ column: Int) {
            var text = text
            if kind == .identifier, text.utf8.count > 15 {
                text = names.insert(text).memberAfterInsert
            }
            tokens.append(Token(kind: kind, text: text, line: line, column: column, debugOnly: debugOnly, inDefine: defineLine == line))
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" || c == " " || c == "\t" || c == "\r" { advance(); continue }
            if atLineStart && c == "#" {
                var j = i + 1
                while j < chars.count, chars[j] == " " || chars[j] == "\t" { j += 1 }
                var name = ""
                while j < chars.count, chars[j].properties.isAlphabetic { name.unicodeScalars.append(chars[j]); j += 1 }
                if name == "define" {
                    advance(j - i)
                    atLineStart = false
                    defineLine = line
                    continue
                }
                while i < chars.count && !(chars[i] == "\n" && (i == 0 || chars[i - 1] != "\\")) { advance() }
                var argument = ""
                argument.unicodeScalars.append(contentsOf: chars[min(j, i)..<i])
                if let comment = argument.range(of: "//") { argument = String(argument[..<comment.lowerBound]) }
                argument = argument.trimmingWhitespace()
                switch name {
                case "if", "ifdef":
                    let debug = argument == "DEBUG" || argument == "defined(DEBUG)" || argument.hasPrefix("DEBUG &&")
                    push((debug, argument == "!DEBUG" || argument == "!defined(DEBUG)"))
                case "ifndef": push((false, argument == "DEBUG"))
                case "elif": if let top = pop() { push((false, top.elseDebug)) }
                case "else": if let top = pop() { push((top.elseDebug, false)) }
                case "endif": _ = pop()
                case "import", "include":
                    if argument.contains("StoreKit/") { importsStoreKit = true }
                default: break
                }
                continue
            }
            atLineStart = false
            if c == "@", peek(1) == "i", String(String.UnicodeScalarView(chars[i..<min(i + 16, chars.count)])).hasPrefix("@import StoreKit") {
                importsStoreKit = true
            }
            if c == "/" && peek(1) == "/" {
                let (startLine, startColumn) = (line, column)
                advance(2)
                var text = ""
                while i < chars.count && chars[i] != "\n" { text.unicodeScalars.append(chars[i]); advance() }
                comments.append(SourceComment(line: startLine, column: startColumn, text: text[...]))
                continue
            }
            if c == "/" && peek(1) == "*" {
                let (startLine, startColumn) = (line, column)
                advance(2)
                while i < chars.count && !(chars[i] == "*" && peek(1) == "/") { advance() }
                if i >= chars.count, unterminated == nil { unterminated = (startLine, startColumn, "a /* comment") }
                advance(2)
                continue
            }
            if c == "'" {
                advance()
                while i < chars.count && chars[i] != "'" && chars[i] != "\n" { if chars[i] == "\\" { advance() }; advance() }
                advance()
                continue
            }
            if c == "\"" || (c == "@" && peek(1) == "\"") {
                let (startLine, startColumn) = (line, column)
                if c == "@" { advance() }
                advance()
                var text = ""
                while i < chars.count && chars[i] != "\"" && chars[i] != "\n" {
                    if chars[i] == "\\", let next = peek(1) {
                        switch next {
                        case "n": text += "\n"
                        case "t": text += "\t"
                        default: text.unicodeScalars.append(next)
                        }
                        advance(2)
                        continue
                    }
                    text.unicodeScalars.append(chars[i])
                    advance()
                }
                if i >= chars.count || chars[i] == "\n", unterminated == nil { unterminated = (startLine, startColumn, "a string") }
                advance()
                append(.string, text, startLine, startColumn)
                continue
            }
            if ("0"..."9").contains(c) {
                let (startLine, startColumn) = (line, column)
                var text = ""
                var seenDot = false
                while i < chars.count {
                    let d = chars[i]
                    if ("0"..."9").contains(d) || d.properties.isAlphabetic || d == "_" {
                        text.unicodeScalars.append(d)
                    } else if d == ".", !seenDot, let next = peek(1), ("0"..."9").contains(next) {
                        seenDot = true
                        text.unicodeScalars.append(d)
                    } else {
                        break
                    }
                    advance()
                }
                append(.number, text, startLine, startColumn)
                continue
            }
            if c.properties.isAlphabetic || c == "_" {
                let (startLine, startColumn) = (line, column)
                var text = ""
                while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "_" || ("0"..."9").contains(chars[i]) {
                    text.unicodeScalars.append(chars[i])
                    advance()
                }
                // A C++11 raw string in Objective-C++: `R"(…)"`, `u8R"json(…)json"`; quotes and
                // backslashes inside are text, and it may span lines.
                if ["R", "LR", "uR", "UR", "u8R"].contains(text), i < chars.count, chars[i] == "\"" {
                    var delimiter: [Unicode.Scalar] = []
                    var k = i + 1
                    while k < chars.count, k - i <= 17, !["(", ")", "\\", " ", "\n", "\""].contains(chars[k]) { delimiter.append(chars[k]); k += 1 }
                    if k < chars.count, chars[k] == "(", delimiter.count <= 16 {
                        advance(k + 1 - i)
                        var body = ""
                        while i < chars.count {
                            if chars[i] == ")", i + delimiter.count + 1 < chars.count, chars[(i + 1)..<(i + 1 + delimiter.count)].elementsEqual(delimiter),
                               chars[i + delimiter.count + 1] == "\"" { break }
                            body.unicodeScalars.append(chars[i])
                            advance()
                        }
                        if i >= chars.count, unterminated == nil { unterminated = (startLine, startColumn, "a raw string") }
                        advance(delimiter.count + 2)
                        append(.string, body, startLine, startColumn)
                        continue
                    }
                }
                append(.identifier, text, startLine, startColumn)
                continue
            }
            append(.punctuation, String(c), line, column)
            advance()
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" || first == "\r" || first == "\\" { s = s.dropFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\r" || last == "\\" { s = s.dropLast() }
        return String(s)
    }
}
