import PriceFormatting
/// Lints Objective-C (`.m`, `.mm`, `.h`) with a small tokenizer of our own that knows `@"…"` and
/// C string literals, character literals, comments and preprocessor lines (a `#define`'s body is
/// linted as code; other directives are skipped).
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
                // Preprocessor line, with backslash continuations: skipped (`#import "Store.h"` is a
                // file name), except a `#define`'s body, which is code.
                var name = ""
                var j = i + 1
                while j < chars.count, chars[j] == " " || chars[j] == "\t" { j += 1 }
                while j < chars.count, chars[j].properties.isAlphabetic { name.unicodeScalars.append(chars[j]); j += 1 }
                if name == "define" {
                    advance(j - i)
                    atLineStart = false
                    continue
                }
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
                if context.isTitle(token.text) {
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
        found += formatFindings(tokens) + currencyFormatterFindings(tokens)
        return found
    }

    static let formatSelectors: Set<String> = ["stringWithFormat", "initWithFormat", "localizedStringWithFormat", "appendFormat"]
    static let floatSpecifier = try! NSRegularExpression(pattern: #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|L)?[fFgGeE]"#)

    /// `[NSString stringWithFormat:@"%0.2lf", product.price.floatValue]`: a price through a float
    /// format, without currency or the product's locale. Reported at the format string.
    func formatFindings(_ tokens: [Token]) -> [Finding] {
        var found: [Finding] = []
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            guard tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text) else { continue }
            let format = tokens[index].text
            guard Self.floatSpecifier.firstMatch(in: format, range: NSRange(format.startIndex..., in: format)) != nil else { continue }
            // The arguments: up to the `]` that closes the message, or the end of the statement.
            var depth = 0
            var mentionsPrice = false
            for token in tokens[(index + 1)...] {
                if token.text == "[" || token.text == "(" { depth += 1 }
                if token.text == "]" || token.text == ")" { depth -= 1; if depth < 0 { break } }
                if token.text == ";" { break }
                if token.kind == .identifier, token.text.lowercased().contains("price") { mentionsPrice = true; break }
            }
            guard mentionsPrice else { continue }
            found.append(Finding(rule: "currency-formatter-locale",
                                 message: "\(tokens[index - 2].text): @\"\(format)\" formats a price as a plain number, not in the product's currency and locale; use an NSNumberFormatter whose locale is the product's priceLocale",
                                 line: tokens[index].line, column: tokens[index].column))
        }
        return found
    }

    /// An `NSNumberFormatter` given a currency style in a function or method body that never
    /// mentions a `priceLocale`. Reported at the statement that sets the style.
    func currencyFormatterFindings(_ tokens: [Token]) -> [Finding] {
        var found: [Finding] = []
        var depth = 0
        var bodyStart = 0
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            if token.text == "{" {
                if depth == 0 { bodyStart = index }
                depth += 1
            } else if token.text == "}", depth > 0 {
                depth -= 1
                guard depth == 0 else { continue }
                let body = tokens[bodyStart...index]
                guard !body.contains(where: { $0.kind == .identifier && $0.text == "priceLocale" }) else { continue }
                for styleIndex in body.indices where body[styleIndex].kind == .identifier
                    && (body[styleIndex].text == "NSNumberFormatterCurrencyStyle" || body[styleIndex].text == "NSNumberFormatterCurrencyISOCodeStyle") {
                    var start = styleIndex
                    while start > bodyStart, ![";", "{", "}"].contains(tokens[start - 1].text) { start -= 1 }
                    let first = tokens[start]
                    let name = first.kind == .identifier ? first.text : (first.text == "[" && start + 1 < styleIndex ? tokens[start + 1].text : "the formatter")
                    found.append(Finding(rule: "currency-formatter-locale",
                                         message: "'\(name)' formats currency but its locale is not set from the product's priceLocale in this method",
                                         line: first.line, column: first.column))
                }
            }
        }
        return found
    }
}

import Foundation
