import Diagnostics
import PriceFormatting
import SwiftSyntax

/// The lint rules over one Swift syntax tree, in one walk that serves every rule and gathers
/// the file's facts (`SwiftFileFacts`): the visits below keep the nodes a rule of
/// `LintRules.swift` wants (`SwiftLintRule`), and `finish` hands them to the rules that read
/// their kind, in the order of the walk, once every fact is known. Each rule's checks and messages
/// are in its own file (`Rules/<Family>/<Name>Rule.swift`); this class names no rule. String
/// literals, which several rules read, are sorted out once (`SwiftLiteral`).
final class SwiftLintVisitor: SyntaxVisitor {
    let context: LintContext
    let path: String
    let tree: SourceFileSyntax
    /// Made when a finding or a comment asks for a line: most files have neither.
    lazy var converter = SourceLocationConverter(fileName: path, tree: tree)
    /// The file's bytes (for `isPlainType`).
    let bytes: [UInt8]
    let facts: SwiftFileFacts
    /// The whole file is a preview, mock or fixture (by its path).
    let neverShippedFile: Bool
    var findings: [Finding] = []
    /// Expressions whose values are product IDs (see `SwiftLintVisitor+ProductIDFlow`).
    var productIDSinks: [ExprSyntax] = []
    /// Arguments whose label says product ID, of calls that are not StoreKit's or a known SDK's
    /// (`ProductIDCall.unverified`), with the call as the message names it.
    var unverifiedProductIDSinks: [(expression: ExprSyntax, call: String)] = []
    /// Literals shaped like a typo of a catalog ID: (literal, its text, the catalog ID).
    var misspellings: [(StringLiteralExprSyntax, String, String)] = []
    /// Operands of an assignment to a product's identifier that are a sequence (`a ? "x" : "y"`).
    var productIDSequences: [[ExprSyntax]] = []
    /// Name → (where it is seen, the value it is declared with), for variables, properties and enum cases.
    var declaredValues: [String: [(scope: Syntax, value: ExprSyntax)]] = [:]
    /// Name → values assigned to it after its declaration (`ids = […]`, `self.ids = […]`).
    var assignedValues: [String: [ExprSyntax]] = [:]
    /// Name → the scope that sees a binding of it → the value it is bound to, for `heldPrice`.
    var boundValues: [String: [SyntaxIdentifier: ExprSyntax?]] = [:]
    /// Enum type name → its cases' raw values (for `allCases.map(\.rawValue)`).
    var enumRawValues: [String: [ExprSyntax]] = [:]
    /// The sink being resolved in `reportProductIDSinks`: where an ask that names what another
    /// file declares (an enum's cases, a type's constant) is handed on (`CrossFileAsks`).
    var resolvingSink: ExprSyntax?
    /// How many asks and offers the file handed on: each is capped (`CrossFileAsks`).
    var handedOn = (asked: 0, offered: 0)
    /// Literals already reported as unknown product IDs.
    var reportedLiterals = Set<SyntaxIdentifier>()
    /// Literals already handed on as requested product IDs (`RequestedProductID`).
    var requestedLiterals = Set<SyntaxIdentifier>()
    /// Catalog IDs written where constants are defined (enum raw values, `static let`): one
    /// finding for them all, in `finish()`.
    var definitions: [(literal: StringLiteralExprSyntax, id: String)] = []
    /// The nodes to check once the walk is done, in the order of the walk: each kept only when a
    /// rule that reads its kind wants it.
    private var pending: [SwiftNode] = []

    /// The Swift rules of `LintRules.swift` that read each kind of node (by `Kind.rawValue`), in
    /// the registry's order.
    static let rules: [[any SwiftLintRule.Type]] = SwiftNode.Kind.allCases.map { kind in
        LintRules.swift.filter { $0.swiftNodes.contains(kind) }
    }

    /// The last declaration `bindsPriceName` was asked of, and its answer.
    private var priceNameAnswer: (id: SyntaxIdentifier, names: Bool)?

    /// Whether a binding of the declaration has a name that says price (`LintScope.namesPrice`):
    /// what the rules about stored prices want of a declaration, worked out once for them all.
    func bindsPriceName(_ declaration: VariableDeclSyntax) -> Bool {
        if let answer = priceNameAnswer, answer.id == declaration.id { return answer.names }
        let names = declaration.bindings.contains { binding in
            binding.pattern.as(IdentifierPatternSyntax.self).map { LintScope.namesPrice($0.identifier.text) } ?? false
        }
        priceNameAnswer = (declaration.id, names)
        return names
    }

    /// Keeps `node` for `finish` when a rule that reads its kind wants it.
    private func offer(_ node: SwiftNode) {
        for rule in Self.rules[node.kind.rawValue] where rule.wants(node, in: self) {
            pending.append(node)
            return
        }
    }

