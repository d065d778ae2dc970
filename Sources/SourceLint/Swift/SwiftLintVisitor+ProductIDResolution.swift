import SwiftSyntax

/// Product-ID sinks resolved in `finish` (`SwiftLintVisitor+ProductIDFlow.swift` gathers them during the walk).
extension SwiftLintVisitor {
    // MARK: Resolving in `finish`

    func reportProductIDSinks() {
        var flows: [[StringLiteralExprSyntax]] = []
        for sink in productIDSinks {
            var budget = 512
            resolvingSink = sink
            flows.append(valueLiterals(of: sink, depth: 0, hops: 0, budget: &budget))
        }
        for sequence in productIDSequences {
            var budget = 512
            resolvingSink = sequence.first
            flows.append(sequenceValueLiterals(sequence, depth: 0, hops: 0, budget: &budget))
        }
        resolvingSink = nil
        for flow in flows {
            for literal in flow {
                guard let text = plainText(literal), ProductIDText.isIDLike(text) else { continue }
                if requestedLiterals.insert(literal.id).inserted, !neverShips(literal) {
                    add(RequestedProductID.mark, text, at: literal)
                }
                guard context.productConstants[text] == nil else { continue }
                reportUnknown(text, at: literal)
            }
        }
    }

    /// Literals that reach only calls of unverified kind: a warning, unless the literal is a typo
    /// of a catalog ID or sits under the app's bundle ID (then it is meant as one). After `reportProductIDSinks`: a literal that
    /// also reaches StoreKit is reported there.
    func reportUnverifiedProductIDSinks() {
        for (sink, call) in unverifiedProductIDSinks {
            var budget = 512
            for literal in valueLiterals(of: sink, depth: 0, hops: 0, budget: &budget) {
                guard let text = plainText(literal), ProductIDText.isIDLike(text), context.productConstants[text] == nil,
                      !reportedLiterals.contains(literal.id) else { continue }
                if context.isAppStoreIDByItsShape(text) {
                    reportUnknown(text, at: literal)
                } else {
                    reportUnknown(text, at: literal, unverifiedCall: call)
                }
            }
        }
    }

