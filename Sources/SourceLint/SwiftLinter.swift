import PriceFormatting
import Diagnostics
import SwiftParser
import SwiftSyntax

/// Lints Swift source parsed by swift-syntax (literals in comments are never tokens, so never fire).
struct SwiftLinter {
    let path: String
    let source: String
    let context: LintContext

    func findings() -> [Finding] {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let visitor = Visitor(context: context, converter: converter)
        visitor.walk(tree)
        guard !visitor.findings.isEmpty else { return [] }
        // swift-syntax counts columns in UTF-8 bytes; editors and the rest of iap count characters.
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return visitor.findings.map { finding in
            var f = finding
            if finding.line >= 1, finding.line <= lines.count {
                let bytes = Array(lines[finding.line - 1].utf8.prefix(max(finding.column - 1, 0)))
                f.column = String(decoding: bytes, as: UTF8.self).count + 1
            }
            return f
        }
    }

    final class Visitor: SyntaxVisitor {
        let context: LintContext
        let converter: SourceLocationConverter
        var findings: [Finding] = []
        /// Variable name → string literals it was initialised with (for `products(for: ids)`).
        var literalsByName: [String: [StringLiteralExprSyntax]] = [:]
        /// Names bound from a `priceLocale` (`let locale = product.priceLocale`), in `let`/`var`
        /// declarations and `if let` conditions: assigning one to `.locale` counts as localized.
        var priceLocaleNames = Set<String>()
        /// Literals already reported as unknown product IDs (from call arguments).
        var reportedLiterals = Set<SyntaxIdentifier>()

        init(context: LintContext, converter: SourceLocationConverter) {
            self.context = context
            self.converter = converter
            super.init(viewMode: .sourceAccurate)
        }

        func add(_ rule: String, _ message: String, at node: some SyntaxProtocol) {
            let location = node.startLocation(converter: converter)
            findings.append(Finding(rule: rule, message: message, line: location.line, column: location.column))
        }

