/// Lints Objective-C (`.m`, `.mm`, `.h`) with a small tokenizer of our own that knows `@"…"` and
/// C string literals, character literals, comments and preprocessor lines.
struct ObjCLinter {
    let source: String
    let context: LintContext

    enum Kind { case string, identifier, punctuation }

    struct Token {
        var kind: Kind
        var text: String
        var line: Int
        var column: Int
    }

    func tokens() -> [Token] {
        let chars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        var line = 1
        var column = 1
        var atLineStart = true
        func advance(_ n: Int = 1) {
            for _ in 0..<n where i < chars.count {
                if chars[i] == "\n" { line += 1; column = 1; atLineStart = true } else { column += 1 }
                i += 1
            }
        }
        func peek(_ k: Int) -> Unicode.Scalar? { i + k < chars.count ? chars[i + k] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" || c == " " || c == "\t" || c == "\r" { advance(); continue }
            if atLineStart && c == "#" {
                // Preprocessor line, with backslash continuations.
                while i < chars.count && !(chars[i] == "\n" && (i == 0 || chars[i - 1] != "\\")) { advance() }
                continue
            }
            atLineStart = false
            if c == "/" && peek(1) == "/" { while i < chars.count && chars[i] != "\n" { advance() }; continue }
            if c == "/" && peek(1) == "*" {
                advance(2)
                while i < chars.count && !(chars[i] == "*" && peek(1) == "/") { advance() }
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
                advance()
                tokens.append(Token(kind: .string, text: text, line: startLine, column: startColumn))
                continue
            }
            if c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) {
                let (startLine, startColumn) = (line, column)
                var text = ""
                while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "_" || ("0"..."9").contains(chars[i]) {
                    text.unicodeScalars.append(chars[i])
                    advance()
                }
                tokens.append(Token(kind: .identifier, text: text, line: startLine, column: startColumn))
                continue
            }
            tokens.append(Token(kind: .punctuation, text: String(c), line: line, column: column))
            advance()
        }
        return tokens
    }

    func findings() -> [Finding] {
        let tokens = tokens()
        var found: [Finding] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .string:
                // Format specifiers stand for values: "$%@" and "%.2f €" put a symbol next to one.
                let text = token.text.replacingOccurrences(of: #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|h|q|z)?[@dfgisuxX]"#,
                                                           with: String(PricePattern.placeholder), options: .regularExpression)
                if let price = PricePattern.firstMatch(in: text) {
                    found.append(Finding(rule: "hardcoded-price", message: "the literal shows a price ('\(price)'); show the product's localized price",
                                         line: token.line, column: token.column))
                }
                if context.titles.contains(LintContext.normalizedTitle(token.text)) {
                    found.append(Finding(rule: "hardcoded-title", message: "'\(token.text)' is a product's name or description from the catalog; show the product's localizedTitle",
                                         line: token.line, column: token.column))
                }
                if let constant = context.productConstants[token.text] {
                    found.append(Finding(rule: "hardcoded-product-id", message: "product ID '\(token.text)' typed as a literal; use the generated constant (\(constant))",
                                         line: token.line, column: token.column))
                } else if let prefix = context.bundlePrefix, token.text.lowercased().hasPrefix(prefix), token.text.count > prefix.count {
                    let hint = context.nearestID(to: token.text).map { "; did you mean '\($0)'?" } ?? ""
                    found.append(Finding(rule: "unknown-product-id", message: "'\(token.text)' looks like a product ID but is not in the catalog\(hint)",
                                         line: token.line, column: token.column))
                }
            case .identifier where token.text == "floatValue" || token.text == "doubleValue":
                // price.floatValue or [price floatValue]: report at the start of the receiver chain.
                var j = index - 1
                if j >= 0, tokens[j].text == "." { j -= 1 }
                guard j >= 0, tokens[j].kind == .identifier, tokens[j].text.lowercased().hasSuffix("price") else { continue }
                while j >= 2, tokens[j - 1].text == ".", tokens[j - 2].kind == .identifier { j -= 2 }
                found.append(Finding(rule: "price-float-conversion", message: "'\(token.text)' on a price loses cents; format the NSDecimalNumber with the product's priceLocale",
                                     line: tokens[j].line, column: tokens[j].column))
            default:
                break
            }
        }
        return found
    }
}

import Foundation
