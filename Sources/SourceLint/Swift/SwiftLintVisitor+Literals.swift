import IAPCatalog
import Diagnostics
import PriceFormatting
import SwiftSyntax

/// String literals, read once for every rule that reads them: prices written as text
/// (`hardcoded-price`, `currency-formatter-locale`), product titles (`hardcoded-title`), product IDs
/// (`hardcoded-product-id`, `unknown-product-id`); each rule's own decisions are in its file.
extension SwiftLintVisitor {
    func checkLiteral(_ node: StringLiteralExprSyntax) {
        var text = ""
        var interpolated = false
        var moneyInterpolation = false
        var symbolInterpolation = false
        for segment in node.segments {
            if let plain = segment.as(StringSegmentSyntax.self) {
                text += plain.content.text
            } else {
                text.append(PricePattern.placeholder)
                interpolated = true
                // Money of the app's own (an API's cost, a budget) is not a product's price: an
                // interpolated amount counts where products are sold or when it names a price.
                if PricePattern.isMoneyExpression(segment.trimmedDescription),
                   facts.sellsProducts || PricePattern.isProductPriceExpression(segment.trimmedDescription) {
                    moneyInterpolation = true
                }
                if facts.mayNameCurrencySymbol, Self.mentions(segment, ["currencySymbol"]) { symbolInterpolation = true }
            }
        }
        if !interpolated { checkSharedSecret(node, text: text) }
        // What the literal could be reported for, before asking where it sits (which walks up the tree).
        let handBuilt = symbolInterpolation && moneyInterpolation
        let price = handBuilt ? nil : PricePattern.firstMatch(in: text).flatMap { price in
            // An interpolation stands for an amount only when it is about money: "$\(n)" builds
            // `$0` names in code generators.
            price.contains("…") && !moneyInterpolation ? nil : price
        }
        // A bare amount (`"0.99"`) where the code says price: given to a price's place.
        let barePrice = handBuilt || price != nil || interpolated || BarePrice.amount(text) == nil ? nil : barePriceContext(node)
        let title = !interpolated && context.isTitle(text)
        let catalogID = !interpolated && context.productConstants[text] != nil
        let misspelling = interpolated || catalogID || reportedLiterals.contains(node.id) ? nil
            : context.misspelledID(text).flatMap { isNamingPosition(node) || isLogged(node) ? nil : $0 }
        guard handBuilt || price != nil || barePrice != nil || title || catalogID || misspelling != nil else { return }
        // A translator's comment (`NSLocalizedString(…, comment: "e.g. $4.99")`) is not UI, and
        // code that never ships is nobody's concern.
        if isTranslatorComment(node) || neverShips(node) { return }
        // `TestStoreProduct(localizedPriceString: "$1.99")`: the literal describes a stand-in.
        let standIn = (handBuilt || price != nil || barePrice != nil || title) && isStandInValue(node)
        let logged = isLogged(node) || standIn
        if !logged, handBuilt {
            add(CurrencyFormatterLocaleRule.description, "the literal builds a price from currencySymbol by hand; the symbol's side, spacing and digits differ per locale: show product.displayPrice or format with the product's priceLocale", at: node)
        } else if !logged, let price {
            add(HardcodedPriceRule.description, "the literal shows a price (\(Quote.bounded(price))); show the product's displayPrice so every storefront sees its own", at: node, holder: holderName(node))
        } else if !logged, let barePrice {
            add(HardcodedPriceRule.description, "the literal gives \(Quote.bounded(barePrice)) a price written in code (\(Quote.bounded(text))); show the product's displayPrice so every storefront sees its own", at: node, holder: holderName(node))
        }
        if title, !logged, !isLocalizedCopy(node), !isIdentifierArgument(node), !isOwnedPlanLabel(node) {
            add(HardcodedTitleRule.description, "\(Quote.bounded(text)) is a product's name or description from the catalog; show the product's displayName or description", at: node, holder: holderName(node))
        }
        if catalogID {
            if isDefinition(node) {
                definitions.append((node, text))
            } else if let constant = context.productConstants[text] {
                add(HardcodedProductIDRule.description, "product ID \(Quote.bounded(text)) typed as a literal; use \(constant)", at: node)
            }
        } else if let misspelling {
            // Reported in `finish`, after the sinks: "used as a product ID" says more.
            misspellings.append((node, text, misspelling))
        }
    }

    /// The `comment:` argument of a localization call.
    func isTranslatorComment(_ node: StringLiteralExprSyntax) -> Bool {
        node.parent?.as(LabeledExprSyntax.self)?.label?.text == "comment"
    }

    /// Whether the literal is an argument of a stand-in's initializer (`TestStoreProduct(…)`,
    /// `MockProduct(…)`, `PlaceholderPlan(…)`): it describes a test double or a placeholder, and
    /// what a customer sees is decided where the stand-in is used, not by its literals.
    func isStandInValue(_ node: StringLiteralExprSyntax) -> Bool {
        var current = node.parent
        while let syntax = current {
            if let call = syntax.as(FunctionCallExprSyntax.self), let name = Self.calleeName(call), name.first?.isUppercase == true,
               LintScope.namesStandIn(name) {
                return true
            }
            if syntax.is(CodeBlockItemSyntax.self) || syntax.is(MemberBlockItemSyntax.self) { return false }
            current = syntax.parent
        }
        return false
    }

    /// An expression that is a product's ID: `productID`, `productIdentifier`, or `.id` of
    /// something named for a product or a transaction.
    static func mentionsProductID(_ expression: some SyntaxProtocol) -> Bool {
        if mentions(expression, ["productID", "productIdentifier", "productId", "productIdentifiers"]) { return true }
        for token in expression.tokens(viewMode: .sourceAccurate) where token.text == "id" {
            guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), let base = member.base else { continue }
            var lower = base.trimmedDescription.lowercased()
            // `products.first { $0.id == "…" }`: the closure's argument is what the call iterates.
            if lower.hasPrefix("$"), let call = enclosingCall(of: member) { lower = call.calledExpression.trimmedDescription.lowercased() }
            if lower.contains("product") || lower.contains("transaction") || lower.contains("subscription") { return true }
        }
        return false
    }

    /// The call a closure holding `node` is passed to.
    static func enclosingCall(of node: some SyntaxProtocol) -> FunctionCallExprSyntax? {
        var current = node.parent
        while let syntax = current {
            if syntax.is(ClosureExprSyntax.self) { return syntax.parent?.as(FunctionCallExprSyntax.self) ?? syntax.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) }
            if syntax.is(CodeBlockItemSyntax.self) && syntax.parent?.parent?.is(ClosureExprSyntax.self) != true { return nil }
            current = syntax.parent
        }
        return nil
    }
}

/// What product IDs look like as text: App Store Connect's characters, no spaces, not empty.
enum ProductIDText {
    static func isIDLike(_ text: String) -> Bool {
        text.utf8.count <= 100 && IDCharacters.hasIDSyntax(text)
    }
}
