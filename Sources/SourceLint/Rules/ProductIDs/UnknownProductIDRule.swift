import Diagnostics
import SwiftSyntax

/// `unknown-product-id`. Found in the one walk over string literals, by where each value flows
/// (`SwiftLintVisitor+ProductIDFlow`, `ObjCProductIDFlow`) or by its shape
/// (`LintContext.misspelledID`).
public enum UnknownProductIDRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-product-id", name: "Unknown product ID", severity: .error,
        rationale: "A literal whose value reaches StoreKit, an in-app purchase SDK or a product's identifier (directly, through a variable, a collection or Set(…)) that the catalog lacks never loads, nor does one a typo away from a catalog ID. Another call whose label says product ID (an app's helper, an SDK not known to take App Store IDs) is a warning: the ID may be another store's; another store's or a licensing SDK's (Paddle's PADProduct(productID:)) is none. Resource names, dictionary keys and values, user-defaults keys, notification names and log text are never product IDs, nor are other identifiers under the bundle ID (UTTypes, XPC services, shortcuts).",
        triggering: [.init(#"let id = ↓"com.acme.app.coinz""#),
                     .init(#"let products = try await Product.products(for: [↓"gold_pack"])"#),
                     .init("let ids: Set<String> = [↓\"extra.lives\"]\nlet request = SKProductsRequest(productIdentifiers: ids)"),
                     .init("if transaction.productID == ↓\"com.acme.app.gold\" {\n    unlock()\n}"),
                     .init("switch product.id {\ncase ↓\"com.acme.app.gold\": unlock()\ndefault: break\n}"),
                     .init("let monthly = store.products.first { $0.id == ↓\"com.acme.app.monthly\" }"),
                     .init(#"NSSet *ids = [NSSet setWithObject:↓@"com.acme.app.coinz"];"#, .objc),
                     .init(#"if ([transaction.payment.productIdentifier isEqualToString:↓@"com.acme.app.gold"]) {}"#, .objc),
                     .init("NSArray *ids = @[@\"com.acme.app.coins\", ↓@\"gold_pack\"];\nSKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:ids]];", .objc),
                     .init(#"let license = LicenseManager(productID: ↓"534403")"#)],
        nonTriggering: [.init(#"let products = try await Product.products(for: ["com.acme.app.coins"])"#), .init(#"let key = "settings.volume""#),
                        .init(#"let product = PADProduct(productID: "534403", productType: .sdkProduct, configuration: nil)"#),
                        .init(#"PADProduct *p = [[PADProduct alloc] initWithProductID:@"534403" productType:PADProductTypeSDKProduct configuration:nil];"#, .objc),
                        .init(#"let type = UTType(exportedAs: "com.acme.app.document")"#), .init(#"let service = "com.acme.app.XPCHelper""#),
                        .init(#"let activity = "com.acme.app.OpenShortcut""#), .init(#"let widget = "com.acme.app.widget""#),
                        .init(#"NSString *queue = @"com.acme.app.sync";"#, .objc),
                        .init(#"let ids = Set(NSArray(contentsOf: Bundle.main.url(forResource: "IAP_ProductIDs", withExtension: "plist")!) as! [String])"#
                              + "\nlet request = SKProductsRequest(productIdentifiers: ids)"),
                        .init(#"NSURL *url = [[NSBundle mainBundle] URLForResource:@"IAP_ProductIDs" withExtension:@"plist"];"#
                              + "\nSKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[NSArray arrayWithContentsOfURL:url]]];", .objc),
                        .init(#"NSDictionary *p = @{@"user_id": @"user_id", @"goods": [self goodsWithProductIdentifier:transaction.payment.productIdentifier]};"#, .objc)])
}

/// Whose product IDs a call takes, by the type or object it is called on (its root: `Purchases`
/// in `Purchases.shared.products(…)`, `PADProduct` in `PADProduct(productID:)`, the class of
/// `[[SKProductsRequest alloc] initWithProductIdentifiers:]`). A label or selector part that says
/// product ID is proof of an App Store product ID only on StoreKit's types and on in-app purchase
/// SDKs that take App Store product IDs; other stores' and licensing SDKs (Paddle, FastSpring, …)
/// have product IDs of their own, and an unknown type's (an app's helper, a license SDK not known
/// here) may be either: a warning, never an error.
enum ProductIDCall {
    enum Kind: Equatable {
        /// StoreKit, or an SDK whose product IDs are the App Store's.
        case appStore
        /// Another store's or a licensing SDK's: its product IDs are never the App Store's.
        case otherStore
        /// Anything else: maybe an App Store product ID.
        case unverified
    }

    /// StoreKit's types and the in-app purchase SDKs that take App Store product IDs (RevenueCat,
    /// SwiftyStoreKit, Adapty, Apphud, RMStore). Qonversion and Glassfy take IDs of their own
    /// dashboards, which may differ from the App Store's: they are not here.
    static let appStoreRoots: Set<String> = ["Product", "Transaction", "AppStore", "StoreKit", "SKProductsRequest", "SKPayment",
                                             "SKMutablePayment", "SKPaymentQueue", "Purchases", "RCPurchases", "SwiftyStoreKit",
                                             "Adapty", "Apphud", "RMStore"]
    /// Commerce and licensing SDKs outside the App Store, by their types' names or prefixes:
    /// Paddle (`Paddle`, `PADProduct`, `PADProductConfiguration`), FastSpring, Gumroad, Lemon
    /// Squeezy, Stripe, Setapp.
    static let otherStorePrefixes = ["Paddle", "FastSpring", "Gumroad", "LemonSqueezy", "Stripe", "Setapp"]
    /// Class prefixes of the same SDKs' Objective-C types, followed by a capital (`PADProduct`, `STPCustomer`).
    static let otherStoreClassPrefixes = ["PAD", "STP"]

    /// StoreKit 2's types: only their static methods are StoreKit's. An initializer of one
    /// (`Product(productID:)`) or an Objective-C class of that name is an app's own model.
    static let storeKit2Types: Set<String> = ["Product", "Transaction", "AppStore", "StoreKit"]

    /// The kind of a call on `root` (nil: no root is known, as for `.init(productID:)`).
    /// `initializer`: the call makes a `root` (`X(…)`, `[[X alloc] init…]`, any Objective-C message).
    static func kind(root: String?, initializer: Bool = false) -> Kind {
        guard let root else { return .unverified }
        if appStoreRoots.contains(root) { return initializer && storeKit2Types.contains(root) ? .unverified : .appStore }
        if otherStoreClassPrefixes.contains(where: { root.hasPrefix($0) && root.dropFirst($0.count).first?.isUppercase == true }) {
            return .otherStore
        }
        if otherStorePrefixes.contains(where: { root.hasPrefix($0) }) { return .otherStore }
        return .unverified
    }

    /// Calls of in-app purchase SDKs whose product IDs are unlabeled (`""`): by root, callee and label.
    static let sdkSinks: [String: [String: Set<String>]] = [
        "SwiftyStoreKit": ["retrieveProductsInfo": [""], "purchaseProduct": [""]],
        "Purchases": ["getProducts": [""], "products": [""]],
        // MKStoreKit, as Swift 2 and Swift 3 and later import its `initiatePaymentRequestForProductWithIdentifier:`.
        "MKStoreKit": ["initiatePaymentRequestForProductWithIdentifier": [""], "initiatePaymentRequestForProduct": ["withIdentifier"]],
    ]

    /// The message's tail for an ID that reached only calls of an unverified kind: why it is a
    /// warning.
    static func unverifiedNote(_ call: String) -> String {
        " (a warning: \(call) is not StoreKit's or a known in-app purchase SDK's, so the value may be another store's or a license's product ID)"
    }
}

extension SwiftLintVisitor {
    /// The type or object a call is made on: `Purchases` in `Purchases.shared.products(…)`,
    /// `PADProduct` in `PADProduct(productID:)`, `helper` in `helper.buy(productIdentifier:)`.
    static func callRoot(_ call: FunctionCallExprSyntax) -> String? {
        var expression = call.calledExpression
        for _ in 0..<32 {
            if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
            if let member = expression.as(MemberAccessExprSyntax.self) {
                guard let base = member.base else { return nil }
                expression = base
            } else if let inner = expression.as(FunctionCallExprSyntax.self) {
                expression = inner.calledExpression
            } else if let inner = expression.as(OptionalChainingExprSyntax.self)?.expression ?? expression.as(ForceUnwrapExprSyntax.self)?.expression {
                expression = inner
            } else if let generic = expression.as(GenericSpecializationExprSyntax.self) {
                expression = generic.expression
            } else {
                return nil
            }
        }
        return nil
    }

    /// `misspelling`: the catalog ID the literal is a typo of, when it was found by its shape
    /// rather than by where it is used.
    /// `unverifiedCall`: the call of an unverified kind (`ProductIDCall`) that the literal reaches,
    /// when it reaches no other sink: a warning that says so.
    func reportUnknown(_ text: String, at literal: StringLiteralExprSyntax, misspelling: String? = nil, unverifiedCall: String? = nil) {
        guard reportedLiterals.insert(literal.id).inserted, !neverShips(literal) else { return }
        if let misspelling {
            add(UnknownProductIDRule.description, "\(Quote.bounded(text)) is not in the catalog; it looks like a typo of \(Quote.bounded(misspelling))", at: literal)
        } else if let unverifiedCall {
            let (message, _) = context.unknownProductID(text, complete: true)
            add(UnknownProductIDRule.description, message + ProductIDCall.unverifiedNote(unverifiedCall), at: literal, severity: .warning)
        } else {
            let (message, severity) = context.unknownProductID(text)
            add(UnknownProductIDRule.description, message, at: literal, severity: severity)
        }
    }
}

extension UnknownProductIDRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal]

    /// A literal shaped like a typo of a catalog ID: reported in `finish`, after the sinks, since
    /// "used as a product ID" says more.
    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        guard !literal.catalogID, let misspelling = literal.misspelling, !literal.excluded else { return }
        walk.misspellings.append((literal.node, literal.text, misspelling))
    }

    /// The literals that flow into product-ID sinks (the walk's product-ID flow), then the typos.
    static func finish(in walk: SwiftLintVisitor) {
        walk.reportProductIDSinks()
        walk.reportUnverifiedProductIDSinks()
        for (literal, text, near) in walk.misspellings { walk.reportUnknown(text, at: literal, misspelling: near) }
    }
}

extension UnknownProductIDRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.string]

    /// A string the product-ID flow says reaches a product-ID sink, or one a typo away from a catalog ID.
    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        let token = file.tokens[index], context = file.context, flow = file.flow
        if !context.productConstants.isEmpty, flow.productIDStrings.contains(index), ProductIDText.isIDLike(token.text), file.isShownString(index) {
            found.append(Finding(rule: RequestedProductID.mark, message: token.text, line: token.line, column: token.column))
        }
        guard file.isShownString(index), context.productConstants[token.text] == nil else { return }
        if !context.productConstants.isEmpty, ProductIDText.isIDLike(token.text),
           flow.productIDStrings.contains(index) || (flow.unverifiedProductIDStrings[index] != nil && context.isAppStoreIDByItsShape(token.text)) {
            let (message, severity) = context.unknownProductID(token.text)
            found.append(Finding(rule: description, message: message, line: token.line, column: token.column, severity: severity))
        } else if !context.productConstants.isEmpty, ProductIDText.isIDLike(token.text), let call = flow.unverifiedProductIDStrings[index] {
            // Only an app's own or an unknown SDK's call takes it: maybe another store's ID.
            let (message, _) = context.unknownProductID(token.text, complete: true)
            found.append(Finding(rule: description, message: message + ProductIDCall.unverifiedNote(call),
                                 line: token.line, column: token.column, severity: .warning))
        } else if !flow.namingStrings.contains(index), !file.roles.logged.contains(index), let near = context.misspelledID(token.text) {
            found.append(Finding(rule: description, message: "\(Quote.bounded(token.text)) is not in the catalog; it looks like a typo of \(Quote.bounded(near))",
                                 line: token.line, column: token.column))
        }
    }
}
