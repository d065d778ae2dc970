import Diagnostics
import Foundation
import PriceFormatting
import SwiftSyntax

/// `hardcoded-price`. Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
public enum HardcodedPriceRule: Rule {
    public static let description = RuleDescription(
        id: "hardcoded-price", name: "Hardcoded price", severity: .warning,
        rationale: "A price written in code is wrong in 174 of 175 storefronts and the day the price changes; show the product's displayPrice. An amount without a currency (\"0.99\") is a price where it is given to something named for one (priceLabel.text, price:, setPrice:); elsewhere it is a version or a scale.",
        triggering: [.init(#"let label = ↓"$0.99""#), .init(#"text = ↓"0,99 €""#), .init(#"text = ↓"¥120""#), .init(#"text = ↓"USD 4.99""#),
                     .init(#"text = ↓"4.99 USD""#), .init(#"text = ↓"R$ 5,90""#), .init(#"text = ↓"₹99""#), .init(#"text = ↓"CHF 1.00""#),
                     .init(#"text = ↓"Buy for 0.99""#), .init(#"text = ↓"only 4.99/month""#), .init(#"text = ↓"$\(price)""#),
                     .init(#"text = ↓"\(price) €""#), .init(#"text = ↓"Save $38""#), .init(#"text = ↓"Only 99¢""#), .init(#"label.text = ↓@"$0.99";"#, .objc), .init(#"NSString *s = ↓@"Only 1,99 €";"#, .objc),
                     .init(#"#define PRICE_TEXT ↓@"$0.99""#, .objc), .init(#"let title = NSLocalizedString(↓"Only $0.99 a month", comment: "")"#),
                     .init("enum Pricing {\n    static let ↓proPrice = 4.99\n}"), .init(#"let ↓yearlyCost = Decimal(string: "29.99")!"#),
                     .init("#define ↓kProAnnualPrice 6.99", .objc), .init("static const double ↓kProPrice = 4.99;", .objc),
                     .init("final class FakeStore {\n    let banner = ↓\"Only $0.99\"\n}"), .init(#"priceLabel.text = ↓"0.99""#),
                     .init(#"self.price = ↓@"1.99";"#, .objc)],
        nonTriggering: [.init(#"let v = "1.2.3""#), .init(#"let p = "50%""#), .init(#"let t = "12:30""#), .init(#"let c = "37.33, -122.03""#),
                        .init(#"let s = "$""#), .init(#"let f = "%.2f""#), .init(#"let i = "coins_100""#), .init(#"let a = "icon_4.99.png""#),
                        .init(#"let r = "$1""#), .init(#"let name = "$\(index)""#),
                        .init(#"let q = "Solve for X: $X = 1/e^1.365^ = 0.255$, if k is $34.62 h^-1^$ in $t = ln(2)/k$""#), .init(#"let t = "the yield for 0.98% of runs""#), .init(#"// let label = "$0.99""#), .init(#"/* "$0.99" */ let x = 1"#),
                        .init(#"NSString *v = @"version 2.10";"#, .objc), .init(#"// label.text = @"$0.99";"#, .objc),
                        .init(#"#import "Offer $0.99.h""#, .objc),
                        .init("#Preview {\n    Text(\"$0.99\")\n}"),
                        .init("struct Shop_Previews: PreviewProvider {\n    static var previews: some View { Text(\"$0.99\") }\n}"),
                        .init("#if DEBUG\nlet label = \"$0.99\"\n#endif"),
                        .init("extension Product {\n    static let preview = Product(price: \"$0.99\")\n}"),
                        .init(#"let buy = NSLocalizedString("Buy", comment: "Button, as in 'Buy for $4.99'")"#),
                        .init(#"print("charged $0.99")"#), .init("var totalPrice = 0.0"), .init("let priceLabelHeight = 20.5"),
                        .init(#"NSString *s = [NSString stringWithFormat:@"%@$$$%@", first, second];"#, .objc),
                        .init("#ifdef DEBUG\nlabel.text = @\"$0.99\";\n#endif", .objc),
                        .init(#"NSString *t = NSLocalizedString(@"Buy", @"e.g. Buy for $0.99");"#, .objc),
                        .init(#"let total = formatted ?? "$0.00""#), .init(#"let usage = "Est. cost: $\(apiCost)""#),
                        .init(#"static let weekly = TestStoreProduct(localizedPriceString: "$1.99")"#),
                        .init(#"#define __DARWIN_SUF_1050 "$1050""#, .objc), .init(#"versionLabel.text = "1.0""#), .init(#"label.text = "0.99""#),
                        .init(#"NSString *version = @"2.50";"#, .objc)])
}

/// A bare amount — a decimal without a currency — is a price only where the code says so: given
/// to something named for a price (`priceLabel.text = "0.99"`, `self.price = "1.99"`,
/// `Plan(price: "4.99")`, `[priceButton setTitle:@"0.99" …]`). Anywhere else "1.0" or "2.50" is a
/// version, a scale, a coordinate.
enum BarePrice {
    /// `0.99`, `4,99`, `12.00`: digits, a point or comma, exactly two digits; not zero.
    static func amount(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 4, scalars.count <= 8 else { return nil }
        let separator = scalars.count - 3
        guard scalars[separator] == "." || scalars[separator] == ",",
              scalars.enumerated().allSatisfy({ $0.offset == separator || ("0"..."9").contains($0.element) }),
              scalars.contains(where: { ("1"..."9").contains($0) }) else { return nil }
        return text
    }

    /// Words that make a name about a price without being one (`priceLocale`, `priceTier`,
    /// `priceChangePercent`, `priceLabelHeight`).
    static let notPriceWords: Set<String> = ["locale", "tier", "id", "identifier", "key", "format", "style", "formatter", "index",
                                             "count", "percent", "percentage", "ratio", "discount", "saving", "savings", "factor",
                                             "fraction", "height", "width", "size", "font", "color", "colour", "offset", "padding",
                                             "margin", "spacing", "alignment", "frame", "constraint", "layer", "image", "icon",
                                             "version", "change", "scale", "alpha", "opacity", "duration", "delay", "level"]

    /// A name that says a price, or a view that shows one: `price`, `yearlyPrice`, `priceLabel`,
    /// `priceText`, `setPrice`, `initWithPrice`.
    static func namesPricePlace(_ name: String) -> Bool {
        let words = LintScope.words(name)
        return (words.contains("price") || words.contains("prices")) && notPriceWords.isDisjoint(with: words)
    }

    /// A view's text: `priceLabel.text`, `priceButton.title`, `priceField.stringValue`.
    static let textProperties: Set<String> = ["text", "title", "stringValue", "attributedText", "setText", "setTitle", "setStringValue"]

    /// The name that makes an assignment target a price's place: `price` of `self.price`,
    /// `priceLabel` of `cell.priceLabel?.text`.
    static func pricePlace(_ components: [String]) -> String? {
        guard let last = components.last else { return nil }
        if namesPricePlace(last) { return last }
        if textProperties.contains(last), components.count >= 2, namesPricePlace(components[components.count - 2]) {
            return components[components.count - 2]
        }
        return nil
    }
}

extension SwiftLintVisitor {
    /// The name that makes a bare amount a price here (`BarePrice`): the label of the argument
    /// it is, the variable it initialises, or the target it is assigned to (`priceLabel.text = "0.99"`),
    /// or the view whose `setTitle` it is given to.
    func barePriceContext(_ node: StringLiteralExprSyntax) -> String? {
        guard let parent = node.parent else { return nil }
        if let argument = parent.as(LabeledExprSyntax.self) {
            if let label = argument.label?.text { return BarePrice.namesPricePlace(label) ? label : nil }
            guard let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.first?.id == argument.id,
                  let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                  BarePrice.textProperties.contains(member.declName.baseName.text) else { return nil }
            return BarePrice.pricePlace(Self.components(base) + ["text"])
        }
        if let initializer = parent.as(InitializerClauseSyntax.self), let binding = initializer.parent?.as(PatternBindingSyntax.self),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            return BarePrice.namesPricePlace(name) ? name : nil
        }
        if let sequence = parent.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3, sequence.elements.last?.id == node.id,
           let target = sequence.elements.first, sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true {
            return BarePrice.pricePlace(Self.components(target))
        }
        return nil
    }

    /// `self.cell.priceLabel?.text` → cell, priceLabel, text (names only; empty for anything else).
    static func components(_ expression: ExprSyntax) -> [String] {
        var names: [String] = []
        var e = expression
        for _ in 0..<32 {
            if let inner = e.as(OptionalChainingExprSyntax.self)?.expression ?? e.as(ForceUnwrapExprSyntax.self)?.expression {
                e = inner
            } else if let member = e.as(MemberAccessExprSyntax.self) {
                names.insert(member.declName.baseName.text, at: 0)
                guard let base = member.base else { return names }
                e = base
            } else if let reference = e.as(DeclReferenceExprSyntax.self) {
                if reference.baseName.text != "self" { names.insert(reference.baseName.text, at: 0) }
                return names
            } else {
                return []
            }
        }
        return []
    }

    /// `static let price = 4.99`, `let kProAnnualPrice: Decimal = 6.99`: a price written in code.
    func checkPriceConstant(name: String, value: ExprSyntax, in binding: PatternBindingSyntax) {
        guard LintScope.namesPrice(name), facts.sellsProducts || LintScope.namesProductPrice(name), let amount = Self.writtenAmount(value),
              amount != "0", !neverShips(binding), !isLogged(binding) else { return }
        add(HardcodedPriceRule.description, "\(Quote.bounded(name)) holds a price written in code (\(Quote.bounded(amount, open: "", close: ""))); show the product's displayPrice so every storefront sees its own", at: binding)
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

extension ObjCLinter {
    /// The name that makes the bare amount at `index` a price (`BarePrice`): `priceLabel.text =
    /// @"0.99"`, `NSString *price = @"1.99"`, `initWithPrice:@"4.99"`, `[self.priceLabel setText:@"0.99"]`.
    static func barePriceContext(_ tokens: [Token], _ index: Int) -> String? {
        guard index >= 2, tokens[index - 2].kind == .identifier else { return nil }
        let name = tokens[index - 2].text
        if tokens[index - 1].text == "=", index < 3 || tokens[index - 3].text != "=" {
            var components = [name]
            if index >= 4, tokens[index - 3].text == ".", tokens[index - 4].kind == .identifier { components.insert(tokens[index - 4].text, at: 0) }
            return BarePrice.pricePlace(components)
        }
        guard tokens[index - 1].text == ":" else { return nil }
        if BarePrice.namesPricePlace(name) { return name }
        // `[receiver setText:@"…"]`: the receiver's last name.
        if BarePrice.textProperties.contains(name), index >= 4, tokens[index - 3].kind == .identifier, tokens[index - 4].text == "[" || tokens[index - 4].text == "." {
            return BarePrice.pricePlace([tokens[index - 3].text, "text"])
        }
        return nil
    }

    /// A number written as a price: a decimal with one or two places, not zero.
    static func amount(_ text: String) -> String? {
        guard let dot = text.firstIndex(of: "."), text[text.index(after: dot)...].count <= 2,
              text.allSatisfy({ $0.isNumber || $0 == "." }), Decimal(string: text).map({ $0 != 0 }) == true else { return nil }
        return text
    }

    /// Prices written as numbers (`#define kProPrice 4.99`), once the walk is done: one finding for
    /// a table of them, or one for a single one.
    func priceConstantFindings(_ tokens: [Token], _ priceConstants: [(name: Int, value: Int)]) -> [Finding] {
        if priceConstants.count >= 2 {
            let first = tokens[priceConstants[0].name]
            let shown = priceConstants.prefix(3).map { "\(tokens[$0.name].text) \(tokens[$0.value].text)" }.joined(separator: ", ")
                + (priceConstants.count > 3 ? ", …" : "")
            return [Finding(rule: HardcodedPriceRule.description, message: "\(priceConstants.count) prices are written in code here (\(shown)); show each product's localized price instead",
                            line: first.line, column: first.column)]
        } else if let only = priceConstants.first {
            let name = tokens[only.name]
            return [Finding(rule: HardcodedPriceRule.description, message: "\(Quote.bounded(name.text)) holds a price written in code (\(Quote.bounded(tokens[only.value].text, open: "", close: ""))); show the product's localized price",
                            line: name.line, column: name.column)]
        }
        return []
    }
}

extension HardcodedPriceRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal, .variable]

    static func wants(_ node: SwiftNode, in walk: SwiftLintVisitor) -> Bool {
        guard case .variable(let declaration) = node else { return true }
        return walk.bindsPriceName(declaration)
    }

    static func check(_ node: SwiftNode, in walk: SwiftLintVisitor) {
        guard case .variable(let declaration) = node else { return }
        for binding in declaration.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { continue }
            walk.checkPriceConstant(name: name, value: value, in: binding)
        }
    }

    /// A literal that shows a price, or gives a bare amount to a price's place.
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        guard !literal.handBuilt, literal.price != nil || literal.barePrice != nil, !literal.excluded, !literal.logged else { return }
        if let price = literal.price {
            walk.add(description, "the literal shows a price (\(Quote.bounded(price))); show the product's displayPrice so every storefront sees its own",
                     at: literal.node, holder: walk.holderName(literal.node))
        } else if let barePrice = literal.barePrice {
            walk.add(description, "the literal gives \(Quote.bounded(barePrice)) a price written in code (\(Quote.bounded(literal.text))); show the product's displayPrice so every storefront sees its own",
                     at: literal.node, holder: walk.holderName(literal.node))
        }
    }
}

extension HardcodedPriceRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.string, .number]

    /// A string that shows a price or gives a bare amount to a price's place; a number a price
    /// constant holds (`#define kProAnnualPrice 6.99`, `static const double kPrice = 4.99;`), kept for `finish`.
    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        let tokens = file.tokens, token = tokens[index], linter = file.linter
        if token.kind == .number {
            guard file.ships(index), ObjCLinter.amount(token.text) != nil, index >= 1 else { return }
            var n = index - 1
            if tokens[n].text == "=" { n -= 1 } else if !(tokens[n].inDefine && tokens[n].line == token.line) { return }
            guard n >= 0, tokens[n].kind == .identifier, LintScope.namesPrice(tokens[n].text),
                  file.sellsProducts || LintScope.namesProductPrice(tokens[n].text), !file.roles.logged.contains(index) else { return }
            file.priceConstants.append((n, index))
            return
        }
        guard file.isShownString(index) else { return }
        let logged = file.roles.logged.contains(index)
        var price = logged ? nil : PricePattern.firstMatch(in: linter.priceText(tokens, index, file.facts))
        // `[[TestProduct alloc] initWithPrice:@"$1.99"]`: the literal describes a stand-in.
        if price != nil, ObjCLinter.isStandInValue(tokens, index) || ObjCLinter.definesReservedName(tokens, index) { price = nil }
        if let price {
            found.append(Finding(rule: description, message: "the literal shows a price (\(Quote.bounded(price))); show the product's localized price",
                                 line: token.line, column: token.column, holder: linter.holderName(tokens, index)))
        } else if !logged, BarePrice.amount(token.text) != nil, let place = ObjCLinter.barePriceContext(tokens, index),
                  !file.roles.localized.contains(index), !ObjCLinter.isStandInValue(tokens, index), !ObjCLinter.definesReservedName(tokens, index) {
            found.append(Finding(rule: description, message: "the literal gives \(Quote.bounded(place)) a price written in code (\(Quote.bounded(token.text))); show the product's localized price",
                                 line: token.line, column: token.column, holder: linter.holderName(tokens, index)))
        }
    }

    static func finish(in file: inout ObjCFile, into found: inout FindingList) {
        found += file.linter.priceConstantFindings(file.tokens, file.priceConstants)
    }
}
