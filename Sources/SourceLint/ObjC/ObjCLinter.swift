import Diagnostics
import Foundation
import PriceFormatting

/// Lints Objective-C with `ObjCTokenizer`: the same rules as Swift, read from tokens in one pass
/// (`run`) that hands each token to the rules of `LintRules.objc` that read its kind
/// (`ObjCLintRule`), with the file's facts (`ObjCFile`); each rule's checks and messages are in its
/// own file (`Rules/<Family>/<Name>Rule.swift`). This type names no rule but the engine's own.
struct ObjCLinter {
    typealias Token = ObjCTokenizer.Token

    let context: LintContext
    let path: String
    let tokenizer: ObjCTokenizer
    /// Locals that hold a price (`double regular = monthly.price.doubleValue;`): dividing two of
    /// them is a ratio.
    let priceNames: Set<String>
    /// Locals bound to a price itself whatever their names (`NSDecimalNumber *amount =
    /// product.price;`), for `heldPrice`.
    let priceValues: [String: [PriceValue]]
    /// Where statements, messages and blocks start and end, found once for the whole file.
    let structure: ObjCStructure

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
        priceValues = Self.priceValues(tokens, structure)
    }

    static let formatSelectors: Set<String> = ["stringWithFormat", "initWithFormat", "localizedStringWithFormat", "appendFormat"]
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

    /// The `//` comments, for suppressions.
    var comments: [SourceComment] { tokenizer.comments }

    /// The Objective-C rules of `LintRules.objc` that read each kind of token, in the registry's order.
    static let stringRules = LintRules.objc.filter { $0.objcTokens.contains(.string) }
    static let identifierRules = LintRules.objc.filter { $0.objcTokens.contains(.identifier) }
    static let numberRules = LintRules.objc.filter { $0.objcTokens.contains(.number) }

    /// The findings, those `suppressions` turn off left out: each token of a kind a rule of
    /// `LintRules.objc` reads, handed to it in file order, then each rule's `finish`.
    func run(suppressions: Suppressions) -> FindingList {
        var file = ObjCFile(self)
        var found = FindingList(suppressions: suppressions)
        for index in file.tokens.indices {
            switch file.tokens[index].kind {
            case .string: for rule in Self.stringRules { rule.check(token: index, in: &file, into: &found) }
            case .identifier: for rule in Self.identifierRules { rule.check(token: index, in: &file, into: &found) }
            case .number: for rule in Self.numberRules { rule.check(token: index, in: &file, into: &found) }
            case .punctuation: break
            }
        }
        for rule in LintRules.objc { rule.finish(in: &file, into: &found) }
        if let stop = tokenizer.unterminated {
            found.append(Finding(rule: UnparsedSourceRule.description,
                                 message: "\(stop.what) that never ends: findings after this point may be missed",
                                 line: stop.line, column: stop.column))
        }
        return found
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
            let logging = isLoggingFunction(token.text)
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
}
