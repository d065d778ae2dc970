import Foundation
import PriceFormatting

/// Lints Objective-C with `ObjCTokenizer`: the same rules as Swift, read from tokens.
struct ObjCLinter {
    typealias Token = ObjCTokenizer.Token

    let context: LintContext
    let path: String
    private let tokenizer: ObjCTokenizer
    /// Locals that hold a price (`double regular = monthly.price.doubleValue;`): dividing two of
    /// them is a ratio.
    private let priceNames: Set<String>

    /// Test-support files (mocks, fixtures) are linted too (`--include-tests`).
    let includeTests: Bool

    init(source: String, context: LintContext, path: String = "Example.m", includeTests: Bool = false) {
        self.context = context
        self.path = path
        self.includeTests = includeTests
        tokenizer = ObjCTokenizer(source)
        priceNames = Self.priceNames(tokenizer.tokens)
    }

    static let formatSelectors: Set<String> = ["stringWithFormat", "initWithFormat", "localizedStringWithFormat", "appendFormat"]
    static let floatSpecifier = try! NSRegularExpression(pattern: #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|L)?[fFgGeE]"#)
    /// Numeric format specifiers: they stand for an amount.
    static let numberSpecifier = #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|h|q|z|L)?[dfgiuxXeE]"#
    /// Localization macros, and the position of their translator's comment.
    static let localizationMacros: [String: Int] = ["NSLocalizedString": 1, "NSLocalizedStringFromTable": 2,
                                                    "NSLocalizedStringFromTableInBundle": 3, "NSLocalizedStringWithDefaultValue": 4]

    /// Where each token sits: a translator's comment, localized copy, logged, a format call's string.
    struct Roles {
        var comment = Set<Int>()
        var localized = Set<Int>()
        var logged = Set<Int>()
    }

    func run() -> (findings: [Finding], comments: [SourceComment]) {
        let tokens = tokenizer.tokens
        let roles = Self.roles(tokens)
        let neverShippedFile = LintScope.isNeverShippedFile(path, includeTests: includeTests)
        let sellsProducts = tokenizer.importsStoreKit || tokens.contains { $0.kind == .identifier && ["SKProduct", "priceLocale"].contains($0.text) }
        let flow = ObjCProductIDFlow(tokens: tokens, catalog: !context.productConstants.isEmpty)
        var found: [Finding] = []
        var definitions: [Int] = []
        var priceConstants: [(name: Int, value: Int)] = []
        for (index, token) in tokens.enumerated() {
            let shipped = !neverShippedFile && !token.debugOnly
            switch token.kind {
            case .string:
                guard shipped, !roles.comment.contains(index) else { continue }
                let logged = roles.logged.contains(index)
                var price = logged ? nil : PricePattern.firstMatch(in: priceText(tokens, index))
                var title = !logged && !roles.localized.contains(index) && context.isTitle(token.text) && !Self.isKeyArgument(tokens, index)
                // `[[TestProduct alloc] initWithPrice:@"$1.99"]`: the literal describes a stand-in.
                if price != nil || title, Self.isStandInValue(tokens, index) || Self.definesReservedName(tokens, index) { (price, title) = (nil, false) }
                if let price {
                    found.append(Finding(rule: LintRules.hardcodedPrice, message: "the literal shows a price ('\(price)'); show the product's localized price",
                                         line: token.line, column: token.column))
                }
                if title {
                    found.append(Finding(rule: LintRules.hardcodedTitle, message: "'\(token.text)' is a product's name or description from the catalog; show the product's localizedTitle",
                                         line: token.line, column: token.column))
                }
                if context.productConstants[token.text] != nil {
                    if isDefinition(tokens, index) { definitions.append(index) } else if let constant = context.productConstants[token.text] {
                        found.append(Finding(rule: LintRules.hardcodedProductID, message: "product ID '\(token.text)' typed as a literal; use the generated constant (\(constant))",
                                             line: token.line, column: token.column))
                    }
                } else if !context.productConstants.isEmpty, ProductIDText.isIDLike(token.text), flow.productIDStrings.contains(index) {
                    let (message, severity) = context.unknownProductID(token.text)
                    found.append(Finding(rule: LintRules.unknownProductID, message: message, line: token.line, column: token.column, severity: severity))
                } else if !flow.namingStrings.contains(index), !roles.logged.contains(index), let near = context.misspelledID(token.text) {
                    found.append(Finding(rule: LintRules.unknownProductID, message: "'\(token.text)' is not in the catalog; it looks like a typo of '\(near)'",
                                         line: token.line, column: token.column))
                }
            case .identifier where token.text == "floatValue" || token.text == "doubleValue" || SwiftLintVisitor.integerMembers.contains(token.text):
                // price.floatValue or [price floatValue]: report at the start of the receiver chain.
                var j = index - 1
                if j >= 0, tokens[j].text == "." { j -= 1 }
                guard shipped, j >= 0, tokens[j].kind == .identifier, tokens[j].text.lowercased().hasSuffix("price") else { continue }
                while j >= 2, tokens[j - 1].text == ".", tokens[j - 2].kind == .identifier { j -= 2 }
                let receiver = tokens[j...index]
                guard sellsProducts || receiver.contains(where: { $0.text.lowercased().contains("product") }),
                      keepsPrecision(tokens, index), valueKeepsPrecision(tokens, index) else { continue }
                let loss = SwiftLintVisitor.integerMembers.contains(token.text) ? "drops its cents (4.99 becomes 4)" : "loses cents"
                found.append(Finding(rule: LintRules.priceFloatConversion, message: "'\(token.text)' on a price \(loss); format the NSDecimalNumber with the product's priceLocale",
                                     line: tokens[j].line, column: tokens[j].column))
            case .identifier where ["double", "float", "CGFloat", "Float64", "Float32"].contains(token.text):
                // `@property double price;` or an instance variable: a price kept where it cannot hold its cents.
                guard shipped, sellsProducts, index + 2 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].text == ";",
                      LintScope.namesPrice(tokens[index + 1].text), Self.isStoredDeclaration(tokens, index) else { continue }
                let name = tokens[index + 1]
                found.append(Finding(rule: LintRules.priceFloatConversion, message: "'\(name.text)' keeps a price as \(token.text), which cannot hold most cents exactly; keep the NSDecimalNumber (or the product) instead",
                                     line: name.line, column: name.column))
            case .number:
                // `#define kProAnnualPrice 6.99`, `static const double kPrice = 4.99;`.
                guard shipped, Self.amount(token.text) != nil, index >= 1 else { continue }
                var n = index - 1
                if tokens[n].text == "=" { n -= 1 } else if !(tokens[n].inDefine && tokens[n].line == token.line) { continue }
                guard n >= 0, tokens[n].kind == .identifier, LintScope.namesPrice(tokens[n].text), !roles.logged.contains(index) else { continue }
                priceConstants.append((n, index))
            default:
                break
            }
        }
        if definitions.count >= 2 {
            let first = tokens[definitions[0]]
            let shown = definitions.prefix(3).map { "'\(tokens[$0].text)'" }.joined(separator: ", ") + (definitions.count > 3 ? ", …" : "")
            found.append(Finding(rule: LintRules.hardcodedProductID, message: "\(definitions.count) product IDs are defined here as string literals (\(shown)); generate them with `iap gen` so the compiler checks every use against the catalog",
                                 line: first.line, column: first.column))
        } else if let only = definitions.first, let constant = context.productConstants[tokens[only].text] {
            found.append(Finding(rule: LintRules.hardcodedProductID, message: "product ID '\(tokens[only].text)' typed as a literal; use the generated constant (\(constant))",
                                 line: tokens[only].line, column: tokens[only].column))
        }
        if priceConstants.count >= 2 {
            let first = tokens[priceConstants[0].name]
            let shown = priceConstants.prefix(3).map { "\(tokens[$0.name].text) \(tokens[$0.value].text)" }.joined(separator: ", ")
                + (priceConstants.count > 3 ? ", …" : "")
            found.append(Finding(rule: LintRules.hardcodedPrice, message: "\(priceConstants.count) prices are written in code here (\(shown)); show each product's localized price instead",
                                 line: first.line, column: first.column))
        } else if let only = priceConstants.first {
            let name = tokens[only.name]
            found.append(Finding(rule: LintRules.hardcodedPrice, message: "'\(name.text)' holds a price written in code (\(tokens[only.value].text)); show the product's localized price",
                                 line: name.line, column: name.column))
        }
        found += formatFindings(tokens, roles, neverShippedFile: neverShippedFile)
        if sellsProducts { found += currencyFormatterFindings(tokens, neverShippedFile: neverShippedFile) }
        if let stop = tokenizer.unterminated {
            found.append(Finding(rule: LintRules.unparsedSource,
                                 message: "\(stop.what) that never ends: findings after this point may be missed",
                                 line: stop.line, column: stop.column))
        }
        return (found, tokenizer.comments)
    }

