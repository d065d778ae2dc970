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

    /// What a computed property's getter returns when it is one expression (`var ids: [String] { [...] }`,
    /// `var ids: [String] { get { return [...] } }`): its value, as a stored property's initializer is.
    static func computedValue(_ block: AccessorBlockSyntax?) -> ExprSyntax? {
        guard let block else { return nil }
        let items: CodeBlockItemListSyntax
        switch block.accessors {
        case .getter(let list):
            items = list
        case .accessors(let list):
            guard list.count == 1, let getter = list.first, getter.accessorSpecifier.tokenKind == .keyword(.get),
                  let body = getter.body else { return nil }
            items = body.statements
        }
        guard items.count == 1, let item = items.first?.item else { return nil }
        if let expression = item.as(ExprSyntax.self) { return expression }
        return item.as(ReturnStmtSyntax.self)?.expression
    }

    /// A variable's or property's value, and an enum case's raw value, by name.
    func gatherDeclaration(name: String, value: ExprSyntax, at node: some SyntaxProtocol) {
        guard !context.productConstants.isEmpty else { return }
        let scope = Self.scope(of: node)
        declaredValues[name, default: []].append((scope, value))
        // A type's constant or a file's: other files may ask for it by name.
        if scope.is(MemberBlockSyntax.self) {
            if let type = Self.enclosingTypeName(node) { offerAcrossFiles(value, as: CrossFileAsks.member(type, name)) }
        } else if scope.is(SourceFileSyntax.self) {
            offerAcrossFiles(value, as: CrossFileAsks.name(name))
        }
    }

    func gatherEnumCase(_ node: EnumCaseElementSyntax) {
        guard !context.productConstants.isEmpty, let value = node.rawValue?.value else { return }
        declaredValues[node.name.text, default: []].append((Self.scope(of: node), value))
        if let type = Self.enclosingTypeName(node) {
            enumRawValues[type, default: []].append(value)
            offerAcrossFiles(value, as: CrossFileAsks.cases(of: type))
            offerAcrossFiles(value, as: CrossFileAsks.member(type, node.name.text))
            offerAcrossFiles(value, as: CrossFileAsks.enumCase(node.name.text, of: type))
        }
    }

    /// Offers the product IDs a declaration's value holds (a literal, or an array of literals) to
    /// the other files' asks under `key` (`CrossFileAsks`).
    func offerAcrossFiles(_ value: ExprSyntax, as key: String) {
        let literals = value.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [value]
        for expression in literals {
            guard handedOn.offered < CrossFileAsks.maxOffered, let literal = expression.as(StringLiteralExprSyntax.self),
                  let text = plainText(literal), ProductIDText.isIDLike(text) else { continue }
            handedOn.offered += 1
            // An offer has no place of its own (the asks have theirs): no line to work out.
            findings.append(Finding(rule: CrossFileAsks.offerMark, message: key + CrossFileAsks.separator + text, line: 0, column: 0))
        }
    }

    /// Hands on an ask this file cannot resolve: the sink being resolved asks for what `key`
    /// names, which another file may declare.
    func handOn(_ key: String) {
        guard let sink = resolvingSink, !context.productConstants.isEmpty, handedOn.asked < CrossFileAsks.maxAsked, !neverShips(sink) else { return }
        handedOn.asked += 1
        add(CrossFileAsks.askMark, key, at: sink)
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