        // MARK: Literals

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value else { continue }
                literalsByName[name] = literals(in: value)
                if mentionsPriceLocale(value) { priceLocaleNames.insert(name) }
            }
            return .visitChildren
        }

        override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
            if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let value = node.initializer?.value, mentionsPriceLocale(value) {
                priceLocaleNames.insert(name)
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            // The called name, read from the tree: `Float`, `String`, `products` in `Product.products`.
            let callee: String
            if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
                callee = reference.baseName.text
            } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
                callee = member.declName.baseName.text
            } else {
                return .visitChildren
            }
            guard ["products", "SKProductsRequest", "Float", "Double", "CGFloat", "String"].contains(callee) else { return .visitChildren }
            let labels = node.arguments.map { $0.label?.text ?? "" }
            // Where product IDs go: Product.products(for:), SKProductsRequest(productIdentifiers:).
            if (callee == "products" && labels.first == "for") || (callee == "SKProductsRequest" && labels.first == "productIdentifiers"),
               let argument = node.arguments.first?.expression {
                var candidates = literals(in: argument)
                if let name = argument.as(DeclReferenceExprSyntax.self)?.baseName.text { candidates += literalsByName[name] ?? [] }
                for literal in candidates {
                    guard let text = plainText(literal), context.productConstants[text] == nil, !context.productConstants.isEmpty else { continue }
                    reportUnknown(text, at: literal)
                }
            }
            // Float(…price…), Double(truncating: price), CGFloat(price).
            if ["Float", "Double", "CGFloat"].contains(callee), node.arguments.contains(where: { mentionsPrice($0.expression.trimmedDescription) }) {
                add("price-float-conversion", "converting a price to \(callee) loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
            }
            // String(format: "%.2f", price)
            if callee == "String", labels.first == "format", node.arguments.count > 1,
               let format = node.arguments.first.flatMap({ $0.expression.as(StringLiteralExprSyntax.self) }).flatMap(plainText),
               format.contains("f"), format.contains("%"), node.arguments.dropFirst().contains(where: { mentionsPrice($0.expression.trimmedDescription) }) {
                add("currency-formatter-locale", "String(format: \"\(format)\") shows a price without currency or the product's locale; use product.displayPrice or a formatter with priceLocale", at: node)
            }
            return .visitChildren
        }

        override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
            var text = ""
            var interpolated = false
            var moneyInterpolation = false
            for segment in node.segments {
                if let plain = segment.as(StringSegmentSyntax.self) {
                    text += plain.content.text
                } else {
                    text.append(PricePattern.placeholder)
                    interpolated = true
                    if PricePattern.isMoneyExpression(segment.trimmedDescription) { moneyInterpolation = true }
                }
            }
            // "$\(n)" builds `$0`-style names in code generators: with "$", only a money value counts.
            if let price = PricePattern.firstMatch(in: text), !(price.contains("…") && price.contains("$") && !moneyInterpolation) {
                add("hardcoded-price", "the literal shows a price ('\(price)'); show the product's displayPrice so every storefront sees its own", at: node)
            }
            guard !interpolated else { return .skipChildren }
            if context.isTitle(text) {
                add("hardcoded-title", "'\(text)' is a product's name or description from the catalog; show the product's displayName or description", at: node)
            }
            if let constant = context.productConstants[text] {
                add("hardcoded-product-id", "product ID '\(text)' typed as a literal; use \(constant)", at: node)
            } else if let prefix = context.bundlePrefix, text.lowercased().hasPrefix(prefix), text.count > prefix.count,
                      !reportedLiterals.contains(node.id) {
                reportUnknown(text, at: node)
            }
            return .skipChildren
        }

        func reportUnknown(_ text: String, at literal: StringLiteralExprSyntax) {
            guard reportedLiterals.insert(literal.id).inserted else { return }
            let hint = context.nearestID(to: text).map { "; did you mean '\($0)'?" } ?? ""
            add("unknown-product-id", "'\(text)' looks like a product ID but is not in the catalog\(hint)", at: literal)
        }

        // MARK: Prices as Float/Double

        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            let member = node.declName.baseName.text
            if member == "floatValue" || member == "doubleValue", let base = node.base, mentionsPrice(base.trimmedDescription) {
                add("price-float-conversion", "'.\(member)' on a price loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
            }
            return .visitChildren
        }

        // MARK: Currency formatters

        override func visit(_ node: CodeBlockItemListSyntax) -> SyntaxVisitorContinueKind {
            var formatters: [(String, CodeBlockItemSyntax)] = []
            var localized = Set<String>()
            for item in node {
                guard let (name, property, value) = assignment(item.item) else { continue }
                if property == "numberStyle" {
                    let style = value.trimmedDescription
                    if style.hasSuffix(".currency") || style.hasSuffix(".currencyISOCode") { formatters.append((name, item)) }
                } else if property == "locale" {
                    let text = value.trimmedDescription
                    if text.contains("priceLocale") || priceLocaleNames.contains(text) { localized.insert(name) }
                }
            }
            for (name, item) in formatters where !localized.contains(name) {
                add("currency-formatter-locale", "'\(name)' formats currency but its locale is not set from the product's priceLocale in this scope", at: item)
            }
            return .visitChildren
        }

        /// `name.property = value` as (name, property, value), read from the tree without printing
        /// the statement (statements hold whole nested blocks).
        func assignment(_ item: CodeBlockItemSyntax.Item) -> (String, String, ExprSyntax)? {
            guard let sequence = item.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
            var elements = sequence.elements.makeIterator()
            guard let target = elements.next()?.as(MemberAccessExprSyntax.self), let base = target.base,
                  elements.next()?.is(AssignmentExprSyntax.self) == true, let value = elements.next() else { return nil }
            let property = target.declName.baseName.text
            guard property == "numberStyle" || property == "locale" else { return nil }
            let name = base.trimmedDescription
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
            return (name, property, value)
        }

        // MARK: Helpers

        func literals(in expression: ExprSyntax) -> [StringLiteralExprSyntax] {
            literalsIn(Syntax(expression))
        }

        func literalsIn(_ node: Syntax) -> [StringLiteralExprSyntax] {
            if let literal = node.as(StringLiteralExprSyntax.self) { return [literal] }
            return node.children(viewMode: .sourceAccurate).flatMap(literalsIn)
        }

        func plainText(_ literal: StringLiteralExprSyntax) -> String? {
            var text = ""
            for segment in literal.segments {
                guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
                text += plain.content.text
            }
            return text
        }

        /// Whether `priceLocale` is one of the expression's tokens (read without printing it).
        func mentionsPriceLocale(_ expression: ExprSyntax) -> Bool {
            expression.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier("priceLocale") }
        }

        func mentionsPrice(_ text: String) -> Bool {
            text.lowercased().contains("price")
        }
    }
}

/// A finding before it is given its file and severity.
struct Finding: Sendable {
    var rule: String
    var message: String
    var line: Int
    var column: Int
}
