import Diagnostics
import SwiftSyntax

/// `hardcoded-title`. Found in the one walk over string literals (`SwiftLintVisitor.checkLiteral`,
/// `ObjCLinter.run`), which asks the functions below.
public enum HardcodedTitleRule: Rule {
    public static let description = RuleDescription(
        id: "hardcoded-title", name: "Hardcoded product title", severity: .warning,
        rationale: "Product names and descriptions change in App Store Connect and are localized; show the product's displayName.",
        triggering: [.init(#"let title = ↓"Bag of Coins""#), .init(#"let title = ↓"  bag of coins! ""#), .init(#"let title = ↓"COINS, BAG OF""#),
                     .init(#"titleLabel.text = ↓@"Bag of Coins";"#, .objc)],
        nonTriggering: [.init(#"let title = "Bag of Gems""#), .init(#"let title = "Coins""#), .init(#"let app = "Acme""#),
                        .init(#"let title = NSLocalizedString("Bag of Coins", comment: "")"#), .init(#"let title = String(localized: "Bag of Coins")"#),
                        .init("#Preview {\n    Text(\"Bag of Coins\")\n}"), .init("var analyticsName: String { \"Bag of Coins\" }"),
                        .init(#"let key = "bag_of_coins""#), .init(#"let food = BirdFood(id: "Bag of Coins", name: name)"#),
                        .init(#"let theme = Theme(nameKey: "BAG OF COINS")"#), .init(#"let stub = MockProduct(displayName: "Bag of Coins")"#),
                        .init(#"NSString *t = NSLocalizedString(@"Bag of Coins", nil);"#, .objc)])
}

extension SwiftLintVisitor {
    /// A literal handed to the app's localization: `NSLocalizedString("…")`, `String(localized:)`,
    /// `LocalizedStringResource`, `"…".localized`. That is UI copy with a translation workflow:
    /// prices in it are still reported, product titles are not.
    func isLocalizedCopy(_ node: StringLiteralExprSyntax) -> Bool {
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text.hasPrefix("localized") { return true }
        guard let argument = node.parent?.as(LabeledExprSyntax.self),
              let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), let name = Self.calleeName(call) else { return false }
        if name.hasPrefix("NSLocalizedString") || name == "LocalizedStringResource" || name == "LocalizedStringKey" { return true }
        // Any call that takes a translator's comment (`Text("…", comment:)`, an app's own helper).
        if call.arguments.contains(where: { $0.label?.text == "comment" }) { return true }
        return name == "String" && call.arguments.first?.label?.text == "localized"
    }

    /// Argument labels and calls whose strings name things rather than show them.
    static let identifierLabels: Set<String> = ["id", "identifier", "key", "forKey", "forKeyPath", "named", "systemName", "imageName",
                                                "withIdentifier", "reuseIdentifier", "forResource", "ofType", "accessibilityIdentifier"]

    /// `BirdFood(id: "Golden Acorn")`, `Image("Premium")`-style names, `.accessibilityIdentifier("…")`:
    /// an identifier that happens to spell a product's name is not its title shown to customers.
    func isIdentifierArgument(_ node: StringLiteralExprSyntax) -> Bool {
        guard let argument = node.parent?.as(LabeledExprSyntax.self) else { return false }
        if let label = argument.label?.text {
            if Self.identifierLabels.contains(label) { return true }
            // `nameKey: "PRO THEME"`, `titleID:`: a key that looks the text up, not the text.
            if let last = LintScope.words(label).last, ["key", "id", "identifier"].contains(last) { return true }
        }
        guard let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), let name = Self.calleeName(call) else { return false }
        return ["accessibilityIdentifier", "Image", "UIImage", "NSImage", "imageNamed"].contains(name)
    }
}

extension ObjCLinter {
    /// Whether the string is an argument whose selector part says it is a key or an identifier
    /// (`nameKey:`, `forKey:`, `productIdentifier:`): it looks a text up, it is not the text.
    static func isKeyArgument(_ tokens: [Token], _ index: Int) -> Bool {
        guard index >= 2, tokens[index - 1].text == ":", tokens[index - 2].kind == .identifier,
              let last = LintScope.words(tokens[index - 2].text).last else { return false }
        return ["key", "id", "identifier", "named"].contains(last)
    }
}
