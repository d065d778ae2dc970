import Diagnostics
import Foundation
import PriceFormatting
import SwiftSyntax

/// `currency-formatter-locale`. Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
public enum CurrencyFormatterLocaleRule: Rule {
    public static let description = RuleDescription(
        id: "currency-formatter-locale", name: "Currency formatter without the product's locale", severity: .warning,
        rationale: "A currency NumberFormatter left on the device's locale, a currency code written in code (.currency(code: \"USD\")), a price through String(format:) or one built from currencySymbol shows the wrong currency or format; set the formatter's locale to the product's priceLocale. Only in files that sell products, and not in a function that takes only binary numbers (a Double is never a StoreKit price): an app's own amounts belong in the device's locale.",
        triggering: [.init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    ↓formatter.numberStyle = .currency\n    _ = formatter.string(from: price)\n}"),
                     .init("import StoreKit\nfunc label(_ product: Product) -> String {\n    product.price.formatted(.currency(code: ↓\"USD\"))\n}"),
                     .init("import StoreKit\nfunc show(_ formatter: NumberFormatter) {\n    formatter.currencyCode = ↓\"USD\"\n}"),
                     .init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    ↓formatter.numberStyle = .currency\n    formatter.locale = Locale(identifier: \"en_US\")\n}"),
                     .init(#"let text = ↓String(format: "%.2f", product.price.doubleValue)"#),
                     .init(#"let text = ↓"\(product.priceLocale.currencySymbol ?? "$")\(product.price)""#),
                     .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    ↓f.numberStyle = NSNumberFormatterCurrencyStyle;\n}", .objc),
                     .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    ↓[formatter setNumberStyle:NSNumberFormatterCurrencyStyle];\n}", .objc),
                     .init(#"NSString *s = [NSString stringWithFormat:↓@"%0.2lf", product.price.floatValue];"#, .objc),
                     .init(#"NSString *s = [NSString stringWithFormat:↓@"%@%@", locale.currencySymbol, price];"#, .objc)],
        nonTriggering: [.init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n    formatter.locale = product.priceLocale\n}"),
                        .init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .decimal\n}"),
                        .init("func budget() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n}"),
                        .init("import StoreKit\nfinal class Store {\n    lazy var formatter: NumberFormatter = {\n        let f = NumberFormatter()\n        f.numberStyle = .currency\n        return f\n    }()\n    func show(_ product: SKProduct) {\n        formatter.locale = product.priceLocale\n    }\n}"),
                        .init("import StoreKit\nfunc format(_ price: Decimal, locale: Locale) -> String? {\n    let f = NumberFormatter()\n    f.numberStyle = .currency\n    f.locale = locale\n    return f.string(for: price)\n}"),
                        .init("import StoreKit\nfunc paid(_ transaction: Transaction, _ f: NumberFormatter) -> String? {\n    f.numberStyle = .currency\n    f.currencyCode = transaction.currency?.identifier\n    return f.string(for: transaction.price)\n}"),
                        .init("import StoreKit\nfunc currencyString(_ value: Double) -> String {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n    formatter.locale = .current\n    return formatter.string(from: NSNumber(value: value)) ?? \"\"\n}"),
                        .init("#import <StoreKit/StoreKit.h>\n- (NSString *)spend:(double)value {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    return [f stringFromNumber:@(value)];\n}", .objc),
                        .init("import StoreKit\nfunc currencyFormatter() -> NumberFormatter {\n    let f = NumberFormatter()\n    f.numberStyle = .currency\n    return f\n}"),
                        .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    f.locale = product.priceLocale;\n}", .objc),
                        .init("#import <StoreKit/StoreKit.h>\n- (NSString *)format:(NSDecimalNumber *)price locale:(NSLocale *)locale {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    f.locale = locale;\n    return [f stringFromNumber:price];\n}", .objc),
                        .init(#"NSString *s = [NSString stringWithFormat:@"%d coins", product.coinCount];"#, .objc),
                        .init("import StoreKit\nfunc pay(_ product: Product) {\n    let request = PKPaymentRequest()\n    request.currencyCode = \"CNY\"\n}"),
                        .init("import StoreKit\nfunc f() {\n    if let locale = product?.priceLocale {\n        let f = NumberFormatter()\n        f.numberStyle = .currency\n        f.locale = locale\n    }\n}")])
}

extension CurrencyFormatterLocaleRule {
    static let binaryNumberTypes: Set<String> = ["Double", "Float", "CGFloat", "Float32", "Float64", "Int", "Int32", "Int64", "UInt",
                                                 "double", "float", "int", "long", "NSInteger", "NSUInteger"]
    static let priceTypeWords = ["Decimal", "NSNumber", "Product", "Locale", "Transaction", "Price", "price"]

