import Foundation
import Diagnostics
import Support
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
        // Shapes whose cost in swift-syntax is not linear (brackets that double the parser's
        // time, recursion that overflows the stack: see SwiftStructureScan) are not parsed.
        if let excess = SwiftStructureScan.excess(in: source) {
            return ([Finding(rule: UnparsedSourceRule.description, message: excess.message, line: excess.line, column: excess.column)], [])
        }
        // The same limit in debug and release builds (swift-syntax lowers its default in debug
        // builds), so that both lint alike; the large stack below holds it.
        var text = source
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: Self.parserNestingLimit) }
        // One walk: the facts of the file and the nodes the rules check; the checks run after it.
        let facts = SwiftFileFacts(source: source)
        let visitor = SwiftLintVisitor(context: context, path: path, tree: tree, source: source, facts: facts,
                                       neverShippedFile: LintScope.isNeverShippedFile(path, includeTests: includeTests))
        visitor.walk(tree)
        facts.gatherProductNames(in: tree)
        visitor.finish()
        if let stop = Self.firstOverflow(in: tree) {
            // Valid code whose closures, calls and interpolations nest past what swift-syntax
            // parses: not a defect of the code, so an info, not a string "that never ends".
            let location = visitor.converter.location(for: stop)
            visitor.findings.append(Finding(
                rule: UnparsedSourceRule.description,
                message: "the code nests deeper here than iap's Swift parser follows (closures, calls and interpolations inside each other): the rest of the file is not linted",
                line: location.line, column: location.column, severity: .info))
        } else if let stop = Self.firstError(in: tree) {
            let location = visitor.converter.location(for: stop.position)
            visitor.findings.append(Finding(
                rule: UnparsedSourceRule.description, message: "\(stop.what) that never ends: findings after this point may be missed",
                line: location.line, column: location.column))
        }
        var comments = source.utf8.containsASCII("iap:") ? Self.comments(in: tree, converter: visitor.converter) : []
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

/// What a whole Swift file says, which some rules need before they decide: whether it deals
/// with StoreKit products, and which formatters get a locale somewhere in it. Gathered in the
/// same walk as the nodes the rules check (`SwiftLintVisitor`), whose checks run once the walk
/// is done and every fact is known.
final class SwiftFileFacts {
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
    /// The file's bytes hold `price` in some case: without it no identifier says price, and
    /// `SwiftLintVisitor.mentionsPrice` reads no token.
    let mayMentionPrice: Bool
    /// The file's bytes hold one of `productNames`: without one, no token is one.
    let mayNameProducts: Bool
    /// What the file's bytes hold of the names some checks look for: a check for a name the
    /// bytes lack can find no token so named, and is not made.
    let mayNameCurrencySymbol: Bool
    let mayNameCurrencyCode: Bool
    let mayNameLocale: Bool
    let mayNameNumberStyle: Bool
    let mayNameSetLocale: Bool
    /// `Value`, which ends every member `checkConversionMember` reports (`doubleValue`, `intValue`).
    let mayNameValue: Bool

    /// Identifiers that say the file deals with StoreKit products.
    static let productNames: Set<String> = ["SKProduct", "priceLocale", "displayPrice", "priceFormatStyle", "SKProductsRequest"]

    init(source: String) {
        mayMentionPrice = source.utf8.containsASCIIIgnoringCase("price")
        // `SKProductsRequest` holds `SKProduct`.
        mayNameProducts = source.utf8.containsASCII("SKProduct") || source.utf8.containsASCII("priceLocale")
            || source.utf8.containsASCII("displayPrice") || source.utf8.containsASCII("priceFormatStyle")
        mayNameCurrencySymbol = source.utf8.containsASCII("currencySymbol")
        mayNameCurrencyCode = source.utf8.containsASCII("currencyCode")
        mayNameLocale = source.utf8.containsASCII("locale")
        mayNameNumberStyle = source.utf8.containsASCII("numberStyle")
        mayNameSetLocale = source.utf8.containsASCII("setLocale")
        mayNameValue = source.utf8.containsASCII("Value")
    }

