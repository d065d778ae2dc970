import Diagnostics
import PriceFormatting
import SwiftSyntax

/// Currency formatters left on the device's locale, prices through `String(format:)`, and prices
/// built by hand from a currency symbol.
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
            current = syntax.parent
        }
        add(LintRules.currencyFormatterLocale, "\(Quote.bounded(name)) formats currency but its locale is never set from the product's priceLocale", at: node)
    }

    /// `String(format: "%.2f", price)`: a price without its currency or the product's locale.
    func checkFormatCall(_ node: FunctionCallExprSyntax) {
        guard Self.calleeName(node) == "String", node.arguments.first?.label?.text == "format", node.arguments.count > 1,
              let format = node.arguments.first.flatMap({ $0.expression.as(StringLiteralExprSyntax.self) }).flatMap(plainText),
              format.contains("f"), format.contains("%"), node.arguments.dropFirst().contains(where: { Self.mentionsPrice($0.expression) }),
              !neverShips(node), !isLogged(node) else { return }
        add(LintRules.currencyFormatterLocale, "String(format: \"\(format)\") shows a price without currency or the product's locale; use product.displayPrice or a formatter with priceLocale", at: node)
    }

    /// `locale.currencySymbol + "\(price)"`: a price built by hand.
    func checkHandBuiltPrice(_ node: SequenceExprSyntax) {
        guard node.elements.contains(where: { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" }),
              node.elements.contains(where: { Self.mentions($0, ["currencySymbol"]) }),
              node.elements.contains(where: { !Self.mentions($0, ["currencySymbol"]) && PricePattern.isMoneyExpression($0.trimmedDescription) }),
              !neverShips(node), !isLogged(node) else { return }
        add(LintRules.currencyFormatterLocale, "the expression builds a price from currencySymbol by hand; the symbol's side, spacing and digits differ per locale: show product.displayPrice or format with the product's priceLocale", at: node)
    }
}
