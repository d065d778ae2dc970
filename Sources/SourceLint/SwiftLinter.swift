import Diagnostics
import SwiftParser
import SwiftSyntax

/// Lints Swift source parsed by swift-syntax (literals in comments are never tokens, so never fire).
struct SwiftLinter {
    let path: String
    let source: String
    let context: LintContext
    /// Test-support files (mocks, fixtures) are linted too (`--include-tests`).
    var includeTests = false

    /// The findings, and the `//` comments (for suppressions).
    func run() -> (findings: [Finding], comments: [SourceComment]) {
        // swift-syntax's parser takes time exponential in the nesting of square brackets (each
        // level doubles it: 22 levels take 1.6 s in a release build, 30 would take minutes), a
        // hang the fuzzer found. No real code nests that deep; such a file is not parsed.
        let (depth, line, column) = BracketDepth.deepest(in: source)
        if depth > Self.maxBracketDepth {
            return ([Finding(rule: LintRules.unparsedSource,
                             message: "square brackets nest \(depth) deep here, more than the \(Self.maxBracketDepth) iap parses "
                                + "(swift-syntax's time doubles with each level): not linted",
                             line: line, column: column)], [])
        }
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let facts = SwiftFileFacts(viewMode: .sourceAccurate)
        facts.walk(tree)
        let visitor = SwiftLintVisitor(context: context, converter: converter, facts: facts,
                                       neverShippedFile: LintScope.isNeverShippedFile(path, includeTests: includeTests))
        visitor.walk(tree)
        visitor.finish()
        if let stop = Self.firstOverflow(in: tree) {
            // Valid code whose closures, calls and interpolations nest past what swift-syntax
            // parses: not a defect of the code, so an info, not a string "that never ends".
            let location = converter.location(for: stop)
            visitor.findings.append(Finding(
                rule: LintRules.unparsedSource,
                message: "the code nests deeper here than iap's Swift parser follows (closures, calls and interpolations inside each other): the rest of the file is not linted",
                line: location.line, column: location.column, severity: .info))
        } else if let stop = Self.firstError(in: tree) {
            let location = converter.location(for: stop.position)
            visitor.findings.append(Finding(
                rule: LintRules.unparsedSource, message: "\(stop.what) that never ends: findings after this point may be missed",
                line: location.line, column: location.column))
        }
        var comments = source.utf8.containsASCII("iap:") ? Self.comments(in: tree, converter: converter) : []
        guard !visitor.findings.isEmpty || !comments.isEmpty else { return ([], comments) }
        // swift-syntax counts columns in UTF-8 bytes; editors and the rest of iap count characters.
        var columns = CharacterColumns(source: source)
        var findings = visitor.findings
        for i in findings.indices.sorted(by: { (findings[$0].line, findings[$0].column) < (findings[$1].line, findings[$1].column) }) {
            findings[i].column = columns.column(line: findings[i].line, utf8Column: findings[i].column)
        }
        for i in comments.indices { comments[i].column = columns.column(line: comments[i].line, utf8Column: comments[i].column) }
        return (findings, comments)
    }

    /// Where the first unterminated string or block comment starts: what makes the rest of a file
    /// unreliable to read. Other parse errors are left to the compiler: swift-syntax is stricter
    /// than older compilers in places (`@Flag (` with a space), and those files build.
    static func firstError(in tree: SourceFileSyntax) -> (position: AbsolutePosition, what: String)? {
        guard tree.hasError else { return nil }
        for token in tree.tokens(viewMode: .all) {
            if let diagnostic = token.tokenDiagnostic, diagnostic.severity == .error,
               [.unterminatedBlockComment].contains(diagnostic.kind) {
                var offset = token.position
                for piece in token.leadingTrivia {
                    if case .blockComment(let text) = piece, !text.hasSuffix("*/") { return (offset, "a /* comment") }
                    offset += piece.sourceLength
                }
                return (token.positionAfterSkippingLeadingTrivia, "a /* comment")
            }
            if token.presence == .missing, let literal = token.parent?.as(StringLiteralExprSyntax.self) {
                return (literal.positionAfterSkippingLeadingTrivia, "a string")
            }
        }
        return nil
    }

    /// Where the parser stopped because code nested past its limit: the first token it left
    /// unparsed. The flag is recursive; the unparsed tokens sit under the deepest node that has it.
    static func firstOverflow(in tree: SourceFileSyntax) -> AbsolutePosition? {
        var node = Syntax(tree)
        guard node.hasMaximumNestingLevelOverflow else { return nil }
        while let child = node.children(viewMode: .all).first(where: { $0.hasMaximumNestingLevelOverflow }) { node = child }
        return node.firstToken(viewMode: .all)?.positionAfterSkippingLeadingTrivia ?? node.position
    }