    func gather(_ node: PatternBindingSyntax) {
        if mayMentionPrice, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value,
           SwiftLintVisitor.tokensMentionPrice(value) {
            priceNames.insert(name)
        }
    }

    func gather(_ node: ImportDeclSyntax) {
        if node.path.first?.name.text == "StoreKit" { sellsProducts = true }
    }

    /// The identifiers of `productNames`, in a pass over the tokens of a file whose bytes hold one.
    func gatherProductNames(in tree: SourceFileSyntax) {
        guard mayNameProducts, !sellsProducts else { return }
        for token in tree.tokens(viewMode: .sourceAccurate) {
            if case .identifier(let name) = token.tokenKind, Self.productNames.contains(name) {
                sellsProducts = true
                return
            }
        }
    }

    func gather(_ node: SequenceExprSyntax) {
        // `assignment` names `currencyCode` or `locale`.
        guard mayNameCurrencyCode || mayNameLocale else { return }
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
    }

    func gather(_ node: FunctionCallExprSyntax) {
        guard mayNameSetLocale else { return }
        // `formatter.setLocale(…)` is rare in Swift, but Objective-C habits survive.
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "setLocale",
           let base = member.base, let value = node.arguments.first?.expression, !Self.isDeviceLocale(value) {
            localizedNames.insert(SwiftLintVisitor.bareName(base.trimmedDescription))
        }
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
    /// The property, constant or function whose value the reported literal is (`mockPrice` for
    /// `var mockPrice: String { "¥28" }`): the finding is dropped when every use of that name in
    /// the linted files is logged (`HolderUses`).
    var holder: String? = nil
}

extension SwiftLinter {
    /// The stack files are linted on: swift-syntax and every walk of its tree recurse once per
    /// level of nesting. SwiftStructureScan's limits keep real use far below it (a few MB); it is
    /// the margin for a shape the scan does not know. Reserved, not touched: it costs address
    /// space, not memory.
    static let stackSize = 256 << 20
    /// swift-syntax's own limit in a release build.
    static let parserNestingLimit = 256

    /// `run()` on a thread of `stackSize`, whatever thread the caller is on (the main thread's
    /// stack is 8 MB, a secondary thread's may be 512 kB).
    /// Past `timeLimit` seconds the file is reported as not linted and the run goes on without it
    /// (the abandoned parse ends with the process): the backstop for a shape SwiftStructureScan
    /// misjudges. Real files take well under a second, even in a debug build. On a worker of
    /// `SourceLinter.run(files:)`, which has the stack already, the file is linted in place,
    /// without the time limit.
    func runOnLargeStack(timeLimit: Double = Self.parseTimeLimit) -> (findings: [Finding], comments: [SourceComment]) {
        // A worker of `SourceLinter.run(files:)` has the stack already: no thread of its own.
        if let size = Thread.current.threadDictionary[ResultSlots<Int>.stackSizeKey] as? Int, size >= Self.stackSize {
            return run()
        }
        let result = LargeStackResult()
        let done = DispatchSemaphore(value: 0)
        let linter = self
        let thread = Thread {
            result.value = linter.run()
            done.signal()
        }
        thread.stackSize = Self.stackSize
        thread.start()
        guard done.wait(timeout: .now() + timeLimit) == .success else {
            let seconds = timeLimit.rounded() == timeLimit ? String(Int(timeLimit)) : String(timeLimit)
            return ([Finding(rule: UnparsedSourceRule.description,
                             message: "swift-syntax took more than \(seconds) s to parse this file: not linted",
                             line: 1, column: 1)], [])
        }
        return result.value ?? ([], [])
    }

    /// Seconds a file may take to parse and lint.
    static let parseTimeLimit: Double = 20
}

/// The result a large-stack thread hands back: written once by it, read after it has signalled.
private final class LargeStackResult: @unchecked Sendable {
    var value: (findings: [Finding], comments: [SourceComment])?
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