    /// Whether the string is an argument whose selector part says it is a key or an identifier
    /// (`nameKey:`, `forKey:`, `productIdentifier:`): it looks a text up, it is not the text.
    static func isKeyArgument(_ tokens: [Token], _ index: Int) -> Bool {
        guard index >= 2, tokens[index - 1].text == ":", tokens[index - 2].kind == .identifier,
              let last = LintScope.words(tokens[index - 2].text).last else { return false }
        return ["key", "id", "identifier", "named"].contains(last)
    }

    /// `#define __DARWIN_SUF_1050 "$1050"`: C reserves names that start with two underscores, or
    /// one and a capital letter, for the compiler and the system; such a macro is a vendored
    /// system header's, never an app's price or title.
    static func definesReservedName(_ tokens: [Token], _ index: Int) -> Bool {
        guard tokens[index].inDefine, index >= 1, tokens[index - 1].kind == .identifier, tokens[index - 1].line == tokens[index].line else { return false }
        let name = tokens[index - 1].text.unicodeScalars
        guard name.first == "_", name.count >= 2 else { return false }
        let second = name[name.index(after: name.startIndex)]
        return second == "_" || ("A"..."Z").contains(second)
    }

    /// Whether the string is an argument of a message to a stand-in class (`[[TestProduct alloc]
    /// initWithPrice:…]`, `[MockProduct productWithTitle:…]`): it describes a test double or a
    /// placeholder. Looks back at most a few hundred tokens, to the `[` that opens the message.
    static func isStandInValue(_ tokens: [Token], _ index: Int) -> Bool {
        var depth = 0
        var k = index - 1
        while k >= 0, index - k < 400 {
            let text = tokens[k].text
            if text == ";" || text == "{" || text == "}" { return false }
            if text == "]" { depth += 1 } else if text == "[" {
                if depth > 0 { depth -= 1 } else {
                    // The receiver: `[X …`, or the class of `[[X alloc] …`.
                    var r = k + 1
                    while r < index, tokens[r].text == "[" { r += 1 }
                    if r < index, tokens[r].kind == .identifier, tokens[r].text.first?.isUppercase == true,
                       LintScope.namesStandIn(tokens[r].text) { return true }
                }
            }
            k -= 1
        }
        return false
    }

