import Foundation
import Diagnostics
import PriceFormatting
import SwiftSyntax

/// Prices through `Float`/`Double`, prices stored as `Double`, and prices written as numbers.
extension SwiftLintVisitor {
    /// `product.price.doubleValue`, `(price as NSDecimalNumber).floatValue`.
    func checkConversionMember(_ node: MemberAccessExprSyntax) {
        let member = node.declName.baseName.text
        // `.doubleValue` is NSNumber's: on a price, that is money (NSDecimalNumber), not a game's gold.
        let truncates = Self.integerMembers.contains(member)
        guard member == "floatValue" || member == "doubleValue" || truncates, let base = node.base, Self.mentionsPrice(base),
              keepsPrecision(node), valueKeepsPrecision(node) else { return }
        add(LintRules.priceFloatConversion, truncates
            ? "'.\(member)' on a price drops its cents (4.99 becomes 4); keep it Decimal and format it with the product's priceLocale"
            : "'.\(member)' on a price loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
    }

    /// NSNumber's integer values: on a price, they truncate it.
    static let integerMembers: Set<String> = ["intValue", "integerValue", "int32Value", "int64Value", "uintValue", "unsignedIntegerValue"]

    /// `.currency(code: "USD")`, `Decimal.FormatStyle.Currency(code: "EUR")`, `formatter.currencyCode = "USD"`:
    /// a currency written in code shows one storefront's currency to all of them.
    func checkHardcodedCurrencyCode(_ node: FunctionCallExprSyntax) {
        guard let callee = Self.calleeName(node), callee == "currency" || callee == "Currency",
              let code = node.arguments.first(where: { $0.label?.text == "code" })?.expression.as(StringLiteralExprSyntax.self),
              let text = plainText(code), text.count == 3, facts.sellsProducts, !neverShips(code), !isLogged(code) else { return }
        add(LintRules.currencyFormatterLocale,
            "the currency \(Quote.bounded(text)) is written in code: each storefront charges in its own; show product.displayPrice or format with product.priceFormatStyle",
            at: code)
    }

    func checkHardcodedCurrencyAssignment(_ node: SequenceExprSyntax) {
        let elements = Array(node.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
              elements[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text == "currencyCode",
              let code = elements[2].as(StringLiteralExprSyntax.self), let text = plainText(code), text.count == 3,
              facts.sellsProducts, !neverShips(code) else { return }
        add(LintRules.currencyFormatterLocale,
            "the currency \(Quote.bounded(text)) is written in code: each storefront charges in its own; set the formatter's locale to the product's priceLocale instead",
            at: code)
    }

    /// `Float(…price…)`, `Double(truncating: price)`, `CGFloat(price)`.
    func checkConversionCall(_ node: FunctionCallExprSyntax) {
        // `Double(truncating:)` takes an NSNumber: money. A plain `Float(price)` may be a game's
        // gold, so it counts only where products are sold.
        guard let callee = Self.calleeName(node), ["Float", "Double", "CGFloat", "Int", "Int32", "Int64", "UInt"].contains(callee),
              node.arguments.contains(where: { Self.mentionsPrice($0.expression)
                  && ($0.label?.text == "truncating" || sellsOrNamesProduct($0.expression)) }),
              keepsPrecision(node), valueKeepsPrecision(node) else { return }
        add(LintRules.priceFloatConversion, callee.hasPrefix("Int") || callee == "UInt"
            ? "converting a price to \(callee) drops its cents (4.99 becomes 4); keep it Decimal and format it with the product's priceLocale"
            : "converting a price to \(callee) loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
    }

    /// Whether an expression is a price: it names one, or a local that holds one.
    func namesMoney(_ expression: some SyntaxProtocol) -> Bool {
        Self.mentionsPrice(expression) || Self.mentions(expression, facts.priceNames)
    }

    /// A price of a product: the file sells products (it imports StoreKit, which Swift needs for
    /// any StoreKit type), or the expression names a product. A game's `price` in gold is not money.
    func sellsOrNamesProduct(_ expression: some SyntaxProtocol) -> Bool {
        facts.sellsProducts || expression.tokens(viewMode: .sourceAccurate).contains { $0.text.lowercased().contains("product") }
    }

    /// Whether a price converted here is shown, summed, stored or returned, where lost cents
    /// matter; not when it is compared, ordered, divided by another price (a ratio), or logged.
    func keepsPrecision(_ node: some SyntaxProtocol) -> Bool {
        if neverShips(node) { return false }
        var current = Syntax(node).parent
        while let syntax = current {
            if let sequence = syntax.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                for (k, element) in elements.enumerated() {
                    guard let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text else { continue }
                    if LintScope.comparisonOperators.contains(op) { return false }
                    if op == "/", k > 0, k + 1 < elements.count, namesMoney(elements[k - 1]), namesMoney(elements[k + 1]) {
                        return false
                    }
                }
            }
            if let call = syntax.as(FunctionCallExprSyntax.self) {
                if isLoggingCall(call) { return false }
                if let name = Self.calleeName(call), LintScope.orderingCalls.contains(name) { return false }
            }
            if let name = Self.declaredName(syntax) {
                if LintScope.namesLogging(name) { return false }
                // `let discountPercent = …`: a ratio, whatever its operators.
                if syntax.is(PatternBindingSyntax.self), !LintScope.ratioWords.isDisjoint(with: LintScope.words(name)) { return false }
            }
            // A statement ends the expression, unless it is a closure's (`sorted { … }`, `reduce`).
            if syntax.is(CodeBlockItemSyntax.self), syntax.parent?.parent?.is(ClosureExprSyntax.self) != true { return true }
            if syntax.is(MemberBlockItemSyntax.self) { return true }
            current = syntax.parent
        }
        return true
    }

    /// A price converted into a local (`let monthly = product.price.doubleValue`) matters only if
    /// some later use of that local keeps it: one that is only compared or divided by another
    /// price loses nothing anyone sees.
    func valueKeepsPrecision(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        var binding: PatternBindingSyntax?
        while let syntax = current, !syntax.is(CodeBlockItemSyntax.self) {
            if let b = syntax.as(PatternBindingSyntax.self) { binding = b; break }
            current = syntax.parent
        }
        guard let binding, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let item = binding.parent?.parent?.parent?.as(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return true }
        var uses: [DeclReferenceExprSyntax] = []
        var after = false
        for other in list {
            if other.id == item.id { after = true; continue }
            guard after else { continue }
            for token in other.tokens(viewMode: .sourceAccurate) where token.text == name {
                if let reference = token.parent?.as(DeclReferenceExprSyntax.self) { uses.append(reference) }
            }
        }
        return uses.isEmpty || uses.contains { keepsPrecision($0) }
    }

    /// `case localizedPrice(price: Double)`, `let price: Double` in a model type: a price kept
    /// where it cannot hold its cents.
    func checkStoredPrice(name: String, type: TypeSyntax?, in node: some SyntaxProtocol) {
        guard let type, facts.sellsProducts, LintScope.namesPrice(name) else { return }
        let bare = type.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "?! "))
        guard ["Double", "Float", "CGFloat", "Float32", "Float64"].contains(bare) else { return }
        if let binding = node.as(PatternBindingSyntax.self) {
            // Stored properties of a type; computed ones convert, and that is reported where they do.
            guard binding.accessorBlock == nil,
                  binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.is(MemberBlockItemSyntax.self) == true else { return }
        }
        guard !neverShips(node) else { return }
        add(LintRules.priceFloatConversion, "\(Quote.bounded(name)) keeps a price as \(bare), which cannot hold most cents exactly; keep the Decimal (or the product) instead", at: node)
    }

    /// `static let price = 4.99`, `let kProAnnualPrice: Decimal = 6.99`: a price written in code.
    func checkPriceConstant(name: String, value: ExprSyntax, in binding: PatternBindingSyntax) {
        guard LintScope.namesPrice(name), let amount = Self.writtenAmount(value), amount != "0", !neverShips(binding), !isLogged(binding) else { return }
        add(LintRules.hardcodedPrice, "\(Quote.bounded(name)) holds a price written in code (\(amount)); show the product's displayPrice so every storefront sees its own", at: binding)
    }

    /// The amount of `4.99`, `Decimal(4.99)`, `Decimal(string: "4.99")`, `NSDecimalNumber(value: 4.99)`.
    static func writtenAmount(_ value: ExprSyntax) -> String? {
        if let unwrapped = value.as(ForceUnwrapExprSyntax.self) { return writtenAmount(unwrapped.expression) }
        if let float = value.as(FloatLiteralExprSyntax.self) { return trimmedAmount(float.literal.text) }
        guard let call = value.as(FunctionCallExprSyntax.self), let name = calleeName(call),
              ["Decimal", "NSDecimalNumber", "Double", "Float"].contains(name), call.arguments.count == 1,
              let argument = call.arguments.first?.expression else { return nil }
        if let float = argument.as(FloatLiteralExprSyntax.self) { return trimmedAmount(float.literal.text) }
        if let literal = argument.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
           let text = literal.segments.first?.as(StringSegmentSyntax.self)?.content.text, AmountText.parse(text) != nil, text.contains(".") {
            return trimmedAmount(text)
        }
        return nil
    }

    /// "0.0" → "0", "4.99" → "4.99"; nil for what is not a plain amount with at most two decimals.
    private static func trimmedAmount(_ text: String) -> String? {
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard let dot = digits.firstIndex(of: "."), digits[digits.index(after: dot)...].count <= 2,
              digits.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        var trimmed = digits
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed.isEmpty ? "0" : trimmed
    }
}
