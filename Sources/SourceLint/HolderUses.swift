import Foundation
import SwiftParser
import SwiftSyntax

/// Prices and product names held by a declaration that is only ever logged: `var mockPrice:
/// String { "¥28/月" }` whose every use is `print("月度: \(plan.mockPrice)")` is never shown to a
/// customer, any more than a literal handed to `print` itself. A `hardcoded-price` or
/// `hardcoded-title` finding on a literal names the property, constant or function that holds it
/// (`Finding.holder`); once every file is linted, the holders' uses are looked up by name in every
/// linted file, Swift and Objective-C alike, and a finding whose holder is used at least once and
/// only ever inside a logging call's arguments is dropped.
///
/// By name, so on the safe side: a use anywhere else (shown, passed on, assigned) keeps every
/// literal of every declaration of that name. A holder used nowhere keeps its findings, and so do
/// names the system reads without the app's code naming them (`description` in an interpolation,
/// `errorDescription`, a view's `body`) and declarations that override one or are seen from
/// Objective-C or Interface Builder.
enum HolderUses {
    /// Whether a name is used somewhere, and whether somewhere other than in a logging call.
    struct Use: Sendable, Equatable {
        var logged = false
        var shown = false

        mutating func merge(_ other: Use) {
            logged = logged || other.logged
            shown = shown || other.shown
        }
    }

    /// Names that frameworks read without the app's code naming them.
    static let readBySystem: Set<String> = ["description", "debugDescription", "errorDescription", "failureReason",
                                            "recoverySuggestion", "helpAnchor", "localizedDescription", "body", "rawValue",
                                            "accessibilityLabel", "accessibilityValue", "accessibilityHint", "title", "text",
                                            "localizedTitle", "localizedString"]

    /// The names among `held` that can be dropped: a name worth looking up.
    static func candidates(_ held: [HeldFinding]) -> Set<String> {
        Set(held.map(\.holder).filter { !readBySystem.contains($0) })
    }

    /// The uses of `names` in one file's text: nothing is parsed when the text never spells one.
    static func uses(of names: Set<String>, path: String, source: String) -> [String: Use] {
        let spelled = names.filter { containsWord(source, $0) }
        guard !spelled.isEmpty else { return [:] }
        if path.hasSuffix(".swift") { return swiftUses(of: spelled, in: source) }
        return objCUses(of: spelled, in: source)
    }

    /// Whether `word` occurs in `text` as a whole identifier (`price` not inside `priceLabel`).
    static func containsWord(_ text: String, _ word: String) -> Bool {
        let bytes = text.utf8
        var from = text.startIndex
        while let range = text.range(of: word, range: from..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : bytes[bytes.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : bytes[range.upperBound]
            if !isIdentifierByte(before), !isIdentifierByte(after) { return true }
            from = range.upperBound
        }
        return false
    }

    static func isIdentifierByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
    }

    /// The held findings dropped because every use of their holder is logged.
    static func loggedOnly(_ held: [HeldFinding], uses: [String: Use]) -> Set<HeldFinding> {
        Set(held.filter { uses[$0.holder] == Use(logged: true, shown: false) })
    }

    static func swiftUses(of names: Set<String>, in source: String) -> [String: Use] {
        // Shapes swift-syntax cannot parse in bounded time are left alone: their names count as shown.
        if SwiftStructureScan.excess(in: source) != nil { return Dictionary(uniqueKeysWithValues: names.map { ($0, Use(shown: true)) }) }
        var text = source
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: SwiftLinter.parserNestingLimit) }
        let visitor = SwiftUseVisitor(names: names)
        visitor.walk(tree)
        return visitor.uses
    }

    final class SwiftUseVisitor: SyntaxVisitor {
        let names: Set<String>
        var uses: [String: Use] = [:]

        init(names: Set<String>) {
            self.names = names
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            let name = node.baseName.text
            guard names.contains(name) else { return .visitChildren }
            var current = node.parent
            var logged = false
            while let syntax = current {
                if let call = syntax.as(FunctionCallExprSyntax.self), SwiftLintVisitor.isLoggingCall(call) { logged = true; break }
                if syntax.is(CodeBlockItemSyntax.self) || syntax.is(MemberBlockItemSyntax.self) { break }
                current = syntax.parent
            }
            uses[name, default: Use()].merge(logged ? Use(logged: true) : Use(shown: true))
            return .visitChildren
        }
    }

    static func objCUses(of names: Set<String>, in source: String) -> [String: Use] {
        let tokens = ObjCTokenizer(source).tokens
        let structure = ObjCStructure(tokens)
        var loggedMarks = [Int32](repeating: 0, count: tokens.count + 1)
        for range in ObjCLinter.loggingRanges(tokens, structure) {
            loggedMarks[range.lowerBound] += 1
            loggedMarks[range.upperBound] -= 1
        }
        var uses: [String: Use] = [:]
        var depth: Int32 = 0
        for (k, token) in tokens.enumerated() {
            depth += loggedMarks[k]
            guard token.kind == .identifier, names.contains(token.text), !ObjCLinter.declares(tokens, structure, k) else { continue }
            uses[token.text, default: Use()].merge(depth > 0 ? Use(logged: true) : Use(shown: true))
        }
        return uses
    }
}

