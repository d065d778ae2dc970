import Diagnostics

/// A lint rule: what it is, and examples (`↓` marks where the finding must be reported).
public struct LintRuleDescription: Sendable {
    public enum Language: String, Sendable { case swift, objc }

    public struct Example: Sendable {
        public var code: String
        public var language: Language
        public init(_ code: String, _ language: Language = .swift) {
            self.code = code
            self.language = language
        }
    }

    public var id: String
    public var name: String
    public var severity: Severity
    public var rationale: String
    public var triggering: [Example]
    public var nonTriggering: [Example]
}

/// The lint rules. Examples run against a catalog with the IDs `com.acme.app.coins`,
/// `com.acme.app.pro` (bundle `com.acme.app`) and the title "Bag of Coins".
public enum LintRules {
    public static let hardcodedPrice = LintRuleDescription(
        id: "hardcoded-price", name: "Hardcoded price", severity: .warning,
        rationale: "A price written in code is wrong in 174 of 175 storefronts and the day the price changes; show the product's displayPrice.",
        triggering: [.init(#"let label = ↓"$0.99""#), .init(#"text = ↓"0,99 €""#), .init(#"text = ↓"¥120""#), .init(#"text = ↓"USD 4.99""#),
                     .init(#"text = ↓"4.99 USD""#), .init(#"text = ↓"R$ 5,90""#), .init(#"text = ↓"₹99""#), .init(#"text = ↓"CHF 1.00""#),
                     .init(#"text = ↓"Buy for 0.99""#), .init(#"text = ↓"only 4.99/month""#), .init(#"text = ↓"$\(price)""#),
                     .init(#"text = ↓"\(price) €""#), .init(#"text = ↓"Save $38""#), .init(#"label.text = ↓@"$0.99";"#, .objc), .init(#"NSString *s = ↓@"Only 1,99 €";"#, .objc),
                     .init(#"#define PRICE_TEXT ↓@"$0.99""#, .objc)],
        nonTriggering: [.init(#"let v = "1.2.3""#), .init(#"let p = "50%""#), .init(#"let t = "12:30""#), .init(#"let c = "37.33, -122.03""#),
                        .init(#"let s = "$""#), .init(#"let f = "%.2f""#), .init(#"let i = "coins_100""#), .init(#"let a = "icon_4.99.png""#),
                        .init(#"let r = "$1""#), .init(#"let name = "$\(index)""#), .init(#"// let label = "$0.99""#), .init(#"/* "$0.99" */ let x = 1"#),
                        .init(#"NSString *v = @"version 2.10";"#, .objc), .init(#"// label.text = @"$0.99";"#, .objc),
                        .init(#"#import "Offer $0.99.h""#, .objc)])

    public static let hardcodedTitle = LintRuleDescription(
        id: "hardcoded-title", name: "Hardcoded product title", severity: .warning,
        rationale: "Product names and descriptions change in App Store Connect and are localized; show the product's displayName.",
        triggering: [.init(#"let title = ↓"Bag of Coins""#), .init(#"let title = ↓"  bag of coins! ""#), .init(#"titleLabel.text = ↓@"Bag of Coins";"#, .objc)],
        nonTriggering: [.init(#"let title = "Bag of Gems""#), .init(#"let title = "Coins""#)])

    public static let hardcodedProductID = LintRuleDescription(
        id: "hardcoded-product-id", name: "Hardcoded product ID", severity: .warning,
        rationale: "A product ID typed as a literal is a typo waiting to happen; use the generated constant, which the compiler checks.",
        triggering: [.init(#"let id = ↓"com.acme.app.coins""#), .init(#"NSString *pid = ↓@"com.acme.app.pro";"#, .objc)],
        nonTriggering: [.init(#"let id = ProductID.coins"#), .init(#"let text = "com.acme.app""#)])

    public static let unknownProductID = LintRuleDescription(
        id: "unknown-product-id", name: "Unknown product ID", severity: .error,
        rationale: "An ID with the app's prefix, or passed where product IDs go, that the catalog lacks never loads: a typo or a missing catalog entry.",
        triggering: [.init(#"let id = ↓"com.acme.app.coinz""#),
                     .init(#"let products = try await Product.products(for: [↓"gold_pack"])"#),
                     .init("let ids: Set<String> = [↓\"extra.lives\"]\nlet request = SKProductsRequest(productIdentifiers: ids)"),
                     .init(#"NSSet *ids = [NSSet setWithObject:↓@"com.acme.app.coinz"];"#, .objc)],
        nonTriggering: [.init(#"let products = try await Product.products(for: ["com.acme.app.coins"])"#), .init(#"let key = "settings.volume""#)])

    public static let priceFloatConversion = LintRuleDescription(
        id: "price-float-conversion", name: "Price through Float or Double", severity: .warning,
        rationale: "A Float or Double cannot hold 0.1 or most cents exactly; keep prices Decimal and format them with the product's priceLocale.",
        triggering: [.init(#"let p = ↓product.price.floatValue"#), .init(#"let p = ↓skProduct.price.doubleValue"#), .init(#"let p = ↓Float(truncating: product.price)"#),
                     .init(#"let p = ↓Double(truncating: price)"#), .init(#"let p = ↓(price as NSDecimalNumber).doubleValue"#),
                     .init(#"NSLog(@"%f", ↓product.price.floatValue);"#, .objc)],
        nonTriggering: [.init(#"let p = product.price"#), .init(#"let w = view.frame.width.floatValue"#), .init(#"let d = Double(count)"#)])

    public static let currencyFormatterLocale = LintRuleDescription(
        id: "currency-formatter-locale", name: "Currency formatter without the product's locale", severity: .warning,
        rationale: "A currency NumberFormatter left on the device's locale shows the wrong currency and format; set its locale to the product's priceLocale.",
        triggering: [.init("func f() {\n    let formatter = NumberFormatter()\n    ↓formatter.numberStyle = .currency\n    _ = formatter.string(from: price)\n}"),
                     .init(#"let text = ↓String(format: "%.2f", product.price.doubleValue)"#),
                     .init("- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    ↓f.numberStyle = NSNumberFormatterCurrencyStyle;\n}", .objc),
                     .init("- (void)show {\n    ↓[formatter setNumberStyle:NSNumberFormatterCurrencyStyle];\n}", .objc),
                     .init(#"NSString *s = [NSString stringWithFormat:↓@"%0.2lf", product.price.floatValue];"#, .objc)],
        nonTriggering: [.init("func f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n    formatter.locale = product.priceLocale\n}"),
                        .init("func f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .decimal\n}"),
                        .init("- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    f.locale = product.priceLocale;\n}", .objc),
                        .init(#"NSString *s = [NSString stringWithFormat:@"%d coins", product.coinCount];"#, .objc),
                        .init("func f() {\n    if let locale = product?.priceLocale {\n        let f = NumberFormatter()\n        f.numberStyle = .currency\n        f.locale = locale\n    }\n}")])

    public static let invalidSuppression = LintRuleDescription(
        id: "invalid-suppression", name: "Unknown rule in a suppression", severity: .warning,
        rationale: "A suppression naming a rule that does not exist suppresses nothing; it is usually a typo.",
        triggering: [.init("↓// iap:disable:next hardcoded-prize\nlet x = 1")],
        nonTriggering: [.init("// iap:disable:next hardcoded-price - marketing copy\nlet x = \"$0.99\"")])

    public static let all: [LintRuleDescription] = [hardcodedPrice, hardcodedTitle, hardcodedProductID, unknownProductID,
                                                    priceFloatConversion, currencyFormatterLocale, invalidSuppression]

    /// Every rule's ID.
    public static let ids = Set(all.map(\.id))

    public static func severity(_ id: String) -> Severity { all.first { $0.id == id }?.severity ?? .warning }
}
