import Diagnostics
import SwiftSyntax

/// `unknown-product-id`. Found in the one walk over string literals, by where each value flows
/// (`SwiftLintVisitor+ProductIDFlow`, `ObjCProductIDFlow`) or by its shape
/// (`LintContext.misspelledID`).
public enum UnknownProductIDRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-product-id", name: "Unknown product ID", severity: .error,
        rationale: "A literal whose value reaches StoreKit or a product's identifier (directly, through a variable, a collection or Set(…)) that the catalog lacks never loads, nor does one a typo away from a catalog ID. Resource names, dictionary keys and values, user-defaults keys, notification names and log text are never product IDs, nor are other identifiers under the bundle ID (UTTypes, XPC services, shortcuts).",
        triggering: [.init(#"let id = ↓"com.acme.app.coinz""#),
                     .init(#"let products = try await Product.products(for: [↓"gold_pack"])"#),
                     .init("let ids: Set<String> = [↓\"extra.lives\"]\nlet request = SKProductsRequest(productIdentifiers: ids)"),
                     .init("if transaction.productID == ↓\"com.acme.app.gold\" {\n    unlock()\n}"),
                     .init("switch product.id {\ncase ↓\"com.acme.app.gold\": unlock()\ndefault: break\n}"),
                     .init("let monthly = store.products.first { $0.id == ↓\"com.acme.app.monthly\" }"),
                     .init(#"NSSet *ids = [NSSet setWithObject:↓@"com.acme.app.coinz"];"#, .objc),
                     .init(#"if ([transaction.payment.productIdentifier isEqualToString:↓@"com.acme.app.gold"]) {}"#, .objc),
                     .init("NSArray *ids = @[@\"com.acme.app.coins\", ↓@\"gold_pack\"];\nSKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:ids]];", .objc)],
        nonTriggering: [.init(#"let products = try await Product.products(for: ["com.acme.app.coins"])"#), .init(#"let key = "settings.volume""#),
                        .init(#"let type = UTType(exportedAs: "com.acme.app.document")"#), .init(#"let service = "com.acme.app.XPCHelper""#),
                        .init(#"let activity = "com.acme.app.OpenShortcut""#), .init(#"let widget = "com.acme.app.widget""#),
                        .init(#"NSString *queue = @"com.acme.app.sync";"#, .objc),
                        .init(#"let ids = Set(NSArray(contentsOf: Bundle.main.url(forResource: "IAP_ProductIDs", withExtension: "plist")!) as! [String])"#
                              + "\nlet request = SKProductsRequest(productIdentifiers: ids)"),
                        .init(#"NSURL *url = [[NSBundle mainBundle] URLForResource:@"IAP_ProductIDs" withExtension:@"plist"];"#
                              + "\nSKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[NSArray arrayWithContentsOfURL:url]]];", .objc),
                        .init(#"NSDictionary *p = @{@"user_id": @"user_id", @"goods": [self goodsWithProductIdentifier:transaction.payment.productIdentifier]};"#, .objc)])
}

extension SwiftLintVisitor {
    /// `misspelling`: the catalog ID the literal is a typo of, when it was found by its shape
    /// rather than by where it is used.
    func reportUnknown(_ text: String, at literal: StringLiteralExprSyntax, misspelling: String? = nil) {
        guard reportedLiterals.insert(literal.id).inserted, !neverShips(literal) else { return }
        if let misspelling {
            add(UnknownProductIDRule.description, "\(Quote.bounded(text)) is not in the catalog; it looks like a typo of \(Quote.bounded(misspelling))", at: literal)
        } else {
            let (message, severity) = context.unknownProductID(text)
            add(UnknownProductIDRule.description, message, at: literal, severity: severity)
        }
    }
}