extension SwiftLintVisitor {
    /// The declaration whose value a literal is, by name: a property, constant or variable it
    /// initializes (`static let proPrice = "$4.99"`) or a computed property or function that
    /// returns it, through `return`, `switch` and `if` branches and a ternary's arms. Nil when the
    /// literal is used on its way (an argument, an operand), or the declaration is one the system
    /// or Objective-C may read without a use in the code (`override`, `@objc`, `@IBInspectable`,
    /// `dynamic`).
    func holderName(_ node: StringLiteralExprSyntax) -> String? {
        var current = Syntax(node)
        for _ in 0..<64 {
            guard let parent = current.parent else { return nil }
            if let binding = parent.as(PatternBindingSyntax.self) {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
                      !Self.seenFromOutside(declaration.modifiers, declaration.attributes) else { return nil }
                return name
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                return Self.seenFromOutside(function.modifiers, function.attributes) ? nil : function.name.text
            }
            if let elements = parent.as(ExprListSyntax.self) {
                // Only a ternary's arms (`isPro ? "Pro" : "$4.99"`): the middle one, or the last
                // one right after it; never an operand (`"$" + amount`).
                let list = Array(elements)
                guard current.is(UnresolvedTernaryExprSyntax.self)
                        || (list.last?.id == current.id && list.count >= 2 && list[list.count - 2].is(UnresolvedTernaryExprSyntax.self)) else { return nil }
            } else if !(parent.is(ReturnStmtSyntax.self) || parent.is(CodeBlockItemSyntax.self) || parent.is(CodeBlockItemListSyntax.self)
                        || parent.is(CodeBlockSyntax.self) || parent.is(SwitchCaseSyntax.self) || parent.is(SwitchCaseListSyntax.self)
                        || parent.is(SwitchExprSyntax.self) || parent.is(IfExprSyntax.self) || parent.is(ExpressionStmtSyntax.self)
                        || parent.is(InitializerClauseSyntax.self) || parent.is(AccessorBlockSyntax.self) || parent.is(AccessorDeclSyntax.self)
                        || parent.is(AccessorDeclListSyntax.self) || parent.is(UnresolvedTernaryExprSyntax.self) || parent.is(SequenceExprSyntax.self)) {
                return nil
            }
            current = parent
        }
        return nil
    }

    static func seenFromOutside(_ modifiers: DeclModifierListSyntax, _ attributes: AttributeListSyntax) -> Bool {
        modifiers.contains { ["override", "dynamic"].contains($0.name.text) }
            || attributes.contains { attribute in
                guard let name = attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
                return name.hasPrefix("objc") || name.hasPrefix("IB") || name == "NSManaged"
            }
    }
}

extension ObjCLinter {
    /// The arguments of logging calls (`NSLog(…)`, `DDLog…(…)`, `os_log(…)`, `printf(…)`): each
    /// call's range of tokens, found by its brackets.
    static func loggingRanges(_ tokens: [Token], _ structure: ObjCStructure) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, token) in tokens.enumerated() where token.kind == .identifier && index + 1 < tokens.count && tokens[index + 1].text == "(" {
            guard isLoggingFunction(token.text) else { continue }
            ranges.append((index + 2)..<structure.allBrackets.closer(ofOpener: index + 1))
        }
        return ranges
    }

    static func isLoggingFunction(_ name: String) -> Bool {
        LintScope.loggingCalls.contains(name) || name.hasPrefix("DDLog") || name == "printf"
    }

    /// Whether the identifier at `index` is declared there rather than used: a method's name in
    /// its signature (`- (NSString *)mockPrice {`), a property's (`@property … *mockPrice;`), a
    /// constant's or variable's (`NSString *const kPrice = …`, `extern NSString *const kPrice;`).
    static func declares(_ tokens: [Token], _ structure: ObjCStructure, _ index: Int) -> Bool {
        let start = structure.statementStart(index)
        if start < tokens.count, ["-", "+", "@"].contains(tokens[start].text),
           tokens[start..<index].contains(where: { $0.text == "-" || $0.text == "+" || $0.text == "property" }) { return true }
        guard index >= 2 else { return false }
        // `NSString *mockPrice`, `NSString *const kPrice`: a type's name before the star, not `a * b`.
        if tokens[index - 1].text == "const" { return true }
        return tokens[index - 1].text == "*" && (tokens[index - 2].text.first?.isUppercase == true || tokens[index - 2].text == "const")
    }

    /// The declaration whose value the string at `index` is, by name: a constant or variable it
    /// initializes (`static NSString *const kPrice = @"$0.99";`), or a method without arguments that
    /// returns it (`- (NSString *)mockPrice { return @"¥28"; }`, through `if` and `switch` blocks).
    func holderName(_ tokens: [Token], _ index: Int) -> String? {
        if index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .identifier,
           index + 1 < tokens.count, tokens[index + 1].text == ";", Self.declares(tokens, structure, index - 2) {
            return tokens[index - 2].text
        }
        guard index >= 1, tokens[index - 1].text == "return" else { return nil }
        var inner = index
        for _ in 0..<8 {
            let open = structure.braces.opener(enclosingThrough: inner)
            guard open >= 1, open < index, tokens[open].text == "{" else { return nil }
            let before = tokens[open - 1]
            if before.kind == .identifier, open >= 2, tokens[open - 2].text == ")" {
                // `- (NSString *)mockPrice {`: a method whose signature takes nothing.
                // The signature starts at a `-` or `+` that begins its line (after `@implementation`,
                // which ends no statement).
                let floor = structure.statementStart(open - 1)
                guard let start = (floor..<(open - 1)).last(where: { k in
                    (tokens[k].text == "-" || tokens[k].text == "+") && (k == 0 || tokens[k - 1].line != tokens[k].line)
                }), !tokens[start..<open].contains(where: { $0.text == ":" }) else { return nil }
                return before.text
            }
            // The block of an `if`, `else`, `switch` or `case` inside the method: go out one more.
            guard before.text == ")" || before.text == "else" || before.text == ":" else { return nil }
            inner = open - 1
        }
        return nil
    }
}
