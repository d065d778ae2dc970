import Diagnostics

/// The language of a lint example.
public enum SourceLanguage: String, Sendable { case swift, objc }

/// Lint examples: one source file, `Example.swift` or `Example.m`.
extension RuleExample {
    public init(_ code: String, _ language: SourceLanguage = .swift) {
        self.init([ExampleFile(language == .swift ? "Example.swift" : "Example.m", code)])
    }

    /// The example's source text.
    public var code: String { files.first?.text ?? "" }
    public var language: SourceLanguage { files.first?.name.hasSuffix(".m") == true ? .objc : .swift }
}

/// The lint rules. Examples run against a catalog with the IDs `com.acme.app.coins`,
/// `com.acme.app.pro` (bundle `com.acme.app`), the title "Bag of Coins", and an app named "Acme"
/// that is also a product's name.
public enum LintRules {
    public static let hardcodedPrice = RuleDescription(
        id: "hardcoded-price", name: "Hardcoded price", severity: .warning,
        rationale: "A price written in code is wrong in 174 of 175 storefronts and the day the price changes; show the product's displayPrice.",
        triggering: [.init(#"let label = ↓"$0.99""#), .init(#"text = ↓"0,99 €""#), .init(#"text = ↓"¥120""#), .init(#"text = ↓"USD 4.99""#),
                     .init(#"text = ↓"4.99 USD""#), .init(#"text = ↓"R$ 5,90""#), .init(#"text = ↓"₹99""#), .init(#"text = ↓"CHF 1.00""#),
                     .init(#"text = ↓"Buy for 0.99""#), .init(#"text = ↓"only 4.99/month""#), .init(#"text = ↓"$\(price)""#),
                     .init(#"text = ↓"\(price) €""#), .init(#"text = ↓"Save $38""#), .init(#"text = ↓"Only 99¢""#), .init(#"label.text = ↓@"$0.99";"#, .objc), .init(#"NSString *s = ↓@"Only 1,99 €";"#, .objc),
                     .init(#"#define PRICE_TEXT ↓@"$0.99""#, .objc), .init(#"let title = NSLocalizedString(↓"Only $0.99 a month", comment: "")"#),
                     .init("enum Pricing {\n    static let ↓proPrice = 4.99\n}"), .init(#"let ↓yearlyCost = Decimal(string: "29.99")!"#),
                     .init("#define ↓kProAnnualPrice 6.99", .objc), .init("static const double ↓kProPrice = 4.99;", .objc),
                     .init("final class FakeStore {\n    let banner = ↓\"Only $0.99\"\n}")],
        nonTriggering: [.init(#"let v = "1.2.3""#), .init(#"let p = "50%""#), .init(#"let t = "12:30""#), .init(#"let c = "37.33, -122.03""#),
                        .init(#"let s = "$""#), .init(#"let f = "%.2f""#), .init(#"let i = "coins_100""#), .init(#"let a = "icon_4.99.png""#),
                        .init(#"let r = "$1""#), .init(#"let name = "$\(index)""#),
                        .init(#"let q = "Solve for X: $X = 1/e^1.365^ = 0.255$, if k is $34.62 h^-1^$ in $t = ln(2)/k$""#), .init(#"let t = "the yield for 0.98% of runs""#), .init(#"// let label = "$0.99""#), .init(#"/* "$0.99" */ let x = 1"#),
                        .init(#"NSString *v = @"version 2.10";"#, .objc), .init(#"// label.text = @"$0.99";"#, .objc),
                        .init(#"#import "Offer $0.99.h""#, .objc),
                        .init("#Preview {\n    Text(\"$0.99\")\n}"),
                        .init("struct Shop_Previews: PreviewProvider {\n    static var previews: some View { Text(\"$0.99\") }\n}"),
                        .init("#if DEBUG\nlet label = \"$0.99\"\n#endif"),
                        .init("extension Product {\n    static let preview = Product(price: \"$0.99\")\n}"),
                        .init(#"let buy = NSLocalizedString("Buy", comment: "Button, as in 'Buy for $4.99'")"#),
                        .init(#"print("charged $0.99")"#), .init("var totalPrice = 0.0"), .init("let priceLabelHeight = 20.5"),
                        .init(#"NSString *s = [NSString stringWithFormat:@"%@$$$%@", first, second];"#, .objc),
                        .init("#ifdef DEBUG\nlabel.text = @\"$0.99\";\n#endif", .objc),
                        .init(#"NSString *t = NSLocalizedString(@"Buy", @"e.g. Buy for $0.99");"#, .objc),
                        .init(#"let total = formatted ?? "$0.00""#), .init(#"let usage = "Est. cost: $\(apiCost)""#),
                        .init(#"static let weekly = TestStoreProduct(localizedPriceString: "$1.99")"#),
                        .init(#"#define __DARWIN_SUF_1050 "$1050""#, .objc)])

    public static let hardcodedTitle = RuleDescription(
        id: "hardcoded-title", name: "Hardcoded product title", severity: .warning,
        rationale: "Product names and descriptions change in App Store Connect and are localized; show the product's displayName.",
        triggering: [.init(#"let title = ↓"Bag of Coins""#), .init(#"let title = ↓"  bag of coins! ""#), .init(#"let title = ↓"COINS, BAG OF""#),
                     .init(#"titleLabel.text = ↓@"Bag of Coins";"#, .objc)],
        nonTriggering: [.init(#"let title = "Bag of Gems""#), .init(#"let title = "Coins""#), .init(#"let app = "Acme""#),
                        .init(#"let title = NSLocalizedString("Bag of Coins", comment: "")"#), .init(#"let title = String(localized: "Bag of Coins")"#),
                        .init("#Preview {\n    Text(\"Bag of Coins\")\n}"), .init("var analyticsName: String { \"Bag of Coins\" }"),
                        .init(#"let key = "bag_of_coins""#), .init(#"let food = BirdFood(id: "Bag of Coins", name: name)"#),
                        .init(#"let theme = Theme(nameKey: "BAG OF COINS")"#), .init(#"let stub = MockProduct(displayName: "Bag of Coins")"#),
                        .init(#"NSString *t = NSLocalizedString(@"Bag of Coins", nil);"#, .objc)])

    public static let hardcodedProductID = RuleDescription(
        id: "hardcoded-product-id", name: "Hardcoded product ID", severity: .warning,
        rationale: "A product ID typed as a literal is a typo waiting to happen; use the generated constant, which the compiler checks. A file that defines the IDs as a table of literals is one finding that suggests `iap gen`.",
        triggering: [.init(#"let id = ↓"com.acme.app.coins""#), .init(#"NSString *pid = ↓@"com.acme.app.pro";"#, .objc),
                     .init("enum Products: String {\n    case coins = ↓\"com.acme.app.coins\"\n    case pro = \"com.acme.app.pro\"\n}"),
                     .init("#define kCoinsID ↓@\"com.acme.app.coins\"\n#define kProID @\"com.acme.app.pro\"", .objc)],
        nonTriggering: [.init(#"let id = ProductID.coins"#), .init(#"let text = "com.acme.app""#),
                        .init("#Preview {\n    StoreView(ids: [\"com.acme.app.coins\"])\n}")])

    public static let unknownProductID = RuleDescription(
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

    public static let priceFloatConversion = RuleDescription(
        id: "price-float-conversion", name: "Price through Float or Double", severity: .warning,
        rationale: "A Float or Double cannot hold 0.1 or most cents exactly, and an integer holds none; a price shown, summed or stored through one is off by a cent sooner or later (or by 99 at once). Keep prices Decimal and format them with the product's priceLocale. Comparing, ordering, logging and ratios are fine.",
        triggering: [.init(#"let p = ↓product.price.floatValue"#), .init(#"let whole = ↓NSDecimalNumber(decimal: product.price).intValue"#),
                     .init(#"let whole = ↓Int(truncating: product.price as NSNumber)"#),
                     .init(#"label.text = [NSString stringWithFormat:@"%ld", (long)↓product.price.integerValue];"#, .objc), .init(#"let p = ↓skProduct.price.doubleValue"#), .init(#"let p = ↓Float(truncating: product.price)"#),
                     .init(#"let p = ↓Double(truncating: price)"#), .init(#"let p = ↓(price as NSDecimalNumber).doubleValue"#),
                     .init("total += ↓product.price.doubleValue"), .init("let sum = products.reduce(0) { $0 + ↓$1.price.doubleValue }"),
                     .init("import StoreKit\nenum Offer {\n    case localizedPrice(↓price: Double)\n}"), .init("import StoreKit\nstruct Plan {\n    let ↓price: Double\n}"),
                     .init(#"label.text = [NSString stringWithFormat:@"%.2f", ↓product.price.floatValue];"#, .objc),
                     .init("#import <StoreKit/StoreKit.h>\n@interface Plan : NSObject\n@property (nonatomic) double ↓price;\n@end", .objc),
                     .init("#import <StoreKit/StoreKit.h>\n@implementation Plan\n{\n    double ↓_defaultPrice;\n}\n@end", .objc)],
        nonTriggering: [.init(#"let p = product.price"#), .init(#"let w = view.frame.width.floatValue"#), .init(#"let d = Double(count)"#),
                        .init("if product.price.doubleValue > 0 { show() }"),
                        .init("let cheapest = products.sorted { $0.price.doubleValue < $1.price.doubleValue }"),
                        .init(#"print("price", product.price.doubleValue)"#),
                        .init("let saving = 1 - yearly.price.doubleValue / (monthly.price.doubleValue * 12)"),
                        .init(#"Analytics.logEvent("purchase", parameters: ["value": product.price.doubleValue])"#),
                        .init("import StoreKit\nstruct Plan {\n    var priceValue: Double { 0 }\n}"),
                        .init("struct Customization {\n    var price: Float\n}"), .init("stats.gold -= Float(price)"),
                        .init(#"NSLog(@"%f", product.price.floatValue);"#, .objc),
                        .init("if (product.price.floatValue > 0) { [self show]; }", .objc),
                        .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    double monthlyPrice;\n}", .objc),
                        .init("- (NSString *)discount {\n    double regular = monthly.price.doubleValue;\n    double yearlyPrice = yearly.price.doubleValue;\n    if (regular > 0) {\n        int percent = (int)((1 - yearlyPrice / (regular * 12)) * 100);\n        return [NSString stringWithFormat:@\"-%d%%\", percent];\n    }\n    return nil;\n}", .objc),
                        .init("func discount() -> Int {\n    let regular = monthly.price.doubleValue\n    let yearly = annual.price.doubleValue\n    return Int((1 - yearly / (regular * 12)) * 100)\n}")])

    public static let currencyFormatterLocale = RuleDescription(
        id: "currency-formatter-locale", name: "Currency formatter without the product's locale", severity: .warning,
        rationale: "A currency NumberFormatter left on the device's locale, a currency code written in code (.currency(code: \"USD\")), a price through String(format:) or one built from currencySymbol shows the wrong currency or format; set the formatter's locale to the product's priceLocale. Only in files that sell products: an app's own amounts belong in the device's locale.",
        triggering: [.init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    ↓formatter.numberStyle = .currency\n    _ = formatter.string(from: price)\n}"),
                     .init("import StoreKit\nfunc label(_ product: Product) -> String {\n    product.price.formatted(.currency(code: ↓\"USD\"))\n}"),
                     .init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    ↓formatter.numberStyle = .currency\n    formatter.locale = Locale(identifier: \"en_US\")\n}"),
                     .init(#"let text = ↓String(format: "%.2f", product.price.doubleValue)"#),
                     .init(#"let text = ↓"\(product.priceLocale.currencySymbol ?? "$")\(product.price)""#),
                     .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    ↓f.numberStyle = NSNumberFormatterCurrencyStyle;\n}", .objc),
                     .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    ↓[formatter setNumberStyle:NSNumberFormatterCurrencyStyle];\n}", .objc),
                     .init(#"NSString *s = [NSString stringWithFormat:↓@"%0.2lf", product.price.floatValue];"#, .objc),
                     .init(#"NSString *s = [NSString stringWithFormat:↓@"%@%@", locale.currencySymbol, price];"#, .objc)],
        nonTriggering: [.init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n    formatter.locale = product.priceLocale\n}"),
                        .init("import StoreKit\nfunc f() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .decimal\n}"),
                        .init("func budget() {\n    let formatter = NumberFormatter()\n    formatter.numberStyle = .currency\n}"),
                        .init("import StoreKit\nfinal class Store {\n    lazy var formatter: NumberFormatter = {\n        let f = NumberFormatter()\n        f.numberStyle = .currency\n        return f\n    }()\n    func show(_ product: SKProduct) {\n        formatter.locale = product.priceLocale\n    }\n}"),
                        .init("import StoreKit\nfunc format(_ price: Decimal, locale: Locale) -> String? {\n    let f = NumberFormatter()\n    f.numberStyle = .currency\n    f.locale = locale\n    return f.string(for: price)\n}"),
                        .init("import StoreKit\nfunc paid(_ transaction: Transaction, _ f: NumberFormatter) -> String? {\n    f.numberStyle = .currency\n    f.currencyCode = transaction.currency?.identifier\n    return f.string(for: transaction.price)\n}"),
                        .init("import StoreKit\nfunc currencyFormatter() -> NumberFormatter {\n    let f = NumberFormatter()\n    f.numberStyle = .currency\n    return f\n}"),
                        .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    f.locale = product.priceLocale;\n}", .objc),
                        .init("#import <StoreKit/StoreKit.h>\n- (NSString *)format:(NSDecimalNumber *)price locale:(NSLocale *)locale {\n    NSNumberFormatter *f = [[NSNumberFormatter alloc] init];\n    f.numberStyle = NSNumberFormatterCurrencyStyle;\n    f.locale = locale;\n    return [f stringFromNumber:price];\n}", .objc),
                        .init(#"NSString *s = [NSString stringWithFormat:@"%d coins", product.coinCount];"#, .objc),
                        .init("import StoreKit\nfunc f() {\n    if let locale = product?.priceLocale {\n        let f = NumberFormatter()\n        f.numberStyle = .currency\n        f.locale = locale\n    }\n}")])

    public static let invalidSuppression = RuleDescription(
        id: "invalid-suppression", name: "Unknown rule in a suppression", severity: .warning,
        rationale: "A suppression naming a rule that does not exist suppresses nothing; it is usually a typo. Only a // comment that starts with iap: is a suppression.",
        triggering: [.init("↓// iap:disable:next hardcoded-prize\nlet x = 1")],
        nonTriggering: [.init("// iap:disable:next hardcoded-price - marketing copy\nlet x = \"$0.99\""),
                        .init("/// Silence one line with `// iap:disable:next RULE`, e.g. hardcoded-prize.\nlet x = 1"),
                        .init("let hint = \"// iap:disable hardcoded-prize\""),
                        .init("// see iap: the tool's README\nlet x = 1")])

    public static let unreadableSource = RuleDescription(
        id: "unreadable-source", name: "Unreadable source file", severity: .error,
        rationale: "A source file that cannot be read is not linted; a run that skipped it silently would pass code nobody checked.",
        triggering: [], nonTriggering: [])

    public static let unparsedSource = RuleDescription(
        id: "unparsed-source", name: "Source that does not parse", severity: .warning,
        rationale: "A file with an unterminated string or comment, or other text the parser cannot read, is linted only as far as the parser recovers: findings after that point may be missed. The compiler says what is wrong; iap says where its reading stopped being reliable.",
        triggering: [.init("let id = ↓\"com.example.app.coins")],
        nonTriggering: [.init("let id = \"com.example.app.coins\"")])

    public static let all: [RuleDescription] = [hardcodedPrice, hardcodedTitle, hardcodedProductID, unknownProductID,
                                                    priceFloatConversion, currencyFormatterLocale, invalidSuppression,
                                                    unreadableSource, unparsedSource]

    /// Every rule's ID.
    public static let ids = Set(all.map(\.id))
}