    /// Every `//` comment in the trivia, with its line and UTF-8 column (`run` turns columns into characters).
    static func comments(in tree: SourceFileSyntax, converter: SourceLocationConverter) -> [SourceComment] {
        var found: [SourceComment] = []
        for token in tree.tokens(viewMode: .sourceAccurate) {
            var offset = token.position
            for piece in token.leadingTrivia {
                if case .lineComment(let text) = piece { found.append(comment(text, at: offset, converter)) }
                offset += piece.sourceLength
            }
            offset = token.endPositionBeforeTrailingTrivia
            for piece in token.trailingTrivia {
                if case .lineComment(let text) = piece { found.append(comment(text, at: offset, converter)) }
                offset += piece.sourceLength
            }
        }
        return found
    }

    private static func comment(_ text: String, at position: AbsolutePosition, _ converter: SourceLocationConverter) -> SourceComment {
        let location = converter.location(for: position)
        return SourceComment(line: location.line, column: location.column, text: text.dropFirst(2)[...])
    }
}

/// What a whole Swift file says, gathered before its rules run: whether it deals with StoreKit
/// products, and which formatters get a locale somewhere in it.
final class SwiftFileFacts: SyntaxVisitor {
    /// `import StoreKit`, or a mention of a product's price, price locale or SKProduct.
    var sellsProducts = false
    /// Names (without `self.`) whose `.locale` is set to something other than the device's locale.
    var localizedNames = Set<String>()
    /// Some formatter's `currencyCode` is set from a value (`formatter.currencyCode = price.currency`):
    /// the file picks each amount's currency itself (a transaction's paid price has no price locale).
    var setsCurrencyFromValue = false
    /// Locals and properties that hold a price converted to a floating-point number
    /// (`let regular = monthly.price.doubleValue`): dividing two of them is a ratio.
    var priceNames = Set<String>()

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value,
           SwiftLintVisitor.mentionsPrice(value) {
            priceNames.insert(name)
        }
        return .visitChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.path.first?.name.text == "StoreKit" { sellsProducts = true }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if case .identifier(let name) = token.tokenKind,
           ["SKProduct", "priceLocale", "displayPrice", "priceFormatStyle", "SKProductsRequest"].contains(name) {
            sellsProducts = true
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (_, property, value) = SwiftLintVisitor.assignment(node), property == "currencyCode", !value.is(StringLiteralExprSyntax.self),
           !value.is(NilLiteralExprSyntax.self) {
            setsCurrencyFromValue = true
        }
        if let (target, property, value) = SwiftLintVisitor.assignment(node), property == "locale", !Self.isDeviceLocale(value) {
            localizedNames.insert(target)
            // `ProductCell.priceFormatter.locale = …` (a static formatter, set in a `didSet`): the
            // property is `priceFormatter` wherever it is set from.
            if let dot = target.lastIndex(of: "."), target.first?.isUppercase == true || target.hasPrefix("Self.") {
                localizedNames.insert(String(target[target.index(after: dot)...]))
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `formatter.setLocale(…)` is rare in Swift, but Objective-C habits survive.
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "setLocale",
           let base = member.base, let value = node.arguments.first?.expression, !Self.isDeviceLocale(value) {
            localizedNames.insert(SwiftLintVisitor.bareName(base.trimmedDescription))
        }
        return .visitChildren
    }

    /// The device's own locale, or one written out: a currency formatter left on it shows the
    /// wrong currency in 174 storefronts.
    static func isDeviceLocale(_ value: ExprSyntax) -> Bool {
        let text = value.trimmedDescription.replacingOccurrences(of: " ", with: "")
        if ["Locale.current", ".current", "Locale.autoupdatingCurrent", ".autoupdatingCurrent", "NSLocale.current",
            "NSLocale.autoupdatingCurrent", "Locale()", "nil"].contains(text) { return true }
        // Locale(identifier: "en_US"): one storefront's locale for all of them.
        if let call = value.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasSuffix("Locale"),
           call.arguments.count == 1, call.arguments.first?.expression.is(StringLiteralExprSyntax.self) == true {
            return true
        }
        return false
    }
}

/// A finding before it is given its file and severity.
struct Finding: Sendable {
    var rule: RuleDescription
    var message: String
    var line: Int
    var column: Int
    /// When the finding's context sets a severity other than its rule's.
    var severity: Severity? = nil
}

extension SwiftLinter {
    static let maxBracketDepth = 16
}

/// The deepest nesting of `[` in Swift code, outside comments and string literals but inside
/// their interpolations, and where it is reached (line, column in characters). One pass.
enum BracketDepth {
    private enum Context {
        case code(parens: Int)          // top level, or an interpolation `\(…)` counting its parens
        case string(multiline: Bool, hashes: Int)
    }

    static func deepest(in source: String) -> (depth: Int, line: Int, column: Int) {
        let bytes = Array(source.utf8)
        var contexts: [Context] = [.code(parens: 0)]
        var depth = 0, best = (0, 1, 1)
        var line = 1, column = 1
        var i = 0
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        func step(_ n: Int = 1) {
            for _ in 0..<n where i < bytes.count {
                if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
        }
        while i < bytes.count {
            let c = bytes[i]
            switch contexts[contexts.count - 1] {
            case .code(let parens):
                if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "/") {
                    while i < bytes.count && bytes[i] != 0x0A { step() }
                } else if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
                    var nesting = 0
                    repeat {
                        if at(i) == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") { nesting += 1; step(2) }
                        else if at(i) == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/") { nesting -= 1; step(2) }
                        else { step() }
                    } while nesting > 0 && i < bytes.count
                } else if c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") {
                    var hashes = 0
                    while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
                    guard at(i + hashes) == UInt8(ascii: "\"") else { step(max(hashes, 1)); continue }
                    let multiline = at(i + hashes + 1) == UInt8(ascii: "\"") && at(i + hashes + 2) == UInt8(ascii: "\"")
                    step(hashes + (multiline ? 3 : 1))
                    contexts.append(.string(multiline: multiline, hashes: hashes))
                } else if c == UInt8(ascii: "[") {
                    depth += 1
                    if depth > best.0 { best = (depth, line, column) }
                    step()
                } else if c == UInt8(ascii: "]") {
                    depth = max(depth - 1, 0)
                    step()
                } else if c == UInt8(ascii: "(") {
                    contexts[contexts.count - 1] = .code(parens: parens + 1)
                    step()
                } else if c == UInt8(ascii: ")") {
                    if parens == 0 && contexts.count > 1 { contexts.removeLast() }
                    else { contexts[contexts.count - 1] = .code(parens: max(parens - 1, 0)) }
                    step()
                } else {
                    step()
                }
            case .string(let multiline, let hashes):
                if c == UInt8(ascii: "\\") {
                    var k = 1
                    while k <= hashes && at(i + k) == UInt8(ascii: "#") { k += 1 }
                    if k == hashes + 1 && at(i + k) == UInt8(ascii: "(") {
                        step(k + 1)
                        contexts.append(.code(parens: 0))
                    } else {
                        step(k + 1)
                    }
                } else if c == UInt8(ascii: "\"") && (!multiline || (at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\""))) {
                    let quotes = multiline ? 3 : 1
                    var k = quotes
                    while k < quotes + hashes && at(i + k) == UInt8(ascii: "#") { k += 1 }
                    step(k)
                    if k == quotes + hashes { contexts.removeLast() }
                } else if c == 0x0A && !multiline {
                    contexts.removeLast()   // an unterminated string ends at the line's end
                    step()
                } else {
                    step()
                }
            }
        }
        return best
    }
}