    /// Whether a function's parameter types (`Double`, `CGFloat?`) include a binary number and
    /// nothing that can carry a StoreKit price or its locale.
    static func takesOnlyOwnAmounts(_ types: [String]) -> Bool {
        let bare = types.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "?! *")) }
        return bare.contains(where: binaryNumberTypes.contains) && !bare.contains { type in priceTypeWords.contains { type.contains($0) } }
    }
}

extension SwiftLintVisitor {
    /// `formatter.numberStyle = .currency` in a file that sells products, on a formatter whose
    /// locale is never set from anything but the device's: not in this scope, not on the property
    /// the formatter is (`lazy var formatter = { … }()`, set elsewhere in the type), not by the
    /// caller of a helper that takes the locale as a parameter or returns the formatter.
    func checkCurrencyStyle(_ node: SequenceExprSyntax) {
        guard facts.sellsProducts, let (name, property, value) = Self.assignment(node), property == "numberStyle" else { return }
        let style = value.trimmedDescription
        guard [".currency", ".currencyISOCode", ".currencyAccounting", ".currencyPlural"].contains(where: { style.hasSuffix($0) }) else { return }
        if facts.localizedNames.contains(name) || facts.setsCurrencyFromValue || neverShips(node) || isLogged(node) { return }
        var current = node.parent
        while let syntax = current {
            // The property whose initializer closure configures the formatter.
            if let binding = syntax.as(PatternBindingSyntax.self), let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               facts.localizedNames.contains(property) { return }
            // A helper that hands the formatter back: its caller sets the locale.
            if let function = syntax.as(FunctionDeclSyntax.self),
               function.signature.returnClause?.type.trimmedDescription.contains("Formatter") == true { return }
            // `func currencyString(_ value: Double)`: the app's own amount; a StoreKit price is a
            // Decimal or an NSDecimalNumber, and turning one into a Double is price-float-conversion's.
            if let function = syntax.as(FunctionDeclSyntax.self),
               CurrencyFormatterLocaleRule.takesOnlyOwnAmounts(function.signature.parameterClause.parameters.map { $0.type.trimmedDescription }) { return }
            current = syntax.parent
        }
        add(CurrencyFormatterLocaleRule.description, "\(Quote.bounded(name)) formats currency but its locale is never set from the product's priceLocale", at: node)
    }

