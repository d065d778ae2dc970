import Diagnostics
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
    /// Where statements, messages and blocks start and end, found once for the whole file.
    private let structure: ObjCStructure

    /// Test-support files (mocks, fixtures) are linted too (`--include-tests`).
    let includeTests: Bool

    init(source: String, context: LintContext, path: String = "Example.m", includeTests: Bool = false) {
        self.context = context
        self.path = path
        self.includeTests = includeTests
        tokenizer = ObjCTokenizer(source)
        let tokens = tokenizer.tokens
        let structure = ObjCStructure(tokens)
        let names = Self.priceNames(tokens, structure)
        priceNames = names
        self.structure = structure
    }

    static let formatSelectors: Set<String> = ["stringWithFormat", "initWithFormat", "localizedStringWithFormat", "appendFormat"]
    static let floatSpecifier = try! NSRegularExpression(pattern: #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|L)?[fFgGeE]"#)
    /// Numeric format specifiers: they stand for an amount.
    static let numberSpecifier = #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|h|q|z|L)?[dfgiuxXeE]"#
    /// Localization macros, and the position of their translator's comment.
    static let localizationMacros: [String: Int] = ["NSLocalizedString": 1, "NSLocalizedStringFromTable": 2,
                                                    "NSLocalizedStringFromTableInBundle": 3, "NSLocalizedStringWithDefaultValue": 4]

    /// Where each token sits: a translator's comment, localized copy, logged.
    struct Roles {
        var comment: TokenFlags
        var localized: TokenFlags
        var logged: TokenFlags
    }

    /// Tokens marked by ranges: each range added in O(1), the marks summed once.
    struct TokenFlags {
        private var marks: [Bool]

        /// Every token in one of `ranges` that `keep` takes.
        init(count: Int, ranges: [Range<Int>], keep: (Int) -> Bool) {
            var open = [Int32](repeating: 0, count: count + 1)
            for range in ranges where !range.isEmpty {
                open[range.lowerBound] += 1
                open[range.upperBound] -= 1
            }
            var marks = [Bool](repeating: false, count: count)
            var depth: Int32 = 0
            for i in 0..<count {
                depth += open[i]
                marks[i] = depth > 0 && keep(i)
            }
            self.marks = marks
        }

        func contains(_ index: Int) -> Bool { marks[index] }
    }

    /// What `keepsPrecision` and `valueKeepsPrecision` found, kept for the rest of the file: each
    /// statement is read once, and each name's uses once.
    struct PrecisionMemo {
        /// Which tokens name a price (`namesPrice`): made when a conversion is first checked.
        var pricey: TokenCount?
        var statements: [Int: Bool] = [:]
        /// Every name's uses (not after a `.`), found in one pass when first asked for.
        var positions: [String: [Int]]?
        /// Per name asked about: its uses, and how many of the first k keep precision.
        var uses: [String: (positions: [Int], keeping: [Int32])] = [:]
        var blocks: [Int: Bool] = [:]
    }

    func run() -> (findings: [Finding], comments: [SourceComment]) {
        let tokens = tokenizer.tokens
        let roles = Self.roles(tokens, structure)
        var memo = PrecisionMemo()
        // Receiver chains (`self.product.price`): where each name's chain starts, and which names say product.
        var chainStart = [Int](tokens.indices)
        for k in tokens.indices where k >= 2 && tokens[k - 1].text == "." && tokens[k - 2].kind == .identifier {
            chainStart[k] = chainStart[k - 2]
        }
        // Made when a conversion is first met: most files have none.
        var saysProduct: TokenCount?
        let hasFormatCalls = tokens.indices.dropFirst(2).contains {
            tokens[$0].kind == .string && tokens[$0 - 1].text == ":" && Self.formatSelectors.contains(tokens[$0 - 2].text)
        }
        let facts = hasFormatCalls ? ArgumentFacts(tokens) : nil
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
                var price = logged ? nil : PricePattern.firstMatch(in: priceText(tokens, index, facts))
                var title = !logged && !roles.localized.contains(index) && context.isTitle(token.text) && !Self.isKeyArgument(tokens, index)
                // `[[TestProduct alloc] initWithPrice:@"$1.99"]`: the literal describes a stand-in.
                if price != nil || title, Self.isStandInValue(tokens, index) || Self.definesReservedName(tokens, index) { (price, title) = (nil, false) }
                if let price {
                    found.append(Finding(rule: LintRules.hardcodedPrice, message: "the literal shows a price (\(Quote.bounded(price))); show the product's localized price",
                                         line: token.line, column: token.column))
                }
                if title {
                    found.append(Finding(rule: LintRules.hardcodedTitle, message: "\(Quote.bounded(token.text)) is a product's name or description from the catalog; show the product's localizedTitle",
                                         line: token.line, column: token.column))
                }
                if context.productConstants[token.text] != nil {
                    if isDefinition(tokens, index) { definitions.append(index) } else if let constant = context.productConstants[token.text] {
                        found.append(Finding(rule: LintRules.hardcodedProductID, message: "product ID \(Quote.bounded(token.text)) typed as a literal; use the generated constant (\(constant))",
                                             line: token.line, column: token.column))
                    }
                } else if !context.productConstants.isEmpty, ProductIDText.isIDLike(token.text), flow.productIDStrings.contains(index) {
                    let (message, severity) = context.unknownProductID(token.text)
                    found.append(Finding(rule: LintRules.unknownProductID, message: message, line: token.line, column: token.column, severity: severity))
                } else if !flow.namingStrings.contains(index), !roles.logged.contains(index), let near = context.misspelledID(token.text) {
                    found.append(Finding(rule: LintRules.unknownProductID, message: "\(Quote.bounded(token.text)) is not in the catalog; it looks like a typo of \(Quote.bounded(near))",
                                         line: token.line, column: token.column))
                }
            case .identifier where token.text == "floatValue" || token.text == "doubleValue" || SwiftLintVisitor.integerMembers.contains(token.text):
                // price.floatValue or [price floatValue]: report at the start of the receiver chain.
                var j = index - 1
                if j >= 0, tokens[j].text == "." { j -= 1 }
                guard shipped, j >= 0, tokens[j].kind == .identifier, tokens[j].text.lowercased().hasSuffix("price") else { continue }
                j = chainStart[j]
                if saysProduct == nil, !sellsProducts { saysProduct = TokenCount(tokens) { NameWords.contains(tokens[$0].text, "product") } }
                guard sellsProducts || saysProduct!.any(in: j..<(index + 1)),
                      keepsPrecision(tokens, index, &memo), valueKeepsPrecision(tokens, index, &memo) else { continue }
                let loss = SwiftLintVisitor.integerMembers.contains(token.text) ? "drops its cents (4.99 becomes 4)" : "loses cents"
                found.append(Finding(rule: LintRules.priceFloatConversion, message: "\(Quote.bounded(token.text)) on a price \(loss); format the NSDecimalNumber with the product's priceLocale",
                                     line: tokens[j].line, column: tokens[j].column))
            case .identifier where ["double", "float", "CGFloat", "Float64", "Float32"].contains(token.text):
                // `@property double price;` or an instance variable: a price kept where it cannot hold its cents.
                guard shipped, sellsProducts, index + 2 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].text == ";",
                      LintScope.namesPrice(tokens[index + 1].text), isStoredDeclaration(tokens, index, &memo) else { continue }
                let name = tokens[index + 1]
                found.append(Finding(rule: LintRules.priceFloatConversion, message: "\(Quote.bounded(name.text)) keeps a price as \(token.text), which cannot hold most cents exactly; keep the NSDecimalNumber (or the product) instead",
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
            let shown = definitions.prefix(3).map { "\(Quote.bounded(tokens[$0].text))" }.joined(separator: ", ") + (definitions.count > 3 ? ", …" : "")
            found.append(Finding(rule: LintRules.hardcodedProductID, message: "\(definitions.count) product IDs are defined here as string literals (\(shown)); generate them with `iap gen` so the compiler checks every use against the catalog",
                                 line: first.line, column: first.column))
        } else if let only = definitions.first, let constant = context.productConstants[tokens[only].text] {
            found.append(Finding(rule: LintRules.hardcodedProductID, message: "product ID \(Quote.bounded(tokens[only].text)) typed as a literal; use the generated constant (\(constant))",
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
            found.append(Finding(rule: LintRules.hardcodedPrice, message: "\(Quote.bounded(name.text)) holds a price written in code (\(tokens[only.value].text)); show the product's localized price",
                                 line: name.line, column: name.column))
        }
        found += formatFindings(tokens, roles, facts, neverShippedFile: neverShippedFile)
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
    func priceText(_ tokens: [Token], _ index: Int, _ facts: ArgumentFacts?) -> String {
        var text = tokens[index].text.replacingOccurrences(of: Self.numberSpecifier, with: String(PricePattern.placeholder), options: .regularExpression)
        if text.contains("%@"), index >= 2, tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text),
           let facts, facts.money.any(in: argumentRange(after: index)) {
            text = text.replacingOccurrences(of: "%@", with: String(PricePattern.placeholder))
        }
        return text
    }

    /// The tokens of a message's or call's arguments after `index`: up to the `]` or `)` that
    /// closes it, or the end of the statement.
    func argumentRange(after index: Int) -> Range<Int> {
        let end = structure.argumentsEnd(after: index)
        return min(index + 1, end)..<end
    }

    /// What the arguments of format calls are asked about, per token, so that asking about a
    /// range is O(1) however long it is (a format call nested 4,000 deep holds the others). Made
    /// only for a file with a format call (`formatSelectors`), each distinct name asked once.
    struct ArgumentFacts {
        /// A name that is money (`PricePattern.isMoneyExpression`).
        let money: TokenCount
        /// A name that says price, other than `priceLocale`.
        let mentionsPrice: TokenCount
        /// `currencySymbol` or `NSLocaleCurrencySymbol`.
        let currencySymbol: TokenCount
        /// A name that is money, other than `currencySymbol`.
        let moneyNotSymbol: TokenCount

        init(_ tokens: [Token]) {
            let isMoney = tokens.map { $0.kind == .identifier && NameWords.isMoney($0.text) }
            money = TokenCount(tokens) { isMoney[$0] }
            mentionsPrice = TokenCount(tokens) {
                tokens[$0].kind == .identifier && NameWords.contains(tokens[$0].text, "price") && tokens[$0].text != "priceLocale"
            }
            currencySymbol = TokenCount(tokens) { tokens[$0].text == "currencySymbol" || tokens[$0].text == "NSLocaleCurrencySymbol" }
            moneyNotSymbol = TokenCount(tokens) { isMoney[$0] && tokens[$0].text != "currencySymbol" }
        }
    }

    /// Marks translator's comments and localized copy (arguments of `NSLocalizedString` and
    /// friends) and logged strings (arguments of `NSLog`, `DDLog…`, `os_log`, `printf`). Each
    /// call's arguments are found by stepping over nested brackets, never into them, and marked
    /// as ranges: calls nested in calls cost their own tokens once.
    static func roles(_ tokens: [Token], _ structure: ObjCStructure) -> Roles {
        var comment: [Range<Int>] = [], localized: [Range<Int>] = [], logged: [Range<Int>] = []
        let depth = structure.allBrackets
        func isOpener(_ t: Token) -> Bool { t.kind == .punctuation && (t.text == "(" || t.text == "[" || t.text == "{") }
        for (index, token) in tokens.enumerated() where token.kind == .identifier && index + 1 < tokens.count && tokens[index + 1].text == "(" {
            let localization = localizationMacros[token.text]
            let logging = LintScope.loggingCalls.contains(token.text) || token.text.hasPrefix("DDLog") || token.text == "printf"
            guard localization != nil || logging else { continue }
            let open = index + 1
            let close = depth.closer(ofOpener: open)
            if logging { logged.append((open + 1)..<close) }
            guard let commentArgument = localization else { continue }
            // The arguments: split at the commas outside nested brackets.
            var argument = 0
            var argumentStart = open + 1
            var j = open + 1
            while j < close {
                if isOpener(tokens[j]) { j = min(depth.closer(ofOpener: j), close) + 1; continue }
                if tokens[j].kind == .punctuation, tokens[j].text == "," {
                    if argument == commentArgument { comment.append(argumentStart..<j) } else { localized.append(argumentStart..<j) }
                    argument += 1
                    argumentStart = j + 1
                }
                j += 1
            }
            if argument == commentArgument { comment.append(argumentStart..<close) } else { localized.append(argumentStart..<close) }
        }
        let count = tokens.count
        let isValue = { (i: Int) in tokens[i].kind == .string || tokens[i].kind == .number }
        return Roles(comment: TokenFlags(count: count, ranges: comment, keep: isValue),
                     localized: TokenFlags(count: count, ranges: localized, keep: isValue),
                     logged: TokenFlags(count: count, ranges: logged, keep: isValue))
    }

    /// The first token of the statement holding `index`: after the last `;`, `{` or `}` before it.
    func statementStart(_ index: Int, from floor: Int = 0) -> Int {
        structure.statementStart(index, from: floor)
    }

    /// `#define kProID @"…"`, or `NSString *const kProID = @"…";` outside any body.
    func isDefinition(_ tokens: [Token], _ index: Int) -> Bool {
        let token = tokens[index]
        if token.inDefine, index >= 1, tokens[index - 1].kind == .identifier, tokens[index - 1].line == token.line { return true }
        guard index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .identifier else { return false }
        return structure.braceLevel(at: index) == 0
    }

    /// Whether a price converted at `index` keeps mattering: not compared, divided by another
    /// price (a ratio), or logged. The statement is the tokens between the `;`, `{` or `}` before
    /// `index` and the one after it, read once however many conversions it holds.
    func keepsPrecision(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        if let known = memo.statements[start] { return known }
        let end = min(structure.stop(from: index), tokens.count - 1)
        if memo.pricey == nil {
            memo.pricey = TokenCount(tokens) { i in
                tokens[i].kind == .identifier && (NameWords.contains(tokens[i].text, "price") || priceNames.contains(tokens[i].text))
            }
        }
        let keeps = statementKeepsPrecision(tokens, start, end, memo.pricey!)
        memo.statements[start] = keeps
        return keeps
    }

    private func statementKeepsPrecision(_ tokens: [Token], _ start: Int, _ end: Int, _ pricey: TokenCount) -> Bool {
        guard start <= end else { return true }
        let statement = start...end
        if statement.contains(where: { tokens[$0].kind == .identifier && (LintScope.loggingCalls.contains(tokens[$0].text) || tokens[$0].text.hasPrefix("DDLog")) }) {
            return false
        }
        for k in statement where tokens[k].kind == .punctuation {
            let text = tokens[k].text
            let next = k + 1 <= end ? tokens[k + 1].text : ""
            if text == "/", pricey.any(in: operand(tokens, before: k, from: start)),
               pricey.any(in: operand(tokens, after: k, through: end)) { return false }
            if (text == "=" || text == "!") && next == "=" { return false }
            if (text == "<" || text == ">") && !isGeneric(tokens, k, start, end) { return false }
        }
        // `double discountPercent = …`: a ratio, whatever its operators.
        if let equals = statement.first(where: { tokens[$0].text == "=" }), equals > start, tokens[equals - 1].kind == .identifier,
           !LintScope.ratioWords.isDisjoint(with: LintScope.words(tokens[equals - 1].text)) { return false }
        return true
    }

    /// `<` of `NSArray<NSString *>`, not a comparison.
    private func isGeneric(_ tokens: [Token], _ k: Int, _ start: Int, _ end: Int) -> Bool {
        tokens[k].text == "<" && k + 1 <= end && tokens[k + 1].text.first?.isUppercase == true && k > start
            && tokens[k - 1].text.first?.isUppercase == true
    }

    /// `TYPE NAME = … price … ;` declarations: an identifier that says price before the end of
    /// the statement (`;`, `{` or `}`).
    static func priceNames(_ tokens: [Token], _ structure: ObjCStructure) -> Set<String> {
        var nextPriceWord = [Int](repeating: tokens.count, count: tokens.count + 1)
        for j in stride(from: tokens.count - 1, through: 0, by: -1) {
            nextPriceWord[j] = tokens[j].kind == .identifier && NameWords.contains(tokens[j].text, "price") ? j : nextPriceWord[j + 1]
        }
        var names = Set<String>()
        for i in tokens.indices.dropFirst() where tokens[i].text == "=" && tokens[i - 1].kind == .identifier {
            // An assignment, not the `==` of a comparison.
            guard i + 1 < tokens.count, tokens[i + 1].text != "=" else { continue }
            if nextPriceWord[i + 1] < structure.stop(from: i + 1) { names.insert(tokens[i - 1].text) }
        }
        return names
    }

    /// The operand before `k`, not before `from`: a bracketed group, or a chain of names
    /// (`self.monthly.price`); a group is stepped over by its matching bracket.
    func operand(_ tokens: [Token], before k: Int, from: Int) -> Range<Int> {
        var i = k - 1
        while i >= from {
            let text = tokens[i].text
            if tokens[i].kind == .punctuation, text == ")" || text == "]" {
                i = structure.brackets.opener(ofCloser: i) - 1
                continue
            }
            if tokens[i].kind == .punctuation, text == "(" || text == "[" { break }
            if tokens[i].kind == .punctuation, text != "." { break }
            i -= 1
        }
        return max(i + 1, from)..<k
    }

    /// The operand after `k`, not past `through`: a chain of names, and at most one group.
    func operand(_ tokens: [Token], after k: Int, through: Int) -> Range<Int> {
        var i = k + 1
        while i <= through {
            let text = tokens[i].text
            if tokens[i].kind == .punctuation, text == "(" || text == "[" {
                i = structure.brackets.closer(ofOpener: i) + 1
                break
            }
            if tokens[i].kind == .punctuation, text == ")" || text == "]" { break }
            if tokens[i].kind == .punctuation, text != "." { break }
            i += 1
        }
        return (k + 1)..<min(i, through + 1)
    }

    /// A price converted into a local (`double monthly = product.price.doubleValue;`) matters
    /// only if a later use in the same body keeps it (see `keepsPrecision`).
    func valueKeepsPrecision(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        guard start + 2 < tokens.count, tokens[start].kind == .identifier, tokens[start + 1].kind == .identifier,
              tokens[start + 2].text == "=" else { return true }
        let name = tokens[start + 1].text
        // The uses after `index` in its body: up to the `}` that closes the block holding it.
        let bodyEnd = structure.braces.closer(enclosing: min(index + 1, tokens.count))
        if memo.uses[name] == nil {
            if memo.positions == nil {
                var all: [String: [Int]] = [:]
                for i in tokens.indices where tokens[i].kind == .identifier && (i == 0 || tokens[i - 1].text != ".") {
                    all[tokens[i].text, default: []].append(i)
                }
                memo.positions = all
            }
            let positions = memo.positions![name] ?? []
            var keeping = [Int32](repeating: 0, count: positions.count + 1)
            for (n, use) in positions.enumerated() { keeping[n + 1] = keeping[n] + (keepsPrecision(tokens, use, &memo) ? 1 : 0) }
            memo.uses[name] = (positions, keeping)
        }
        let (positions, keeping) = memo.uses[name]!
        let first = Self.lowerBound(positions, index + 1), last = Self.lowerBound(positions, bodyEnd)
        return first == last || keeping[last] > keeping[first]
    }

    /// The first index of `sorted` whose value is at least `value`.
    static func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// `@property … double price;`, or an instance variable in an `@interface`/`@implementation`
    /// block; not a local in a method.
    func isStoredDeclaration(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        for i in stride(from: index - 1, through: start, by: -1) where tokens[i].text == "property" && i >= 1 && tokens[i - 1].text == "@" {
            return true
        }
        // The brace that opens the block holding the declaration.
        let i = structure.braces.opener(enclosingThrough: start - 1)
        guard start >= 1, i >= 0 else { return false }
        if let known = memo.blocks[i] { return known }
        let line = tokens[i].line
        var stored = false
        var j = i - 1
        while j >= 0, tokens[j].line >= line - 1 {
            if ["implementation", "interface"].contains(tokens[j].text), j >= 1, tokens[j - 1].text == "@" { stored = true; break }
            if ["-", "+", ")", ";"].contains(tokens[j].text) && tokens[j].line == line { break }
            j -= 1
        }
        memo.blocks[i] = stored
        return stored
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
    func formatFindings(_ tokens: [Token], _ roles: Roles, _ facts: ArgumentFacts?, neverShippedFile: Bool) -> [Finding] {
        guard let facts else { return [] }
        var found: [Finding] = []
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            guard tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text),
                  !neverShippedFile, !tokens[index].debugOnly, !roles.logged.contains(index) else { continue }
            let format = tokens[index].text
            let range = argumentRange(after: index)
            if facts.currencySymbol.any(in: range), facts.moneyNotSymbol.any(in: range) {
                found.append(Finding(rule: LintRules.currencyFormatterLocale,
                                     message: "\(tokens[index - 2].text): builds a price from the currency symbol by hand; the symbol's side, spacing and digits differ per locale: use an NSNumberFormatter whose locale is the product's priceLocale",
                                     line: tokens[index].line, column: tokens[index].column))
                continue
            }
            guard facts.mentionsPrice.any(in: range),
                  Self.floatSpecifier.firstMatch(in: format, range: NSRange(format.startIndex..., in: format)) != nil else { continue }
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
        let localized = Self.namesWithLocaleSet(tokens)
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
                    let start = statementStart(styleIndex, from: bodyStart)
                    let first = tokens[start]
                    // `_formatter`, `self.formatter`, `[self.formatter setNumberStyle:…]`: the property's name.
                    var k = first.text == "[" ? start + 1 : start
                    if k + 2 < styleIndex, tokens[k].text == "self", tokens[k + 1].text == ".", tokens[k + 2].kind == .identifier { k += 2 }
                    let name = k < styleIndex && tokens[k].kind == .identifier ? tokens[k].text : "the formatter"
                    // An instance variable or property: its locale may be set in another method (before each use).
                    if name != "the formatter", (name.hasPrefix("_") || k > start + (first.text == "[" ? 1 : 0)),
                       localized.contains(name.hasPrefix("_") ? String(name.dropFirst()) : name) { continue }
                    found.append(Finding(rule: LintRules.currencyFormatterLocale,
                                         message: "\(Quote.bounded(name)) formats currency but its locale is never set from the product's priceLocale in this method",
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

    /// The names (without a leading `_`) of instance variables and properties whose locale is set
    /// somewhere in the file to anything but the device's (`[_f setLocale:…]`, `_f.locale = …`,
    /// `self.f.locale = …`), found in one pass: a name `n` is asked for as `n` or `_n`.
    static func namesWithLocaleSet(_ tokens: [Token]) -> Set<String> {
        var names = Set<String>()
        for k in tokens.indices where tokens[k].kind == .identifier && k + 3 < tokens.count {
            let setter = tokens[k + 1].text == "setLocale" && tokens[k + 2].text == ":"
            let assignment = tokens[k + 1].text == "." && tokens[k + 2].text == "locale" && tokens[k + 3].text == "="
            guard setter || assignment else { continue }
            let from = setter ? k + 3 : k + 4
            guard from < tokens.count, isProductLocale(tokens[from...]) else { continue }
            let text = tokens[k].text
            names.insert(text)
            if text.hasPrefix("_") { names.insert(String(text.dropFirst())) }
        }
        return names
    }

    /// Whether the value that starts a locale assignment (up to its `;` or `]`, and at most 64
    /// tokens: a locale is a few) is not the device's (`currentLocale`,
    /// `autoupdatingCurrentLocale`), one written out (`localeWithLocaleIdentifier:`), or nil.
    static func isProductLocale(_ tokens: ArraySlice<Token>) -> Bool {
        let value = tokens.prefix(64).prefix { $0.text != ";" && $0.text != "]" }.map(\.text).joined()
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