/// Turns swift-syntax's UTF-8 columns into character columns. Positions asked for in file order
/// cost one pass over the text in all: each line's count carries on from the last position asked
/// (a 40 MB line with millions of findings is read once, not once per finding).
struct CharacterColumns {
    private let utf8: String.UTF8View
    private var lineStarts: [String.Index]
    private var lastLine = 0
    private var lastByte = 0
    private var lastIndex: String.Index
    private var lastCharacters = 0

    init(source: String) {
        utf8 = source.utf8
        var starts = [source.utf8.startIndex]
        var i = source.utf8.startIndex
        while let newline = source.utf8[i...].firstIndex(of: 0x0A) {
            i = source.utf8.index(after: newline)
            starts.append(i)
        }
        lineStarts = starts
        lastIndex = source.utf8.startIndex
    }

    mutating func column(line: Int, utf8Column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return utf8Column }
        let byte = max(utf8Column - 1, 0)
        if line != lastLine || byte < lastByte {
            lastLine = line
            lastByte = 0
            lastIndex = lineStarts[line - 1]
            lastCharacters = 0
        }
        let lineEnd = line < lineStarts.count ? lineStarts[line] : utf8.endIndex
        let target = utf8.index(lastIndex, offsetBy: byte - lastByte, limitedBy: lineEnd) ?? lineEnd
        lastCharacters += String(decoding: utf8[lastIndex..<target], as: UTF8.self).count
        lastByte = byte
        lastIndex = target
        return lastCharacters + 1
    }
}