    init(context: LintContext, path: String, tree: SourceFileSyntax, source: String, facts: SwiftFileFacts, neverShippedFile: Bool) {
        self.context = context
        self.path = path
        self.tree = tree
        bytes = Array(source.utf8)
        self.facts = facts
        self.neverShippedFile = neverShippedFile
        super.init(viewMode: .sourceAccurate)
    }

    func add(_ rule: RuleDescription, _ message: String, at node: some SyntaxProtocol, severity: Severity? = nil, holder: String? = nil) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(rule: rule, message: message, line: location.line, column: location.column, severity: severity, holder: holder))
    }

    /// The checks of the nodes kept in the walk, in its order; then what each rule reports from the
    /// whole file (literals that flow into product-ID sinks, product IDs defined as a table of literals).
    func finish() {
        for node in pending {
            let rules = Self.rules[node.kind.rawValue]
            if case .literal(let literal) = node {
                let literal = SwiftLiteral(literal, in: self)
                for rule in rules { rule.check(literal, in: self) }
            } else {
                for rule in rules { rule.check(node, in: self) }
            }
        }
        pending = []
        for rule in LintRules.swift { rule.finish(in: self) }
    }

    // MARK: Visits (each rule's checks are in its file under Rules/)

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        offer(.literal(node))
        return .visitChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        facts.gather(node)
        return .skipChildren
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        facts.gather(node)
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { gatherBinding(name: name, value: node.initializer?.value, at: node) }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        // `if let amount = product?.price`; `if let amount` keeps the value of the name it shadows.
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value {
            gatherBinding(name: name, value: value, at: node)
        }
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if let value = binding.initializer?.value ?? Self.computedValue(binding.accessorBlock) { gatherDeclaration(name: name, value: value, at: node) }
        }
        offer(.variable(node))
        return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
        gatherEnumCase(node)
        return .visitChildren
    }

    override func visit(_ node: EnumCaseParameterSyntax) -> SyntaxVisitorContinueKind {
        offer(.enumCaseParameter(node))
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        facts.gather(node)
        gatherProductIDSinks(node)
        offer(.call(node))
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        offer(.member(node))
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        facts.gather(node)
        gatherProductIDComparisons(node)
        offer(.sequence(node))
        return .visitChildren
    }

    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
        gatherProductIDSwitch(node)
        return .visitChildren
    }

    // Types: no rule reads a node in one (`checkStoredPrice` reads a declaration's type from the
    // declaration), and a type holds no expression but an integer (`InlineArray<3, Int>`) or one
    // in an attribute's arguments (`@_opaqueReturnTypeOf("…", 0)`). A type without an attribute
    // is not walked.

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: OptionalTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: ImplicitlyUnwrappedOptionalTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: ArrayTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: DictionaryTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: FunctionTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: TupleTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: SomeOrAnyTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: CompositionTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }
    override func visit(_ node: MetatypeTypeSyntax) -> SyntaxVisitorContinueKind { typeVisit(node) }

    // Nodes whose children are tokens only (names, literals' digits, a string's text, modifiers):
    // no rule reads a node below them, and no fact is there. The tokens are not walked unless the
    // parser left something unexpected or missing there (where it may have put any node).

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: IntegerLiteralExprSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: FloatLiteralExprSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: BooleanLiteralExprSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: NilLiteralExprSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: StringSegmentSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }
    override func visit(_ node: DeclModifierSyntax) -> SyntaxVisitorContinueKind { tokensOnly(node) }

    private func tokensOnly(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        node.hasError ? .visitChildren : .skipChildren
    }

    /// Skips a type with no attribute (no `@` in its text, trivia included) and nothing the
    /// parser left unexpected or missing (where it may have put any node).
    private func typeVisit(_ node: some TypeSyntaxProtocol) -> SyntaxVisitorContinueKind {
        if node.hasError { return .visitChildren }
        let start = node.position.utf8Offset, end = node.endPosition.utf8Offset
        guard start >= 0, end <= bytes.count, start <= end else { return .visitChildren }
        return bytes[start..<end].contains(0x40) ? .visitChildren : .skipChildren
    }

    // MARK: Where a node sits

    /// Whether the node is in code that never reaches a customer: a `#Preview`, a
    /// `PreviewProvider`, an `#if DEBUG` branch, or a type, function or property named for
    /// previews, mocks or fixtures.
    func neverShips(_ node: some SyntaxProtocol) -> Bool {
        if neverShippedFile { return true }
        var current = node.parent
        while let syntax = current {
            if let clause = syntax.as(IfConfigClauseSyntax.self), Self.isDebugOnly(clause) { return true }
            if let macro = syntax.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Preview" { return true }
            if let macro = syntax.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Preview" { return true }
            if let name = Self.declaredName(syntax), LintScope.namesNeverShippedCode(name) { return true }
            if let types = Self.inheritedTypes(syntax), types.contains(where: { $0.hasSuffix("PreviewProvider") }) { return true }
            current = syntax.parent
        }
        return false
    }

    /// Whether the node is in a declaration named for logging or analytics (`analyticsName`),
    /// or an argument of a logging call: what is there is recorded, not shown.
    func isLogged(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let syntax = current {
            if let name = Self.declaredName(syntax), LintScope.namesLogging(name) { return true }
            if let call = syntax.as(FunctionCallExprSyntax.self), isLoggingCall(call) { return true }
            current = syntax.parent
        }
        return false
    }

    func isLoggingCall(_ call: FunctionCallExprSyntax) -> Bool { Self.isLoggingCall(call) }

    static func isLoggingCall(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = Self.calleeName(call) else { return false }
        if LintScope.loggingCalls.contains(name) || name.lowercased().contains("logevent") || name.lowercased().hasPrefix("track") {
            return true
        }
        if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription {
            return LintScope.namesLogging(base)
        }
        return false
    }

    static func isDebugOnly(_ clause: IfConfigClauseSyntax) -> Bool {
        guard let condition = clause.condition?.trimmedDescription.replacingOccurrences(of: " ", with: "") else {
            // `#else` of `#if !DEBUG`.
            guard let first = clause.parent?.as(IfConfigClauseListSyntax.self)?.first?.condition?.trimmedDescription else { return false }
            return first.replacingOccurrences(of: " ", with: "") == "!DEBUG"
        }
        return condition == "DEBUG" || condition.hasPrefix("DEBUG&&") || condition.hasSuffix("&&DEBUG")
            || condition == "targetEnvironment(simulator)"
    }

    /// The name a declaration introduces: a type, an extension's type, a function, a variable.
    static func declaredName(_ syntax: Syntax) -> String? {
        if let d = syntax.as(StructDeclSyntax.self) { return d.name.text }
        if let d = syntax.as(ClassDeclSyntax.self) { return d.name.text }
        if let d = syntax.as(EnumDeclSyntax.self) { return d.name.text }
        if let d = syntax.as(ActorDeclSyntax.self) { return d.name.text }
        if let d = syntax.as(ExtensionDeclSyntax.self) { return d.extendedType.trimmedDescription }
        if let d = syntax.as(FunctionDeclSyntax.self) { return d.name.text }
        if let d = syntax.as(PatternBindingSyntax.self) { return d.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        return nil
    }

    static func inheritedTypes(_ syntax: Syntax) -> [String]? {
        let clause = syntax.as(StructDeclSyntax.self)?.inheritanceClause ?? syntax.as(ClassDeclSyntax.self)?.inheritanceClause
            ?? syntax.as(EnumDeclSyntax.self)?.inheritanceClause ?? syntax.as(ExtensionDeclSyntax.self)?.inheritanceClause
        return clause?.inheritedTypes.map { $0.type.trimmedDescription }
    }

    /// `Float` in `Float(x)`, `products` in `Product.products(for:)`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }

    // MARK: Helpers

    /// `name.property = value` as (name without `self.`, property, value), read from the tree
    /// without printing the statement (statements hold whole nested blocks).
    static func assignment(_ sequence: SequenceExprSyntax) -> (String, String, ExprSyntax)? {
        guard sequence.elements.count == 3 else { return nil }
        var elements = sequence.elements.makeIterator()
        guard let target = elements.next()?.as(MemberAccessExprSyntax.self), let base = target.base,
              elements.next()?.is(AssignmentExprSyntax.self) == true, let value = elements.next() else { return nil }
        let property = target.declName.baseName.text
        guard ["numberStyle", "locale", "currencyCode"].contains(property) else { return nil }
        let name = bareName(base.trimmedDescription)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
        return (name, property, value)
    }

    /// `self.formatter` → `formatter`.
    static func bareName(_ name: String) -> String {
        name.hasPrefix("self.") ? String(name.dropFirst(5)) : name
    }

    func literals(in expression: ExprSyntax) -> [StringLiteralExprSyntax] {
        literalsIn(Syntax(expression))
    }

    func literalsIn(_ node: Syntax) -> [StringLiteralExprSyntax] {
        if let literal = node.as(StringLiteralExprSyntax.self) { return [literal] }
        return node.children(viewMode: .sourceAccurate).flatMap(literalsIn)
    }

    func plainText(_ literal: StringLiteralExprSyntax) -> String? {
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }

    /// Whether `name` is one of the expression's identifier tokens (read without printing it).
    static func mentions(_ expression: some SyntaxProtocol, _ names: Set<String>) -> Bool {
        expression.tokens(viewMode: .sourceAccurate).contains {
            if case .identifier(let text) = $0.tokenKind { names.contains(text) } else { false }
        }
    }

    /// Whether an expression is about a price: a token that names one (`price`, `skProduct.price`).
    func mentionsPrice(_ expression: some SyntaxProtocol) -> Bool {
        facts.mayMentionPrice && Self.tokensMentionPrice(expression)
    }

    static func tokensMentionPrice(_ expression: some SyntaxProtocol) -> Bool {
        expression.tokens(viewMode: .sourceAccurate).contains {
            if case .identifier(let text) = $0.tokenKind { text.lowercased().contains("price") && text != "priceLocale" } else { false }
        }
    }
}
