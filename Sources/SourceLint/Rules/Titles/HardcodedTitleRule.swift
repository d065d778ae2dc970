import Diagnostics
import SwiftSyntax

/// `hardcoded-title`. Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
public enum HardcodedTitleRule: Rule {
    public static let description = RuleDescription(
        id: "hardcoded-title", name: "Hardcoded product title", severity: .warning,
        rationale: "Product names and descriptions change in App Store Connect and are localized; show the product's displayName. Not the label of the plan a customer already has (isPro ? \"Acme Pro\" : \"Free plan\"): that names the app's own state, not a product offered.",
        triggering: [.init(#"let title = ↓"Bag of Coins""#), .init(#"let offer = isProUser ? "Thanks!" : ↓"Bag of Coins""#),
                     .init(#"let offer = !store.hasPremium ? ↓"Bag of Coins" : "Owned""#), .init(#"let title = ↓"  bag of coins! ""#), .init(#"let title = ↓"COINS, BAG OF""#),
                     .init(#"titleLabel.text = ↓@"Bag of Coins";"#, .objc)],
        nonTriggering: [.init(#"let title = "Bag of Gems""#), .init(#"let title = "Coins""#), .init(#"let app = "Acme""#),
                        .init(#"let title = NSLocalizedString("Bag of Coins", comment: "")"#), .init(#"let title = String(localized: "Bag of Coins")"#),
                        .init("#Preview {\n    Text(\"Bag of Coins\")\n}"), .init("var analyticsName: String { \"Bag of Coins\" }"),
                        .init(#"let key = "bag_of_coins""#), .init(#"let food = BirdFood(id: "Bag of Coins", name: name)"#),
                        .init(#"let theme = Theme(nameKey: "BAG OF COINS")"#), .init(#"let stub = MockProduct(displayName: "Bag of Coins")"#),
                        .init(#"NSString *t = NSLocalizedString(@"Bag of Coins", nil);"#, .objc),
                        .init(#"let plan = store.isProUser ? "Bag of Coins" : "Free plan""#),
                        .init(#"let plan = !hasPremium ? "Free plan" : "Bag of Coins""#),
                        .init(#"planLabel.text = self.isSubscribed ? @"Bag of Coins" : @"Free";"#, .objc)])
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

/// The label of the plan a customer already has: a title chosen by the app's own entitlement
/// (`isProUser ? "Shrunk Pro" : "Free plan"`, `!hasPremium ? "Free" : "Premium"`) names what the
/// customer owns, not a product offered for sale. The arm shown to those without it is still an
/// offer, and reported.
enum OwnedPlanCondition {
    static let planWords: Set<String> = ["pro", "premium", "plus", "vip", "paid", "unlocked", "subscribed", "subscriber", "member",
                                         "entitled", "purchased", "owned", "lifetime", "subscription"]
    static let stateWords: Set<String> = ["is", "has", "have", "active", "owns", "unlocked", "subscribed", "purchased", "entitled"]

    /// Whether a condition made of names alone (`isProUser`, `store.hasPremium`, `!self.isSubscribed`)
    /// states the customer's entitlement: nil when it does not; else whether it is negated.
    static func negation(_ tokens: [String]) -> Bool? {
        var names = tokens
        var negated = false
        while names.first == "!" { names.removeFirst(); negated.toggle() }
        guard !names.isEmpty, names.allSatisfy({ $0 == "." || $0.first.map { $0.isLetter || $0 == "_" } == true }),
              let last = names.last(where: { $0 != "." }) else { return nil }
        let words = Set(LintScope.words(last))
        return !words.isDisjoint(with: planWords) && !words.isDisjoint(with: stateWords) ? negated : nil
    }
}

extension SwiftLintVisitor {
    /// A literal in the arm of a ternary that the customer's entitlement picks for those who have
    /// it (`OwnedPlanCondition`).
    func isOwnedPlanLabel(_ node: StringLiteralExprSyntax) -> Bool {
        let sequence: SequenceExprSyntax
        let firstArm: Bool
        if let ternary = node.parent?.as(UnresolvedTernaryExprSyntax.self), let list = ternary.parent?.parent?.as(SequenceExprSyntax.self) {
            (sequence, firstArm) = (list, true)
        } else if let list = node.parent?.parent?.as(SequenceExprSyntax.self), node.parent?.is(ExprListSyntax.self) == true {
            (sequence, firstArm) = (list, false)
        } else {
            return false
        }
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].is(UnresolvedTernaryExprSyntax.self),
              firstArm || elements[2].id == node.id,
              let negated = OwnedPlanCondition.negation(elements[0].tokens(viewMode: .sourceAccurate).map(\.text)) else { return false }
        return firstArm != negated
    }
}

extension ObjCLinter {
    /// `self.isSubscribed ? @"Acme Pro" : @"Free"`: the arm shown to those who have the plan.
    static func isOwnedPlanLabel(_ tokens: [Token], _ index: Int) -> Bool {
        guard index >= 2 else { return false }
        let question: Int
        let firstArm: Bool
        if tokens[index - 1].text == "?" {
            (question, firstArm) = (index - 1, true)
        } else if index >= 3, tokens[index - 1].text == ":", tokens[index - 3].text == "?" {
            (question, firstArm) = (index - 3, false)
        } else {
            return false
        }
        var start = question
        while start > 0, start > question - 12, tokens[start - 1].kind == .identifier || [".", "!"].contains(tokens[start - 1].text) { start -= 1 }
        guard start < question, let negated = OwnedPlanCondition.negation(tokens[start..<question].map(\.text)) else { return false }
        return firstArm != negated
    }
}


extension HardcodedTitleRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal]

    /// A catalog title shown as a literal: not localized copy, an identifier's argument or the
    /// label of the plan a customer has.
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        let node = literal.node
        guard literal.title, !literal.excluded, !literal.logged, !walk.isLocalizedCopy(node), !walk.isIdentifierArgument(node),
              !walk.isOwnedPlanLabel(node) else { return }
        walk.add(description, "\(Quote.bounded(literal.text)) is a product's name or description from the catalog; show the product's displayName or description",
                 at: node, holder: walk.holderName(node))
    }
}

extension HardcodedTitleRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.string]

    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        let tokens = file.tokens, token = tokens[index]
        guard file.isShownString(index), !file.roles.logged.contains(index), !file.roles.localized.contains(index), file.context.isTitle(token.text),
              !ObjCLinter.isKeyArgument(tokens, index), !ObjCLinter.isOwnedPlanLabel(tokens, index),
              // `[[TestProduct alloc] initWithName:@"Pro"]`: the literal describes a stand-in.
              !ObjCLinter.isStandInValue(tokens, index), !ObjCLinter.definesReservedName(tokens, index) else { return }
        found.append(Finding(rule: description, message: "\(Quote.bounded(token.text)) is a product's name or description from the catalog; show the product's localizedTitle",
                             line: token.line, column: token.column, holder: file.linter.holderName(tokens, index)))
    }
}