    /// The string as a price reads it: numeric format specifiers stand for amounts; `%@` does
    /// only in a format whose arguments name money (`$%@` with a title is not a price).
    func priceText(_ tokens: [Token], _ index: Int) -> String {
        var text = tokens[index].text.replacingOccurrences(of: Self.numberSpecifier, with: String(PricePattern.placeholder), options: .regularExpression)
        if text.contains("%@"), index >= 2, tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text),
           Self.arguments(tokens, after: index).contains(where: { $0.kind == .identifier && PricePattern.isMoneyExpression($0.text) }) {
            text = text.replacingOccurrences(of: "%@", with: String(PricePattern.placeholder))
        }
        return text
    }

    /// The tokens of a message's or call's arguments after `index`: up to the `]` or `)` that
    /// closes it, or the end of the statement.
    static func arguments(_ tokens: [Token], after index: Int) -> ArraySlice<Token> {
        var depth = 0
        var end = index + 1
        while end < tokens.count {
            let text = tokens[end].text
            if text == "[" || text == "(" { depth += 1 }
            if text == "]" || text == ")" { depth -= 1; if depth < 0 { break } }
            if text == ";" { break }
            end += 1
        }
        return tokens[min(index + 1, end)..<end]
    }

    /// Marks translator's comments and localized copy (arguments of `NSLocalizedString` and
    /// friends) and logged strings (arguments of `NSLog`, `DDLog…`, `os_log`, `printf`).
    static func roles(_ tokens: [Token]) -> Roles {
        var roles = Roles()
        for (index, token) in tokens.enumerated() where token.kind == .identifier && index + 1 < tokens.count && tokens[index + 1].text == "(" {
            let localization = localizationMacros[token.text]
            let logging = LintScope.loggingCalls.contains(token.text) || token.text.hasPrefix("DDLog") || token.text == "printf"
            guard localization != nil || logging else { continue }
            var depth = 0
            var argument = 0
            var j = index + 1
            while j < tokens.count {
                let text = tokens[j].text
                if text == "(" || text == "[" || text == "{" { depth += 1 } else if text == ")" || text == "]" || text == "}" {
                    depth -= 1
                    if depth == 0 { break }
                } else if text == ",", depth == 1 {
                    argument += 1
                } else if tokens[j].kind == .string || tokens[j].kind == .number {
                    if logging { roles.logged.insert(j) }
                    if let comment = localization { if argument == comment { roles.comment.insert(j) } else { roles.localized.insert(j) } }
                }
                j += 1
            }
        }
        return roles
    }

    /// The first token of the statement holding `index`: after the last `;`, `{` or `}` before it.
    static func statementStart(_ tokens: [Token], _ index: Int, from floor: Int = 0) -> Int {
        var start = index
        while start > floor, ![";", "{", "}"].contains(tokens[start - 1].text) { start -= 1 }
        return start
    }

    /// `#define kProID @"…"`, or `NSString *const kProID = @"…";` outside any body.
    func isDefinition(_ tokens: [Token], _ index: Int) -> Bool {
        let token = tokens[index]
        if token.inDefine, index >= 1, tokens[index - 1].kind == .identifier, tokens[index - 1].line == token.line { return true }
        guard index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .identifier else { return false }
        var depth = 0
        for t in tokens[..<index] where t.kind == .punctuation {
            if t.text == "{" { depth += 1 } else if t.text == "}" { depth = max(0, depth - 1) }
        }
        return depth == 0
    }

    /// Whether a price converted at `index` keeps mattering: not compared, divided by another
    /// price (a ratio), or logged.
    func keepsPrecision(_ tokens: [Token], _ index: Int) -> Bool {
        let start = Self.statementStart(tokens, index)
        var end = index
        while end < tokens.count - 1, ![";", "{"].contains(tokens[end].text) { end += 1 }
        let statement = Array(tokens[start...end])
        if statement.contains(where: { $0.kind == .identifier && (LintScope.loggingCalls.contains($0.text) || $0.text.hasPrefix("DDLog")) }) {
            return false
        }
        for (k, token) in statement.enumerated() where token.kind == .punctuation {
            let next = k + 1 < statement.count ? statement[k + 1].text : ""
            if token.text == "/", Self.operand(statement, before: k).contains(where: namesPrice),
               Self.operand(statement, after: k).contains(where: namesPrice) { return false }
            if (token.text == "=" || token.text == "!") && next == "=" { return false }
            if (token.text == "<" || token.text == ">") && !isGeneric(statement.map(\.text), k) { return false }
        }
        // `double discountPercent = …`: a ratio, whatever its operators.
        if let equals = statement.firstIndex(where: { $0.text == "=" }), equals >= 1, statement[equals - 1].kind == .identifier,
           !LintScope.ratioWords.isDisjoint(with: LintScope.words(statement[equals - 1].text)) { return false }
        return true
    }

    /// `<` of `NSArray<NSString *>`, not a comparison.
    private func isGeneric(_ texts: [String], _ k: Int) -> Bool {
        texts[k] == "<" && k + 1 < texts.count && texts[k + 1].first?.isUppercase == true && k >= 1 && texts[k - 1].first?.isUppercase == true
    }

    func namesPrice(_ token: Token) -> Bool {
        token.kind == .identifier && (token.text.lowercased().contains("price") || priceNames.contains(token.text))
    }

    /// `TYPE NAME = … price … ;` declarations.
    static func priceNames(_ tokens: [Token]) -> Set<String> {
        var names = Set<String>()
        for i in tokens.indices.dropFirst() where tokens[i].text == "=" && tokens[i - 1].kind == .identifier {
            // An assignment, not the `==` of a comparison.
            guard i + 1 < tokens.count, tokens[i + 1].text != "=" else { continue }
            var j = i + 1
            while j < tokens.count, ![";", "{", "}"].contains(tokens[j].text) {
                if tokens[j].kind == .identifier, tokens[j].text.lowercased().contains("price") { names.insert(tokens[i - 1].text); break }
                j += 1
            }
        }
        return names
    }

    /// The operand before `k`: a bracketed group, or a chain of names (`self.monthly.price`).
    static func operand(_ tokens: [Token], before k: Int) -> ArraySlice<Token> {
        var i = k - 1
        var depth = 0
        while i >= 0 {
            let text = tokens[i].text
            if text == ")" || text == "]" { depth += 1 } else if text == "(" || text == "[" {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0, tokens[i].kind == .punctuation, text != "." { break }
            i -= 1
        }
        return tokens[(i + 1)..<k]
    }

    /// The operand after `k`.
    static func operand(_ tokens: [Token], after k: Int) -> ArraySlice<Token> {
        var i = k + 1
        var depth = 0
        while i < tokens.count {
            let text = tokens[i].text
            if text == "(" || text == "[" { depth += 1 } else if text == ")" || text == "]" {
                if depth == 0 { break }
                depth -= 1
                if depth == 0 { i += 1; break }
            } else if depth == 0, tokens[i].kind == .punctuation, text != "." { break }
            i += 1
        }
        return tokens[(k + 1)..<min(i, tokens.count)]
    }

    /// A price converted into a local (`double monthly = product.price.doubleValue;`) matters
    /// only if a later use in the same body keeps it (see `keepsPrecision`).
    func valueKeepsPrecision(_ tokens: [Token], _ index: Int) -> Bool {
        let start = Self.statementStart(tokens, index)
        guard start + 2 < tokens.count, tokens[start].kind == .identifier, tokens[start + 1].kind == .identifier,
              tokens[start + 2].text == "=" else { return true }
        let name = tokens[start + 1].text
        var depth = 0
        var uses: [Int] = []
        var i = index + 1
        while i < tokens.count {
            if tokens[i].text == "{" { depth += 1 } else if tokens[i].text == "}" {
                depth -= 1
                if depth < 0 { break }
            } else if tokens[i].kind == .identifier, tokens[i].text == name, i >= 1, tokens[i - 1].text != "." {
                uses.append(i)
            }
            i += 1
        }
        return uses.isEmpty || uses.contains { keepsPrecision(tokens, $0) }
    }

    /// `@property … double price;`, or an instance variable in an `@interface`/`@implementation`
    /// block; not a local in a method.
    static func isStoredDeclaration(_ tokens: [Token], _ index: Int) -> Bool {
        var i = index - 1
        while i >= 0, ![";", "{", "}"].contains(tokens[i].text) {
            if tokens[i].text == "property", i >= 1, tokens[i - 1].text == "@" { return true }
            i -= 1
        }
        // The brace that opens the block holding the declaration.
        var depth = 0
        while i >= 0 {
            if tokens[i].text == "}" { depth += 1 } else if tokens[i].text == "{" {
                if depth == 0 { break }
                depth -= 1
            }
            i -= 1
        }
        guard i >= 0 else { return false }
        let line = tokens[i].line
        var j = i - 1
        while j >= 0, tokens[j].line >= line - 1 {
            if ["implementation", "interface"].contains(tokens[j].text), j >= 1, tokens[j - 1].text == "@" { return true }
            if ["-", "+", ")", ";"].contains(tokens[j].text) && tokens[j].line == line { return false }
            j -= 1
        }
        return false
    }

    /// A number written as a price: a decimal with one or two places, not zero.
    static func amount(_ text: String) -> String? {
        guard let dot = text.firstIndex(of: "."), text[text.index(after: dot)...].count <= 2,
              text.allSatisfy({ $0.isNumber || $0 == "." }), Decimal(string: text).map({ $0 != 0 }) == true else { return nil }
        return text
    }

    /// `[NSString stringWithFormat:@"%0.2lf", product.price.floatValue]`: a price through a float
    /// format, without currency or the product's locale; and a price built by hand from the
    /// locale's currency symbol. Reported at the format string.
    func formatFindings(_ tokens: [Token], _ roles: Roles, neverShippedFile: Bool) -> [Finding] {
        var found: [Finding] = []
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            guard tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text),
                  !neverShippedFile, !tokens[index].debugOnly, !roles.logged.contains(index) else { continue }
            let format = tokens[index].text
            let arguments = Self.arguments(tokens, after: index)
            let mentionsPrice = arguments.contains { $0.kind == .identifier && $0.text.lowercased().contains("price") && $0.text != "priceLocale" }
            if arguments.contains(where: { $0.text == "currencySymbol" || $0.text == "NSLocaleCurrencySymbol" }),
               arguments.contains(where: { $0.kind == .identifier && $0.text != "currencySymbol" && PricePattern.isMoneyExpression($0.text) }) {
                found.append(Finding(rule: LintRules.currencyFormatterLocale,
                                     message: "\(tokens[index - 2].text): builds a price from the currency symbol by hand; the symbol's side, spacing and digits differ per locale: use an NSNumberFormatter whose locale is the product's priceLocale",
                                     line: tokens[index].line, column: tokens[index].column))
                continue
            }
            guard Self.floatSpecifier.firstMatch(in: format, range: NSRange(format.startIndex..., in: format)) != nil, mentionsPrice else { continue }
            found.append(Finding(rule: LintRules.currencyFormatterLocale,
                                 message: "\(tokens[index - 2].text): @\"\(format)\" formats a price as a plain number, not in the product's currency and locale; use an NSNumberFormatter whose locale is the product's priceLocale",
                                 line: tokens[index].line, column: tokens[index].column))
        }
        return found
    }

    /// An `NSNumberFormatter` given a currency style in a function or method body that never
    /// sets a locale other than the device's (`priceLocale`, or a locale passed in by the caller).
    /// Reported at the statement that sets the style.
    func currencyFormatterFindings(_ tokens: [Token], neverShippedFile: Bool) -> [Finding] {
        guard !neverShippedFile, !Self.setsCurrencyFromValue(tokens) else { return [] }
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
                guard !Self.setsLocale(body) else { continue }
                for styleIndex in body.indices where body[styleIndex].kind == .identifier && !body[styleIndex].debugOnly
                    && (body[styleIndex].text == "NSNumberFormatterCurrencyStyle" || body[styleIndex].text == "NSNumberFormatterCurrencyISOCodeStyle") {
                    let start = Self.statementStart(tokens, styleIndex, from: bodyStart)
                    let first = tokens[start]
                    // `_formatter`, `self.formatter`, `[self.formatter setNumberStyle:…]`: the property's name.
                    var k = first.text == "[" ? start + 1 : start
                    if k + 2 < styleIndex, tokens[k].text == "self", tokens[k + 1].text == ".", tokens[k + 2].kind == .identifier { k += 2 }
                    let name = k < styleIndex && tokens[k].kind == .identifier ? tokens[k].text : "the formatter"
                    // An instance variable or property: its locale may be set in another method (before each use).
                    if name != "the formatter", (name.hasPrefix("_") || k > start + (first.text == "[" ? 1 : 0)),
                       Self.setsLocale(of: name, in: tokens) { continue }
                    found.append(Finding(rule: LintRules.currencyFormatterLocale,
                                         message: "'\(name)' formats currency but its locale is never set from the product's priceLocale in this method",
                                         line: first.line, column: first.column))
                }
            }
        }
        return found
    }

    /// Whether some formatter's currency is set from a value (`[f setCurrencyCode:price.currency]`,
    /// `f.currencyCode = code`): the file picks each amount's currency itself, as for a
    /// transaction's paid price, which has no price locale.
    static func setsCurrencyFromValue(_ tokens: [Token]) -> Bool {
        for k in tokens.indices where tokens[k].kind == .identifier && k + 2 < tokens.count {
            let from: Int
            if tokens[k].text == "setCurrencyCode", tokens[k + 1].text == ":" { from = k + 2 }
            else if tokens[k].text == "currencyCode", k >= 1, tokens[k - 1].text == ".", tokens[k + 1].text == "=" { from = k + 2 }
            else { continue }
            if tokens[from].kind != .string, tokens[from].text != "nil" { return true }
        }
        return false
    }

    /// Whether anywhere in the file the locale of the instance variable or property `name`
    /// (`_priceFormatter`, `self.priceFormatter`) is set to anything but the device's.
    static func setsLocale(of name: String, in tokens: [Token]) -> Bool {
        let bare = name.hasPrefix("_") ? String(name.dropFirst()) : name
        for k in tokens.indices where tokens[k].kind == .identifier && (tokens[k].text == bare || tokens[k].text == "_" + bare) {
            // `[_f setLocale:…]` or `_f.locale = …` / `self.f.locale = …`.
            guard k + 3 < tokens.count else { continue }
            let setter = tokens[k + 1].text == "setLocale" && tokens[k + 2].text == ":"
            let assignment = tokens[k + 1].text == "." && tokens[k + 2].text == "locale" && tokens[k + 3].text == "="
            guard setter || assignment else { continue }
            let from = setter ? k + 3 : k + 4
            guard from < tokens.count else { continue }
            if isProductLocale(tokens[from...]) { return true }
        }
        return false
    }

    /// Whether the value that starts a locale assignment (up to its `;` or `]`) is not the
    /// device's (`currentLocale`, `autoupdatingCurrentLocale`), one written out
    /// (`localeWithLocaleIdentifier:`), or nil.
    static func isProductLocale(_ tokens: ArraySlice<Token>) -> Bool {
        let value = tokens.prefix { $0.text != ";" && $0.text != "]" }.map(\.text).joined()
        return !value.contains("currentLocale") && !value.contains("autoupdatingCurrentLocale") && !value.contains("localeWithLocaleIdentifier")
            && value != "nil"
    }

    /// Whether a body sets a formatter's locale to anything but the device's: `priceLocale`, or
    /// `.locale = locale` / `setLocale:locale` with a locale the caller passed in.
    static func setsLocale(_ body: ArraySlice<Token>) -> Bool {
        if body.contains(where: { $0.kind == .identifier && $0.text == "priceLocale" }) { return true }
        let tokens = Array(body)
        for (k, token) in tokens.enumerated() {
            let isAssignment = token.text == "locale" && k + 1 < tokens.count && tokens[k + 1].text == "=" && k >= 1 && tokens[k - 1].text == "."
            let isSetter = token.text == "setLocale" && k + 1 < tokens.count && tokens[k + 1].text == ":"
            guard isAssignment || isSetter, k + 2 < tokens.count else { continue }
            if isProductLocale(tokens[(k + 2)...]) { return true }
        }
        return false
    }
}
