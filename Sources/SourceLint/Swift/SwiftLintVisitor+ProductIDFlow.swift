import SwiftSyntax

/// Product-ID literals by data flow. A string literal is used as a product ID only where its
/// value reaches a product-ID sink: handed to StoreKit (`Product.products(for:)`,
/// `SKProductsRequest(productIdentifiers:)`, StoreKit's views, `Transaction.latest(for:)`),
/// compared with or assigned to a product's identifier, tested with `contains` against one, or
/// matched by a `switch` over one, directly or through a variable, a collection, `Set(…)`,
/// `?:`, `??`, `+` or a cast. A literal that is only an argument of another call on the way
/// (`Bundle.main.url(forResource: "IAP_ProductIDs", …)`), a dictionary's key or value, or text
/// is never one.
///
/// Sinks are gathered during the walk and resolved in `finish`, when every declaration in the
/// file is known (a property may be declared below the method that uses it).
extension SwiftLintVisitor {
    /// Calls whose argument (by label) is one or more product IDs.
    static let productIDSinks: [String: Set<String>] = [
        "products": ["for"], "SKProductsRequest": ["productIdentifiers"], "ProductView": ["id"], "StoreView": ["ids"],
        "SubscriptionStoreView": ["productIDs"], "SKMutablePayment": ["productIdentifier"],
    ]
    /// `Transaction.latest(for:)` and friends: only with `Transaction` as the base.
    static let transactionSinks: Set<String> = ["latest", "currentEntitlement", "currentEntitlements", "all"]
    /// How many names a value is followed through (`let a = b`, `let b = ["…"]`), and how deep
    /// an expression is taken apart: real code needs a few; hostile code gets no further.
    static let maxNameHops = 6
    static let maxValueDepth = 24

    /// Any argument whose label says it takes product IDs (`IAPHelper(productIds:)`,
    /// `hasActiveSubscription(ofProductIdentifier:)`, `forProductID:`).
    static func labelTakesProductIDs(_ label: String) -> Bool {
        let lower = label.lowercased()
        return ["productid", "productids", "productidentifier", "productidentifiers"].contains { lower.hasSuffix($0) }
    }

    // MARK: Gathering sinks and values during the walk

    /// StoreKit's calls, and in-app purchase SDKs' (`ProductIDCall.appStore`), are sinks; another
    /// call whose label says product ID is one of unverified kind (an app's helper, an unknown
    /// SDK: a warning), unless it is another store's (`PADProduct(productID:)`: none).
    func gatherProductIDSinks(_ node: FunctionCallExprSyntax) {
        guard !context.productConstants.isEmpty, let callee = Self.calleeName(node) else { return }
        let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription
        let root = Self.callRoot(node)
        let kind = ProductIDCall.kind(root: root, initializer: node.calledExpression.is(DeclReferenceExprSyntax.self))
        guard kind != .otherStore else { return }
        for argument in node.arguments {
            let label = argument.label?.text ?? ""
            if Self.productIDSinks[callee]?.contains(label) == true
                || (base == "Transaction" && Self.transactionSinks.contains(callee) && label == "for")
                || root.flatMap({ ProductIDCall.sdkSinks[$0]?[callee]?.contains(label) }) == true {
                productIDSinks.append(argument.expression)
            } else if Self.labelTakesProductIDs(label) {
                if kind == .appStore {
                    productIDSinks.append(argument.expression)
                } else {
                    unverifiedProductIDSinks.append((argument.expression, "`\(callee)(\(label):)`"))
                }
            }
        }
        // `ids.contains(product.id)`: the collection holds product IDs.
        if callee == "contains", node.arguments.count == 1, let argument = node.arguments.first, argument.label == nil,
           Self.isProductIDExpression(argument.expression), let collection = node.calledExpression.as(MemberAccessExprSyntax.self)?.base {
            productIDSinks.append(collection)
        }
    }

