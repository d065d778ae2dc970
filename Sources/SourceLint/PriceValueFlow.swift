import SwiftSyntax

/// Prices followed by their values, not their names, for `price-float-conversion`: a local or
/// property bound to a product's price (`let amount = product.price`, `NSDecimalNumber *amount =
/// product.price;`), or to another such local, is a price wherever the binding is seen.
extension SwiftLintVisitor {
    /// The price an expression's value is, followed through the locals and properties that hold
    /// it whatever their names (`let amount = product.price` … `NSDecimalNumber(decimal:
    /// amount!)`): a `.price` member (`product.price`, `skProduct.price`, `storeProduct.price`;
    /// not `displayPrice`, a String), through `!`, `?`, parentheses, `as` casts, `?? 0`,
    /// `.decimalValue` and `NSDecimalNumber(decimal:)`: whether the `.price` is a product's by its
    /// name, or nil when the value is not a price as far as the file shows.
    func heldPrice(_ expression: ExprSyntax, hops: Int = 0) -> Bool? {
        guard facts.mayMentionPrice, hops < Self.maxNameHops else { return nil }
        var e = expression
        for _ in 0..<Self.maxValueDepth {
            if let inner = e.as(ForceUnwrapExprSyntax.self)?.expression ?? e.as(OptionalChainingExprSyntax.self)?.expression
                ?? e.as(TryExprSyntax.self)?.expression ?? e.as(AwaitExprSyntax.self)?.expression ?? e.as(AsExprSyntax.self)?.expression {
                e = inner
            } else if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
                e = only.expression
            } else if let sequence = e.as(SequenceExprSyntax.self), let first = sequence.elements.first, sequence.elements.count == 3,
                      sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true
                        || sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                // `amount as NSDecimalNumber`, `product?.price ?? 0`.
                e = first
            } else if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "decimalValue", let base = member.base {
                e = base
            } else if let call = e.as(FunctionCallExprSyntax.self), Self.calleeName(call) == "NSDecimalNumber", call.arguments.count == 1,
                      call.arguments.first?.label?.text == "decimal", let argument = call.arguments.first?.expression {
                e = argument
            } else {
                break
            }
        }
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "price", let base = member.base {
            return base.tokens(viewMode: .sourceAccurate).contains { $0.text.lowercased().contains("product") }
        }
        guard let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text, let value = boundValue(name, at: e) else { return nil }
        return heldPrice(value, hops: hops + 1)
    }

    /// The value a local or property is bound to where `use` sees it: the binding of the innermost
    /// scope around the use that binds the name (`boundValues`); nil when that binding has no
    /// value or none is seen. One walk up from the use, however many bindings the name has.
    func boundValue(_ name: String, at use: some SyntaxProtocol) -> ExprSyntax? {
        guard let byScope = boundValues[name] else { return nil }
        var current = use.parent
        while let syntax = current {
            if let bound = byScope[syntax.id] { return bound }
            current = syntax.parent
        }
        return nil
    }

    /// Bindings (`let amount = product.price`, `guard let amount = product?.price`) by name and
    /// the scope that sees them, for `heldPrice`: gathered in files that say price at all. An
    /// `if let`'s or `while let`'s binding is seen in its body; a `guard let`'s after it.
    func gatherBinding(name: String, value: ExprSyntax?, at node: some SyntaxProtocol) {
        guard facts.mayMentionPrice else { return }
        var scope = Self.scope(of: node)
        if node.is(OptionalBindingConditionSyntax.self), let conditions = node.parent?.parent?.as(ConditionElementListSyntax.self) {
            if let statement = conditions.parent?.as(IfExprSyntax.self) { scope = Syntax(statement.body) }
            if let statement = conditions.parent?.as(WhileStmtSyntax.self) { scope = Syntax(statement.body) }
        }
        boundValues[name, default: [:]][scope.id] = .some(value)
    }
}

extension ObjCLinter {
    /// A local bound to a price: where it is declared, the end of the block that sees it, and
    /// whether the price is a product's by its name.
    struct PriceValue {
        let declared: Int
        let end: Int
        let namesProduct: Bool
    }

    /// `NAME = product.price;`, `NAME = [product price];`, `NAME = (NSDecimalNumber *)skProduct.price;`,
    /// and `NAME = OTHER;` for an OTHER bound so before: the value is a `price` itself, not a
    /// `displayPrice` or `priceLocale`, nor anything computed from one.
    static func priceValues(_ tokens: [Token], _ structure: ObjCStructure) -> [String: [PriceValue]] {
        var found: [String: [PriceValue]] = [:]
        guard tokens.contains(where: { $0.kind == .identifier && $0.text == "price" }) else { return found }
        for i in tokens.indices.dropFirst() where tokens[i].text == "=" && tokens[i - 1].kind == .identifier {
            guard i + 1 < tokens.count, tokens[i + 1].text != "=", !(i >= 2 && tokens[i - 2].text == ".") else { continue }
            var a = i + 1
            let end = structure.stop(from: a)
            guard end < tokens.count, tokens[end].text == ";" else { continue }
            // A C cast: `(NSDecimalNumber *)`.
            // A cast is a few tokens: no longer scan, however long the statement.
            if a < end, tokens[a].text == "(", let close = (a..<min(end, a + 8)).first(where: { tokens[$0].text == ")" }),
               tokens[(a + 1)..<close].allSatisfy({ $0.kind == .identifier || $0.text == "*" }) {
                a = close + 1
            }
            var b = end
            if b - a >= 3, tokens[a].text == "[", tokens[b - 1].text == "]" { a += 1; b -= 1 }
            let value = tokens[a..<b]
            guard !value.isEmpty, value.allSatisfy({ $0.kind == .identifier || $0.text == "." }) else { continue }
            let namesProduct: Bool
            if value.last?.text == "price", value.count >= 2 {
                namesProduct = value.dropLast().contains { NameWords.contains($0.text, "product") }
            } else if value.count == 1, let other = Self.priceValue(seenAt: i, in: found[tokens[a].text] ?? []) {
                namesProduct = other
            } else {
                continue
            }
            found[tokens[i - 1].text, default: []].append(PriceValue(declared: i, end: structure.braces.closer(enclosing: i), namesProduct: namesProduct))
        }
        return found
    }

    /// Whether the name at `index` is a local bound to a price there (`priceValues`): nil when it
    /// is not; else whether the price is a product's by its name.
    func heldPrice(_ tokens: [Token], name index: Int) -> Bool? {
        Self.priceValue(seenAt: index, in: priceValues[tokens[index].text] ?? [])
    }

    /// The latest of `values` (in the order declared) whose block holds `index`, looked for among
    /// the few declared last before it: each use costs a binary search, however many there are.
    static func priceValue(seenAt index: Int, in values: [PriceValue]) -> Bool? {
        var (low, high) = (0, values.count)
        while low < high {
            let mid = (low + high) / 2
            if values[mid].declared < index { low = mid + 1 } else { high = mid }
        }
        for k in stride(from: low - 1, through: max(0, low - 8), by: -1) where index <= values[k].end { return values[k].namesProduct }
        return nil
    }
}