    /// `String(format: "%.2f", price)`: a price without its currency or the product's locale.
    func checkFormatCall(_ node: FunctionCallExprSyntax) {
        guard Self.calleeName(node) == "String", node.arguments.first?.label?.text == "format", node.arguments.count > 1,
              let format = node.arguments.first.flatMap({ $0.expression.as(StringLiteralExprSyntax.self) }).flatMap(plainText),
              format.contains("f"), format.contains("%"), node.arguments.dropFirst().contains(where: { mentionsPrice($0.expression) }),
              !neverShips(node), !isLogged(node) else { return }
        add(CurrencyFormatterLocaleRule.description, "String(format: \(Quote.bounded(format, open: "\"", close: "\""))) shows a price without currency or the product's locale; use product.displayPrice or a formatter with priceLocale", at: node)
    }

    /// `locale.currencySymbol + "\(price)"`: a price built by hand.
    func checkHandBuiltPrice(_ node: SequenceExprSyntax) {
        guard facts.mayNameCurrencySymbol, node.elements.contains(where: { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" }),
              node.elements.contains(where: { Self.mentions($0, ["currencySymbol"]) }),
              node.elements.contains(where: { !Self.mentions($0, ["currencySymbol"]) && PricePattern.isMoneyExpression($0.trimmedDescription) }),
              !neverShips(node), !isLogged(node) else { return }
        add(CurrencyFormatterLocaleRule.description, "the expression builds a price from currencySymbol by hand; the symbol's side, spacing and digits differ per locale: show product.displayPrice or format with the product's priceLocale", at: node)
    }

    /// `.currency(code: "USD")`, `Decimal.FormatStyle.Currency(code: "EUR")`, `formatter.currencyCode =
    /// "USD"`:
    /// a currency written in code shows one storefront's currency to all of them.
    func checkHardcodedCurrencyCode(_ node: FunctionCallExprSyntax) {
        guard let callee = Self.calleeName(node), callee == "currency" || callee == "Currency",
              let code = node.arguments.first(where: { $0.label?.text == "code" })?.expression.as(StringLiteralExprSyntax.self),
              let text = plainText(code), text.count == 3, facts.sellsProducts, !neverShips(code), !isLogged(code) else { return }
        add(CurrencyFormatterLocaleRule.description,
            "the currency \(Quote.bounded(text)) is written in code: each storefront charges in its own; show product.displayPrice or format with product.priceFormatStyle",
            at: code)
    }

    func checkHardcodedCurrencyAssignment(_ node: SequenceExprSyntax) {
        let elements = Array(node.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
              elements[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text == "currencyCode",
              let code = elements[2].as(StringLiteralExprSyntax.self), let text = plainText(code), text.count == 3,
              facts.sellsProducts, !neverShips(code), !Self.isNotFormatter(elements[0].as(MemberAccessExprSyntax.self)?.base, at: node) else { return }
        add(CurrencyFormatterLocaleRule.description,
            "the currency \(Quote.bounded(text)) is written in code: each storefront charges in its own; set the formatter's locale to the product's priceLocale instead",
            at: code)
    }
}

extension SwiftLintVisitor {
    /// Whether the object whose `currencyCode` is set is known not to be a formatter: Apple Pay's
    /// `PKPaymentRequest` and a payment SDK's request charge in the currency the app picked,
    /// which no formatter's locale decides. Known by the type the name is declared with or made
    /// from where the assignment sees it (`let paymentRequest = PKPaymentRequest()`), else by a
    /// name that says payment or request; any other object is taken for a formatter.
    static func isNotFormatter(_ receiver: ExprSyntax?, at node: some SyntaxProtocol) -> Bool {
        guard let receiver else { return false }
        var name = receiver.trimmedDescription
        if name.hasPrefix("self.") { name = String(name.dropFirst(5)) }
        if let type = declaredType(of: name, seenFrom: node) { return !type.contains("Formatter") && !type.contains("FormatStyle") }
        let words = LintScope.words(name)
        return words.contains("payment") || words.contains("request")
    }

    /// The type a name is declared with (`let r: PKPaymentRequest`) or made from (`let r =
    /// PKPaymentRequest()`) in the scopes around `node`, the innermost first.
    static func declaredType(of name: String, seenFrom node: some SyntaxProtocol) -> String? {
        var current = node.parent
        while let syntax = current {
            let declarations: [VariableDeclSyntax]
            if let items = syntax.as(CodeBlockItemListSyntax.self) {
                declarations = items.compactMap { $0.item.as(VariableDeclSyntax.self) }
            } else if let members = syntax.as(MemberBlockItemListSyntax.self) {
                declarations = members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
            } else {
                declarations = []
            }
            for declaration in declarations {
                for binding in declaration.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                    if let type = binding.typeAnnotation?.type.trimmedDescription { return type }
                    if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                       let callee = calleeName(call), callee.first?.isUppercase == true { return callee }
                }
            }
            current = syntax.parent
        }
        return nil
    }
}

extension ObjCLinter {
    /// A float format specifier (`%.2f`, `%0.2lf`): a price formatted as a plain number.
    static let floatSpecifier = try! NSRegularExpression(pattern: #"%[-+ 0#]*\d*(?:\.\d+)?(?:l{0,2}|L)?[fFgGeE]"#)

    /// `[NSString stringWithFormat:@"%0.2lf", product.price.floatValue]`: a price through a float
    /// format, without currency or the product's locale; and a price built by hand from the
    /// locale's currency symbol. Reported at the format string.
    func formatFindings(_ tokens: [Token], _ roles: Roles, _ facts: ArgumentFacts?, neverShippedFile: Bool, into found: inout FindingList) {
        guard let facts else { return }
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            guard tokens[index - 1].text == ":", Self.formatSelectors.contains(tokens[index - 2].text),
                  !neverShippedFile, !tokens[index].debugOnly, !roles.logged.contains(index) else { continue }
            let format = tokens[index].text
            let range = argumentRange(after: index)
            if facts.currencySymbol.any(in: range), facts.moneyNotSymbol.any(in: range) {
                found.append(Finding(rule: CurrencyFormatterLocaleRule.description,
                                     message: "\(tokens[index - 2].text): builds a price from the currency symbol by hand; the symbol's side, spacing and digits differ per locale: use an NSNumberFormatter whose locale is the product's priceLocale",
                                     line: tokens[index].line, column: tokens[index].column))
                continue
            }
            guard facts.mentionsPrice.any(in: range),
                  Self.floatSpecifier.firstMatch(in: format, range: NSRange(format.startIndex..., in: format)) != nil else { continue }
            found.append(Finding(rule: CurrencyFormatterLocaleRule.description,
                                 message: "\(tokens[index - 2].text): \(Quote.bounded(format, open: "@\"", close: "\"")) formats a price as a plain number, not in the product's currency and locale; use an NSNumberFormatter whose locale is the product's priceLocale",
                                 line: tokens[index].line, column: tokens[index].column))
        }
    }

    /// An `NSNumberFormatter` given a currency style in a function or method body that never
    /// sets a locale other than the device's (`priceLocale`, or a locale passed in by the caller).
    /// Reported at the statement that sets the style.
    func currencyFormatterFindings(_ tokens: [Token], neverShippedFile: Bool, into found: inout FindingList) {
        guard !neverShippedFile, !Self.setsCurrencyFromValue(tokens) else { return }
        let localized = Self.namesWithLocaleSet(tokens)
        var depth = 0
        var bodyStart = 0
        var signatureStart = 0
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            if token.text == "{" {
                if depth == 0 { bodyStart = index }
                depth += 1
            } else if token.text == "}", depth > 0 {
                depth -= 1
                guard depth == 0 else { continue }
                defer { signatureStart = index + 1 }
                let body = tokens[bodyStart...index]
                guard !Self.setsLocale(body) else { continue }
                // `- (NSString *)spend:(double)value`: the app's own amount, never a StoreKit price.
                if Self.parameterTypes(tokens[signatureStart..<bodyStart]).map(CurrencyFormatterLocaleRule.takesOnlyOwnAmounts) == true { continue }
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
                    found.append(Finding(rule: CurrencyFormatterLocaleRule.description,
                                         message: "\(Quote.bounded(name)) formats currency but its locale is never set from the product's priceLocale in this method",
                                         line: first.line, column: first.column))
                }
            }
        }
    }

    /// The parameter types of the method signature that ends `tokens` (`- (NSString *)spend:(double)value`
    /// → `double`): from its `-` or `+` at the start of a line. Nil when the tokens end no method's.
    static func parameterTypes(_ tokens: ArraySlice<Token>) -> [String]? {
        guard let start = tokens.indices.last(where: { k in
            (tokens[k].text == "-" || tokens[k].text == "+") && (k == tokens.startIndex || tokens[k - 1].line != tokens[k].line)
        }) else { return nil }
        let signature = tokens[start...]
        var types: [String] = []
        var k = signature.startIndex
        while k < signature.endIndex {
            if signature[k].text == ":", k + 1 < signature.endIndex, signature[k + 1].text == "(" {
                var type: [String] = []
                var j = k + 2
                while j < signature.endIndex, signature[j].text != ")" { type.append(signature[j].text); j += 1 }
                types.append(type.joined(separator: " "))
                k = j
            }
            k += 1
        }
        return types
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

extension CurrencyFormatterLocaleRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal, .call, .sequence]

    /// `String(format:)` and `.currency(code:)` calls; expressions in a file that may name
    /// `numberStyle`, `currencySymbol` or `currencyCode`.
    static func wants(_ node: SwiftNode, in walk: SwiftLintVisitor) -> Bool {
        switch node {
        case .call(let call):
            SwiftLintVisitor.calleeName(call).map { ["String", "currency", "Currency"].contains($0) } ?? false
        case .sequence:
            walk.facts.mayNameNumberStyle || walk.facts.mayNameCurrencySymbol || walk.facts.mayNameCurrencyCode
        default:
            true
        }
    }

    static func check(_ node: SwiftNode, in walk: SwiftLintVisitor) {
        switch node {
        case .call(let call):
            walk.checkFormatCall(call)
            walk.checkHardcodedCurrencyCode(call)
        case .sequence(let sequence):
            walk.checkCurrencyStyle(sequence)
            walk.checkHandBuiltPrice(sequence)
            walk.checkHardcodedCurrencyAssignment(sequence)
        default:
            break
        }
    }

    /// A literal that builds a price from `currencySymbol` by hand.
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        guard literal.handBuilt, !literal.excluded, !literal.logged else { return }
        walk.add(description, "the literal builds a price from currencySymbol by hand; the symbol's side, spacing and digits differ per locale: show product.displayPrice or format with the product's priceLocale", at: literal.node)
    }
}

extension CurrencyFormatterLocaleRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = []

    /// Format calls on prices, and currency formatters left on the device's locale in a file that sells.
    static func finish(in file: inout ObjCFile, into found: inout FindingList) {
        file.linter.formatFindings(file.tokens, file.roles, file.facts, neverShippedFile: file.neverShippedFile, into: &found)
        if file.sellsProducts { file.linter.currencyFormatterFindings(file.tokens, neverShippedFile: file.neverShippedFile, into: &found) }
    }
}