    /// `product.id == "…"` and `"…" != transaction.productID` (each comparison's own operands,
    /// not every literal of a longer condition), and `payment.productIdentifier = "…"`.
    func gatherProductIDComparisons(_ node: SequenceExprSyntax) {
        // Without a catalog there is no product ID to check: nothing is gathered.
        guard !context.productConstants.isEmpty else { return }
        let elements = Array(node.elements)
        if let (name, value) = Self.assignedValue(elements) {
            assignedValues[name, default: []].append(value)
        }
        for k in elements.indices {
            guard let op = elements[k].as(BinaryOperatorExprSyntax.self)?.operator.text else { continue }
            if op == "==" || op == "!=", k >= 1, k + 1 < elements.count {
                if Self.isProductIDExpression(elements[k - 1]) { productIDSinks.append(elements[k + 1]) }
                if Self.isProductIDExpression(elements[k + 1]) { productIDSinks.append(elements[k - 1]) }
            }
        }
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self), let target = elements[0].as(MemberAccessExprSyntax.self),
           Self.isProductIDName(target.declName.baseName.text) {
            productIDSinks.append(contentsOf: elements.count == 3 ? [elements[2]] : [])
            if elements.count > 3 { productIDSequences.append(Array(elements[2...])) }
        }
    }

    /// `switch product.id { case "…": }`.
    func gatherProductIDSwitch(_ node: SwitchExprSyntax) {
        guard !context.productConstants.isEmpty, Self.isProductIDExpression(node.subject) else { return }
        for case .switchCase(let switchCase) in node.cases {
            guard let label = switchCase.label.as(SwitchCaseLabelSyntax.self) else { continue }
            for item in label.caseItems {
                if let expression = item.pattern.as(ExpressionPatternSyntax.self)?.expression { productIDSinks.append(expression) }
            }
        }
    }

    /// A variable's or property's value, and an enum case's raw value, by name.
    func gatherDeclaration(name: String, value: ExprSyntax, at node: some SyntaxProtocol) {
        guard !context.productConstants.isEmpty else { return }
        declaredValues[name, default: []].append((Self.scope(of: node), value))
    }

    func gatherEnumCase(_ node: EnumCaseElementSyntax) {
        guard !context.productConstants.isEmpty, let value = node.rawValue?.value else { return }
        declaredValues[node.name.text, default: []].append((Self.scope(of: node), value))
        if let type = Self.enclosingTypeName(node) { enumRawValues[type, default: []].append(value) }
    }

    /// `ids = [...]`, `self.ids = [...]`: (name, value).
    static func assignedValue(_ elements: [ExprSyntax]) -> (String, ExprSyntax)? {
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        if let reference = elements[0].as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, elements[2]) }
        if let member = elements[0].as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           base.baseName.text == "self" {
            return (member.declName.baseName.text, elements[2])
        }
        return nil
    }

    static func isProductIDName(_ name: String) -> Bool {
        ["productID", "productId", "productIdentifier"].contains(name)
    }

    /// An expression whose value is a product's ID itself: `product.id`, `transaction.productID`,
    /// `payment?.productIdentifier`, a local `purchasedProductID`. Not a value made from one
    /// (`product.id.components(separatedBy: ".").last`, `product.id.uppercased()`): a literal
    /// compared with that is a part or a form of an ID, not an ID.
    static func isProductIDExpression(_ expression: ExprSyntax) -> Bool {
        var e = expression
        while true {
            if let inner = e.as(ForceUnwrapExprSyntax.self)?.expression ?? e.as(OptionalChainingExprSyntax.self)?.expression
                ?? e.as(AwaitExprSyntax.self)?.expression ?? e.as(TryExprSyntax.self)?.expression {
                e = inner
            } else if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
                e = only.expression
            } else {
                break
            }
        }
        func namesID(_ name: String) -> Bool {
            let lower = name.lowercased()
            return lower.hasSuffix("productid") || lower.hasSuffix("productidentifier")
        }
        if let reference = e.as(DeclReferenceExprSyntax.self) { return namesID(reference.baseName.text) }
        guard let member = e.as(MemberAccessExprSyntax.self) else { return false }
        let name = member.declName.baseName.text
        if namesID(name) { return true }
        return name == "id" && mentionsProductID(member)
    }

    // MARK: Resolving in `finish`

    func reportProductIDSinks() {
        var flows: [[StringLiteralExprSyntax]] = []
        for sink in productIDSinks {
            var budget = 512
            flows.append(valueLiterals(of: sink, depth: 0, hops: 0, budget: &budget))
        }
        for sequence in productIDSequences {
            var budget = 512
            flows.append(sequenceValueLiterals(sequence, depth: 0, hops: 0, budget: &budget))
        }
        for flow in flows {
            for literal in flow {
                guard let text = plainText(literal), ProductIDText.isIDLike(text), context.productConstants[text] == nil else { continue }
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
            return valuesNamed(reference.baseName.text, at: expression, memberOnly: false, hops: hops, depth: next, budget: &budget)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else {
                // `.pro` of an enum: its raw value.
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
                      root == "self" || root == "Self" || root.first?.isUppercase == true else { return [] }
                return valuesNamed(name, at: expression, memberOnly: root != "self", hops: hops, depth: next, budget: &budget)
            }
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return callValueLiterals(call, depth: next, hops: hops, budget: &budget)
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
        case "sorted", "filter", "reversed", "shuffled", "uniqued", "compactMap", "prefix", "suffix", "dropFirst", "dropLast":
            if member.declName.baseName.text == "compactMap", !Self.mapsToRawValue(call) { return [] }
            return valueLiterals(of: base, depth: depth, hops: hops, budget: &budget)
        case "map":
            guard Self.mapsToRawValue(call) else { return [] }
            // `Products.allCases.map(\.rawValue)`: every raw value of the enum.
            if let all = base.as(MemberAccessExprSyntax.self), all.declName.baseName.text == "allCases",
               let type = all.base?.trimmedDescription {
                return enumRawValues[type.hasPrefix("Self") ? (Self.enclosingTypeName(call) ?? type) : type]?
                    .flatMap { valueLiterals(of: $0, depth: depth, hops: hops, budget: &budget) } ?? []
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

    // MARK: Where a literal can never be a product ID

    /// Argument labels whose strings name resources, keys, notifications or log categories.
    static let namingLabels: Set<String> = ["forResource", "ofType", "withExtension", "named", "forKey", "forKeyPath", "key",
                                            "systemName", "imageName", "withIdentifier", "reuseIdentifier", "accessibilityIdentifier",
                                            "suiteName", "forInfoDictionaryKey", "domain", "subsystem", "category", "rawValue",
                                            "forName", "name", "bundleIdentifier", "inDirectory", "subdirectory", "withName"]

    /// A resource name, a dictionary's key or value, a subscript key, a notification name, a
    /// user-defaults key, a log or error text: never a product ID, whatever it looks like.
    func isNamingPosition(_ node: StringLiteralExprSyntax) -> Bool {
        guard let parent = node.parent else { return false }
        if parent.is(DictionaryElementSyntax.self) { return true }
        if let argument = parent.as(LabeledExprSyntax.self) {
            if let label = argument.label?.text, Self.namingLabels.contains(label) { return true }
            if argument.parent?.parent?.is(SubscriptCallExprSyntax.self) == true { return true }
            if let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                let callee = call.calledExpression.trimmedDescription
                if callee.hasSuffix("Notification.Name") || callee == "Name" || callee == "NSError" || callee == "Logger" { return true }
            }
        }
        return false
    }
}
