import Diagnostics
import SwiftSyntax

/// `hardcoded-product-id`. Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
/// IDs defined as constants are reported once the walk is done (`finish`).
public enum HardcodedProductIDRule: Rule {
    public static let description = RuleDescription(
        id: "hardcoded-product-id", name: "Hardcoded product ID", severity: .warning,
        rationale: "A product ID typed as a literal is a typo waiting to happen; use the generated constant, which the compiler checks. A file that defines the IDs as a table of literals is one finding that suggests `iap gen`.",
        triggering: [.init(#"let id = ↓"com.acme.app.coins""#), .init(#"NSString *pid = ↓@"com.acme.app.pro";"#, .objc),
                     .init("enum Products: String {\n    case coins = ↓\"com.acme.app.coins\"\n    case pro = \"com.acme.app.pro\"\n}"),
                     .init("#define kCoinsID ↓@\"com.acme.app.coins\"\n#define kProID @\"com.acme.app.pro\"", .objc)],
        nonTriggering: [.init(#"let id = ProductID.coins"#), .init(#"let text = "com.acme.app""#),
                        .init("#Preview {\n    StoreView(ids: [\"com.acme.app.coins\"])\n}")])
}

extension SwiftLintVisitor {
    /// Catalog IDs written where constants are defined (`definitions`), once the walk is done: one
    /// finding for a table of them, or the constant to use for a single one.
    func reportDefinitions() {
        if definitions.count >= 2 {
            let shown = definitions.prefix(3).map { "\(Quote.bounded($0.id))" }.joined(separator: ", ") + (definitions.count > 3 ? ", …" : "")
            add(HardcodedProductIDRule.description,
                "\(definitions.count) product IDs are defined here as string literals (\(shown)); generate them with `iap gen` so the compiler checks every use against the catalog",
                at: definitions[0].literal)
        } else if let only = definitions.first, let constant = context.productConstants[only.id] {
            add(HardcodedProductIDRule.description, "product ID \(Quote.bounded(only.id)) typed as a literal; use \(constant)", at: only.literal)
        }
    }

    /// Whether the literal defines a constant: an enum case's raw value, or the value (or an
    /// element of the array, set or dictionary) of a property or top-level constant.
    func isDefinition(_ node: StringLiteralExprSyntax) -> Bool {
        var current = node.parent
        while let syntax = current {
            if syntax.is(ArrayElementSyntax.self) || syntax.is(ArrayElementListSyntax.self) || syntax.is(ArrayExprSyntax.self)
                || syntax.is(DictionaryElementSyntax.self) || syntax.is(DictionaryElementListSyntax.self) || syntax.is(DictionaryExprSyntax.self)
                || syntax.is(LabeledExprSyntax.self) || syntax.is(LabeledExprListSyntax.self) || syntax.is(FunctionCallExprSyntax.self) {
                current = syntax.parent
                continue
            }
            guard let initializer = syntax.as(InitializerClauseSyntax.self) else { return false }
            if initializer.parent?.is(EnumCaseElementSyntax.self) == true { return true }
            guard let declaration = initializer.parent?.parent?.parent?.as(VariableDeclSyntax.self) else { return false }
            // A member of a type, or a constant at the top of the file; not a local in a function.
            if declaration.parent?.is(MemberBlockItemSyntax.self) == true { return true }
            return declaration.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
        }
        return false
    }
}

extension ObjCLinter {
    /// `#define kProID @"…"`, or `NSString *const kProID = @"…";` outside any body.
    func isDefinition(_ tokens: [Token], _ index: Int) -> Bool {
        let token = tokens[index]
        if token.inDefine, index >= 1, tokens[index - 1].kind == .identifier, tokens[index - 1].line == token.line { return true }
        guard index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .identifier else { return false }
        return structure.braceLevel(at: index) == 0
    }

    /// Catalog IDs written where constants are defined (`isDefinition`), once the walk is done: one
    /// finding for a table of them, or the constant to use for a single one.
    func productIDDefinitionFindings(_ tokens: [Token], _ definitions: [Int]) -> [Finding] {
        if definitions.count >= 2 {
            let first = tokens[definitions[0]]
            let shown = definitions.prefix(3).map { "\(Quote.bounded(tokens[$0].text))" }.joined(separator: ", ") + (definitions.count > 3 ? ", …" : "")
            return [Finding(rule: HardcodedProductIDRule.description, message: "\(definitions.count) product IDs are defined here as string literals (\(shown)); generate them with `iap gen` so the compiler checks every use against the catalog",
                            line: first.line, column: first.column)]
        } else if let only = definitions.first, let constant = context.productConstants[tokens[only].text] {
            return [Finding(rule: HardcodedProductIDRule.description, message: "product ID \(Quote.bounded(tokens[only].text)) typed as a literal; use the generated constant (\(constant))",
                            line: tokens[only].line, column: tokens[only].column)]
        }
        return []
    }
}

extension HardcodedProductIDRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal]

    /// A catalog ID typed as a literal; where constants are defined, kept for `finish`.
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        guard literal.catalogID, !literal.excluded else { return }
        if walk.isDefinition(literal.node) {
            walk.definitions.append((literal.node, literal.text))
        } else if let constant = walk.context.productConstants[literal.text] {
            walk.add(description, "product ID \(Quote.bounded(literal.text)) typed as a literal; use \(constant)", at: literal.node)
        }
    }

    static func finish(in walk: SwiftLintVisitor) {
        walk.reportDefinitions()
    }
}

extension HardcodedProductIDRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.string]

    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        let token = file.tokens[index]
        guard file.isShownString(index), let constant = file.context.productConstants[token.text] else { return }
        if file.linter.isDefinition(file.tokens, index) {
            file.definitions.append(index)
        } else {
            found.append(Finding(rule: description, message: "product ID \(Quote.bounded(token.text)) typed as a literal; use the generated constant (\(constant))",
                                 line: token.line, column: token.column))
        }
    }

    static func finish(in file: inout ObjCFile, into found: inout FindingList) {
        found += file.linter.productIDDefinitionFindings(file.tokens, file.definitions)
    }
}