    /// The string literals an expression's value can be, as far as the file shows.
    func valueLiterals(of expression: ExprSyntax, depth: Int, hops: Int, budget: inout Int) -> [StringLiteralExprSyntax] {
        budget -= 1
        guard depth < Self.maxValueDepth, budget > 0 else { return [] }
        let next = depth + 1
        if let literal = expression.as(StringLiteralExprSyntax.self) { return [literal] }
        if let array = expression.as(ArrayExprSyntax.self) {
            return array.elements.flatMap { valueLiterals(of: $0.expression, depth: next, hops: hops, budget: &budget) }
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if declaredValues[name] == nil { handOn(CrossFileAsks.name(name)) }
            return valuesNamed(name, at: expression, memberOnly: false, hops: hops, depth: next, budget: &budget)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else {
                // `.pro` of an enum: its raw value (another file's enum: handed on).
                if declaredValues[name] == nil { handOn(CrossFileAsks.enumCase(name)) }
                return valuesNamed(name, at: expression, memberOnly: true, hops: hops, depth: next, budget: &budget)
            }
            switch name {
            case "keys", "values":
                return dictionaryParts(of: base, keys: name == "keys", depth: next, hops: hops, budget: &budget)
            case "rawValue":
                return valueLiterals(of: base, depth: next, hops: hops, budget: &budget)
            default:
                // `Products.all`, `self.ids`, `Self.ids`: a property; `store.ids` of another object is not followed.
                guard let root = base.as(DeclReferenceExprSyntax.self)?.baseName.text,
                      root == "self" || root == "Self" || root.first?.isUppercase == true else {
                    // `Store.ProductID.pro`: a nested type's member, looked for in the other files.
                    if let path = Self.typePath(base), declaredValues[name] == nil { handOn(CrossFileAsks.member(path, name)) }
                    return []
                }
                // `ProductIDs.pro` declared in another file: handed on.
                if root.first?.isUppercase == true, root != "Self", declaredValues[name] == nil { handOn(CrossFileAsks.member(root, name)) }
                return valuesNamed(name, at: expression, memberOnly: root != "self", hops: hops, depth: next, budget: &budget)
            }
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return callValueLiterals(call, depth: next, hops: hops, budget: &budget)
        }
        if let lookup = expression.as(SubscriptCallExprSyntax.self) {
            // `table[kind]`: one of a dictionary's values.
            return dictionaryParts(of: lookup.calledExpression, keys: false, depth: next, hops: hops, budget: &budget)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return valueLiterals(of: only.expression, depth: next, hops: hops, budget: &budget)
        }
        if let unwrap = expression.as(ForceUnwrapExprSyntax.self) { return valueLiterals(of: unwrap.expression, depth: next, hops: hops, budget: &budget) }
        if let chain = expression.as(OptionalChainingExprSyntax.self) { return valueLiterals(of: chain.expression, depth: next, hops: hops, budget: &budget) }
        if let wait = expression.as(AwaitExprSyntax.self) { return valueLiterals(of: wait.expression, depth: next, hops: hops, budget: &budget) }
        if let attempt = expression.as(TryExprSyntax.self) { return valueLiterals(of: attempt.expression, depth: next, hops: hops, budget: &budget) }
        if let cast = expression.as(AsExprSyntax.self) { return valueLiterals(of: cast.expression, depth: next, hops: hops, budget: &budget) }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return valueLiterals(of: ternary.thenExpression, depth: next, hops: hops, budget: &budget)
                + valueLiterals(of: ternary.elseExpression, depth: next, hops: hops, budget: &budget)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return sequenceValueLiterals(Array(sequence.elements), depth: next, hops: hops, budget: &budget)
        }
        return []
    }

    /// `a ?? b`, `a + b`, `c ? a : b`, `x as! [String]`: the operands that can be the value.
    /// Any other operator makes something else (a `Bool`, a number).
    func sequenceValueLiterals(_ elements: [ExprSyntax], depth: Int, hops: Int, budget: inout Int) -> [StringLiteralExprSyntax] {
        // `c ? a : b`: the condition before `?` is not a value.
        if let last = elements.lastIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
           let ternary = elements[last].as(UnresolvedTernaryExprSyntax.self) {
            return valueLiterals(of: ternary.thenExpression, depth: depth, hops: hops, budget: &budget)
                + sequenceValueLiterals(Array(elements[(last + 1)...]), depth: depth, hops: hops, budget: &budget)
        }
        var operands: [ExprSyntax] = []
        var k = 0
        while k < elements.count {
            let element = elements[k]
            if let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text {
                guard op == "??" || op == "+" else { return [] }
            } else if element.is(UnresolvedAsExprSyntax.self) {
                k += 1 // the type after `as`
            } else if element.is(UnresolvedIsExprSyntax.self) || element.is(AssignmentExprSyntax.self) {
                return []
            } else if !element.is(TypeExprSyntax.self) {
                operands.append(element)
            }
            k += 1
        }
        return operands.flatMap { valueLiterals(of: $0, depth: depth, hops: hops, budget: &budget) }
    }

    /// `Set(ids)`, `Array(ids)`, `Set<String>(["…"])`, `ids.union(more)`, `ids.sorted()`,
    /// `Products.allCases.map(\.rawValue)`: calls that keep the values. Any other call makes
    /// something else from its arguments.
    func callValueLiterals(_ call: FunctionCallExprSyntax, depth: Int, hops: Int, budget: inout Int) -> [StringLiteralExprSyntax] {
        var typeName = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self) {
            typeName = generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text
        }
        if let typeName, ["Set", "Array", "NSSet", "NSArray", "NSOrderedSet", "OrderedSet"].contains(typeName) {
            // (Not `arguments.filter`: on a syntax collection that builds a new tree.)
            var found: [StringLiteralExprSyntax] = []
            for argument in call.arguments where argument.label == nil || argument.label?.text == "arrayLiteral" {
                found += valueLiterals(of: argument.expression, depth: depth, hops: hops, budget: &budget)
            }
            return found
        }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return [] }
        switch member.declName.baseName.text {
        case "union", "formUnion", "appending", "followedBy":
            return valueLiterals(of: base, depth: depth, hops: hops, budget: &budget)
                + call.arguments.flatMap { valueLiterals(of: $0.expression, depth: depth, hops: hops, budget: &budget) }
        case "sorted", "filter", "reversed", "shuffled", "uniqued", "prefix", "suffix", "dropFirst", "dropLast":
            return valueLiterals(of: base, depth: depth, hops: hops, budget: &budget)
        case "map", "compactMap":
            guard Self.mapsToRawValue(call) else { return [] }
            // `Products.allCases.map(\.rawValue)`: every raw value of the enum (another file's: handed on).
            if let all = base.as(MemberAccessExprSyntax.self), all.declName.baseName.text == "allCases",
               let type = all.base?.trimmedDescription {
                let name = type.hasPrefix("Self") ? (Self.enclosingTypeName(call) ?? type) : type
                guard let values = enumRawValues[name] ?? enumRawValues[CrossFileAsks.lastComponent(name)] else {
                    handOn(CrossFileAsks.cases(of: name))
                    return []
                }
                return values.flatMap { valueLiterals(of: $0, depth: depth, hops: hops, budget: &budget) }
            }
            return valueLiterals(of: base, depth: depth, hops: hops, budget: &budget)
        default:
            return []
        }
    }

    /// `.map(\.rawValue)`, `.map { $0.rawValue }`, `.map(\.id)`: a value's own identifier.
    static func mapsToRawValue(_ call: FunctionCallExprSyntax) -> Bool {
        let text = (call.arguments.first?.expression.trimmedDescription ?? call.trailingClosure?.trimmedDescription ?? "")
            .filter { !$0.isWhitespace }
        return ["\\.rawValue", "{$0.rawValue}", "\\.self", "{$0}"].contains(text)
    }

    /// The keys or the values of a dictionary literal (directly or by name).
    func dictionaryParts(of base: ExprSyntax, keys: Bool, depth: Int, hops: Int, budget: inout Int) -> [StringLiteralExprSyntax] {
        var dictionaries: [DictionaryExprSyntax] = []
        if let dictionary = base.as(DictionaryExprSyntax.self) {
            dictionaries = [dictionary]
        } else if let name = base.as(DeclReferenceExprSyntax.self)?.baseName.text ?? Self.propertyName(base) {
            for value in declarationValues(name, at: base, memberOnly: false) {
                if let dictionary = value.as(DictionaryExprSyntax.self) { dictionaries.append(dictionary) }
            }
        }
        var found: [StringLiteralExprSyntax] = []
        for dictionary in dictionaries {
            guard case .elements(let elements) = dictionary.content else { continue }
            for element in elements {
                found += valueLiterals(of: keys ? element.key : element.value, depth: depth, hops: hops, budget: &budget)
            }
        }
        return found
    }

    /// `Store.ProductID` as a member's base: its dotted type name; nil for anything else.
    static func typePath(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
              let root = base.as(DeclReferenceExprSyntax.self)?.baseName.text ?? typePath(base),
              root.first?.isUppercase == true, member.declName.baseName.text.first?.isUppercase == true else { return nil }
        return root + "." + member.declName.baseName.text
    }

    /// `self.ids` or `Store.ids` → `ids`.
    static func propertyName(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), let root = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
              root == "self" || root == "Self" || root.first?.isUppercase == true else { return nil }
        return member.declName.baseName.text
    }

    func valuesNamed(_ name: String, at use: some SyntaxProtocol, memberOnly: Bool, hops: Int, depth: Int,
                     budget: inout Int) -> [StringLiteralExprSyntax] {
        guard hops < Self.maxNameHops else { return [] }
        return declarationValues(name, at: use, memberOnly: memberOnly)
            .flatMap { valueLiterals(of: $0, depth: depth, hops: hops + 1, budget: &budget) }
    }

    /// The values a name holds where it is used: the innermost declaration whose scope holds
    /// the use (a local in this function, else a property or a file's constant), with what is
    /// assigned to it. A local of another function is never followed.
    func declarationValues(_ name: String, at use: some SyntaxProtocol, memberOnly: Bool) -> [ExprSyntax] {
        guard let declared = declaredValues[name] else { return [] }
        var best: (depth: Int, values: [ExprSyntax])?
        for (scope, value) in declared {
            let depth: Int?
            if scope.is(CodeBlockSyntax.self) || scope.is(ClosureExprSyntax.self) {
                // A local: only inside its own function or closure.
                depth = memberOnly ? nil : Self.ancestorDepth(of: scope, above: use)
            } else {
                // A type's member or a file's constant: seen from anywhere, its own type first.
                depth = Self.ancestorDepth(of: scope, above: use) ?? 0
            }
            guard let depth else { continue }
            if best == nil || depth > best!.depth { best = (depth, [value]) } else if depth == best!.depth { best!.values.append(value) }
        }
        guard let best else { return [] }
        return best.values + (assignedValues[name] ?? [])
    }

    /// How deep `scope` sits when it is an ancestor of `node` (1 + its distance from the root), or nil.
    static func ancestorDepth(of scope: Syntax, above node: some SyntaxProtocol) -> Int? {
        var current = node.parent
        while let syntax = current {
            if syntax.id == scope.id {
                var depth = 1
                var up = syntax.parent
                while let p = up { depth += 1; up = p.parent }
                return depth
            }
            current = syntax.parent
        }
        return nil
    }

    /// Where a declaration is seen: the function body or closure it is in, else its type or the file.
    static func scope(of node: some SyntaxProtocol) -> Syntax {
        var current = node.parent
        while let syntax = current {
            if syntax.is(CodeBlockSyntax.self) || syntax.is(ClosureExprSyntax.self) || syntax.is(MemberBlockSyntax.self)
                || syntax.is(SourceFileSyntax.self) {
                return syntax
            }
            current = syntax.parent
        }
        return Syntax(node)
    }

    static func enclosingTypeName(_ node: some SyntaxProtocol) -> String? {
        var current = node.parent
        while let syntax = current {
            if let d = syntax.as(EnumDeclSyntax.self) { return d.name.text }
            if let d = syntax.as(StructDeclSyntax.self) { return d.name.text }
            if let d = syntax.as(ClassDeclSyntax.self) { return d.name.text }
            if let d = syntax.as(ExtensionDeclSyntax.self) { return d.extendedType.trimmedDescription }
            current = syntax.parent
        }
        return nil
    }
}
