import Diagnostics
import PriceFormatting
import SwiftSyntax

/// The nodes the one Swift walk (`SwiftLintVisitor`) hands to lint rules.
enum SwiftNode {
    case literal(StringLiteralExprSyntax)
    case variable(VariableDeclSyntax)
    case enumCaseParameter(EnumCaseParameterSyntax)
    case call(FunctionCallExprSyntax)
    case member(MemberAccessExprSyntax)
    case sequence(SequenceExprSyntax)

    enum Kind: Int, CaseIterable {
        case literal, variable, enumCaseParameter, call, member, sequence
    }

    var kind: Kind {
        switch self {
        case .literal: .literal
        case .variable: .variable
        case .enumCaseParameter: .enumCaseParameter
        case .call: .call
        case .member: .member
        case .sequence: .sequence
        }
    }
}

/// A lint rule over Swift: the kinds of node it reads, and for each node of them whether it could
/// be reported (`wants`, asked during the walk, from the node and the facts a byte scan of the
/// file gave before it) and its check (`check`, once the walk is done and every declaration of the
/// file is known, in the walk's order). `finish` reports what needs the whole file. The walk keeps
/// a node only when a rule wants it, and keeps the shared facts the rules query: the file's facts
/// (`SwiftFileFacts`), the product-ID flow, where a node sits (`neverShips`, `isLogged`), and a
/// string literal sorted out once for every rule that reads literals (`SwiftLiteral`).
protocol SwiftLintRule: Rule {
    static var swiftNodes: Set<SwiftNode.Kind> { get }
    static func wants(_ node: SwiftNode, in walk: SwiftLintVisitor) -> Bool
    static func check(_ node: SwiftNode, in walk: SwiftLintVisitor)
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor)
    static func finish(in walk: SwiftLintVisitor)
}

extension SwiftLintRule {
    static func wants(_ node: SwiftNode, in walk: SwiftLintVisitor) -> Bool { true }
    static func check(_ node: SwiftNode, in walk: SwiftLintVisitor) {}
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {}
    static func finish(in walk: SwiftLintVisitor) {}
}

/// A string literal as every rule that reads literals sees it: what it could be reported for,
/// worked out once from its text, and where it sits, asked only when a rule needs it (the walks up
/// the tree are the costly part). Each rule's decision is in its file.
final class SwiftLiteral {
    let node: StringLiteralExprSyntax
    /// The text, with `PricePattern.placeholder` for each interpolation.
    let text: String
    let interpolated: Bool
    /// A price built from `currencySymbol` and an amount by hand.
    let handBuilt: Bool
    /// The price the text shows.
    let price: String?
    /// A bare amount (`"0.99"`) given to a price's place: the place.
    let barePrice: String?
    /// The text is a product's name or description in the catalog.
    let title: Bool
    /// The text is a catalog ID.
    let catalogID: Bool
    /// The catalog ID the text looks like a typo of.
    let misspelling: String?
    /// The walk outlives every literal it sorts out (each lives in one step of `finish`).
    private unowned(unsafe) let walk: SwiftLintVisitor

    init(_ node: StringLiteralExprSyntax, in walk: SwiftLintVisitor) {
        self.node = node
        self.walk = walk
        let facts = walk.facts
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
                if facts.mayNameCurrencySymbol, SwiftLintVisitor.mentions(segment, ["currencySymbol"]) { symbolInterpolation = true }
            }
        }
        self.text = text
        self.interpolated = interpolated
        let handBuilt = symbolInterpolation && moneyInterpolation
        self.handBuilt = handBuilt
        let price = handBuilt ? nil : PricePattern.firstMatch(in: text).flatMap { price in
            // An interpolation stands for an amount only when it is about money: "$\(n)" builds
            // `$0` names in code generators.
            price.contains("…") && !moneyInterpolation ? nil : price
        }
        self.price = price
        barePrice = handBuilt || price != nil || interpolated || BarePrice.amount(text) == nil ? nil : walk.barePriceContext(node)
        title = !interpolated && walk.context.isTitle(text)
        let catalogID = !interpolated && walk.context.productConstants[text] != nil
        self.catalogID = catalogID
        misspelling = interpolated || catalogID || walk.reportedLiterals.contains(node.id) ? nil
            : walk.context.misspelledID(text).flatMap { walk.isNamingPosition(node) || walk.isLogged(node) ? nil : $0 }
    }

    /// A translator's comment (`NSLocalizedString(…, comment: "e.g. $4.99")`), which is not UI,
    /// or code that never ships, which is nobody's concern.
    private(set) lazy var excluded: Bool = walk.isTranslatorComment(node) || walk.neverShips(node)

    /// Recorded rather than shown: logged, or describing a stand-in (`TestStoreProduct(localizedPriceString: "$1.99")`).
    private(set) lazy var logged: Bool = walk.isLogged(node)
        || ((handBuilt || price != nil || barePrice != nil || title) && walk.isStandInValue(node))
}
