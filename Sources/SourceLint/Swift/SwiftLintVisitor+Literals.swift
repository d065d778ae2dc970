import IAPCatalog
import Diagnostics
import PriceFormatting
import SwiftSyntax

/// Where a string literal sits, as the rules that read literals (through `SwiftLiteral`) ask it.
extension SwiftLintVisitor {
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
