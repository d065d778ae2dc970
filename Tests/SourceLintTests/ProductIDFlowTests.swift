import XCTest
@testable import SourceLint

/// A literal is a product ID only where its value reaches a product-ID sink. Each pattern is
/// written in Swift and in Objective-C, and both must give the same literals.
final class ProductIDFlowTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro"],
                              bundlePrefix: "com.acme.app.")

    /// The texts of the `unknown-product-id` findings, in source order.
    func unknown(_ source: String, _ path: String) -> [String] {
        SourceLinter(context: context).lint(source: source, path: path)
            .filter { $0.ruleID == "unknown-product-id" }
            .map { finding in
                let line = source.split(separator: "\n", omittingEmptySubsequences: false)[finding.location.line - 1]
                let from = line.index(line.startIndex, offsetBy: finding.location.column - 1)
                let rest = line[from...].drop { $0 == "@" || $0 == "\"" }
                return String(rest.prefix { $0 != "\"" })
            }
    }

    func assertBoth(_ swift: String, _ objc: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(unknown(swift, "Store.swift"), expected, "Swift", file: file, line: line)
        XCTAssertEqual(unknown(objc, "Store.m"), expected, "Objective-C", file: file, line: line)
    }

    // MARK: Never product IDs

    func testResourceNamesOfTheIDListAreNotProductIDs() {
        assertBoth("""
            func load() {
                let url = Bundle.main.url(forResource: "IAP_ProductIDs", withExtension: "plist")!
                let ids = NSArray(contentsOf: url) as! [String]
                let request = SKProductsRequest(productIdentifiers: Set(ids))
                let direct = SKProductsRequest(productIdentifiers: Set(NSArray(contentsOf: Bundle.main.url(forResource: "IAP_ProductIDs", withExtension: "plist")!) as! [String]))
                let path = Bundle.main.path(forResource: "ProductIds", ofType: "plist")!
                let more = try await Product.products(for: NSArray(contentsOfFile: path) as? [String] ?? [])
            }
            """, """
            - (void)load {
                NSURL *url = [[NSBundle mainBundle] URLForResource:@"IAP_ProductIDs" withExtension:@"plist"];
                NSArray *ids = [NSArray arrayWithContentsOfURL:url];
                SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:ids]];
                SKProductsRequest *direct = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[NSArray arrayWithContentsOfURL:[[NSBundle mainBundle] URLForResource:@"IAP_ProductIDs" withExtension:@"plist"]]]];
                NSString *path = [[NSBundle mainBundle] pathForResource:@"ProductIds" ofType:@"plist"];
            }
            """, [])
    }

    func testDictionaryKeysAndValuesBesideAProductIdentifierAreNotProductIDs() {
        assertBoth("""
            func record(_ transaction: SKPaymentTransaction) {
                let params: [String: Any] = ["user_id": "user_id", "goods": goods(withProductIdentifier: transaction.payment.productIdentifier)]
                var d: [String: Any] = [:]
                d["content_id"] = transaction.payment.productIdentifier
                UserDefaults.standard.set(transaction.payment.productIdentifier, forKey: "last_product")
                NotificationCenter.default.post(name: Notification.Name("IAPHelperPurchaseNotification"), object: transaction.payment.productIdentifier)
            }
            """, """
            - (void)record:(SKPaymentTransaction *)transaction {
                NSDictionary *params = @{@"user_id": @"user_id", @"goods": [self goodsWithProductIdentifier:transaction.payment.productIdentifier]};
                NSMutableDictionary *d = [NSMutableDictionary dictionary];
                [d setObject:transaction.payment.productIdentifier forKey:@"content_id"];
                [[NSUserDefaults standardUserDefaults] setObject:transaction.payment.productIdentifier forKey:@"last_product"];
                [[NSNotificationCenter defaultCenter] postNotificationName:@"IAPHelperPurchaseNotification" object:transaction.payment.productIdentifier];
            }
            """, [])
    }

    func testALocalOfAnotherFunctionIsNotFollowed() {
        assertBoth("""
            func track() {
                let ids = ["user_id", "session_id"]
                send(ids)
            }
            func load(ids: [String]) {
                _ = SKProductsRequest(productIdentifiers: Set(ids))
            }
            """, """
            - (void)track {
                NSArray *ids = @[@"user_id", @"session_id"];
                [self send:ids];
            }
            - (void)load:(NSArray *)ids {
                SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:ids]];
            }
            """, [])
    }

    func testValuesMadeFromAProductIDAreNotProductIDs() {
        assertBoth("""
            func kind(_ product: Product) -> String {
                if product.id.components(separatedBy: ".").last == "lifetime" { return "once" }
                if product.id.uppercased() == "PRO_MONTHLY" { return "monthly" }
                if product.id.split(separator: ".").last == "monthly" { return "monthly" }
                return ""
            }
            """, """
            - (NSString *)kind:(SKProduct *)product {
                if ([[[product.productIdentifier componentsSeparatedByString:@"."] lastObject] isEqualToString:@"lifetime"]) { return @"once"; }
                if ([[product.productIdentifier uppercaseString] isEqualToString:@"PRO_MONTHLY"]) { return @"monthly"; }
                return @"";
            }
            """, [])
    }

    // MARK: Product IDs by flow

    func testCollectionsThatReachStoreKit() {
        assertBoth("""
            let productIDs: Set<String> = ["com.acme.app.coins", "gold_pack"]
            func load() {
                let request = SKProductsRequest(productIdentifiers: productIDs)
            }
            """, """
            static NSString *const kGold = @"gold_pack";
            - (void)load {
                NSSet *productIDs = [NSSet setWithObjects:@"com.acme.app.coins", kGold, nil];
                SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:productIDs];
            }
            """, ["gold_pack"])
    }

    func testAComputedPropertyACompactMapAndADictionarysValueReachStoreKit() {
        // Swift alone: Objective-C has no computed property, enum raw value or subscript of this shape.
        let swift = """
            enum Tier: String, CaseIterable {
                case gold = "gold_pack"
                case silver = "silver_pack"
                case bronze = "bronze_pack"
            }
            final class Store {
                private var productIdentifiers: [Tier] { [.gold] }
                private var more: [String] { get { return ["com.acme.app.coins", "gems_pack"] } }
                private let byKind: [String: [Tier]] = ["consumable": [.silver]]
                func load(kind: String) async throws {
                    _ = SKProductsRequest(productIdentifiers: Set(productIdentifiers.map { $0.rawValue }))
                    _ = try await Product.products(for: more)
                    _ = try await Product.products(for: (byKind[kind] ?? []).map(\\.rawValue))
                    _ = try await Product.products(for: Tier.allCases.compactMap { $0.rawValue })
                }
            }
            """
        XCTAssertEqual(unknown(swift, "Store.swift"), ["gold_pack", "silver_pack", "bronze_pack", "gems_pack"])
    }

    func testMKStoreKitsPurchaseCallTakesAProductID() {
        let swift = """
            func buy() {
                MKStoreKit.sharedKit().initiatePaymentRequestForProductWithIdentifier("gold_pack")
                MKStoreKit.shared().initiatePaymentRequestForProduct(withIdentifier: "silver_pack")
                MKStoreKit.shared().initiatePaymentRequestForProduct(withIdentifier: "com.acme.app.coins")
            }
            """
        XCTAssertEqual(unknown(swift, "Store.swift"), ["gold_pack", "silver_pack"])
    }

    func testAPropertyDeclaredBelowItsUseAndAppHelpersThatTakeProductIDs() {
        assertBoth("""
            final class Store {
                func start() { helper = IAPHelper(productIds: Store.all) }
                static let all = Set(["com.acme.app.pro", "com.acme.app.lives"])
            }
            """, """
            @implementation Store
            - (void)start {
                helper = [[IAPHelper alloc] initWithProductIdentifiers:self.all];
            }
            - (instancetype)init {
                self.all = [NSSet setWithArray:@[@"com.acme.app.pro", @"com.acme.app.lives"]];
                return self;
            }
            @end
            """, ["com.acme.app.lives"])
    }

    func testAProductIDThroughOptionalChainsAndMessagesIsStillOne() {
        assertBoth("""
            func f(_ transaction: SKPaymentTransaction?) {
                if transaction?.payment.productIdentifier == "com.acme.app.gold" { unlock() }
            }
            """, """
            - (void)f:(SKPaymentTransaction *)transaction {
                if ([[[transaction payment] productIdentifier] isEqualToString:@"com.acme.app.gold"]) { [self unlock]; }
            }
            """, ["com.acme.app.gold"])
    }

    func testAnAppsOwnAPIThatTakesAProductIdentifier() {
        assertBoth("""
            func f() {
                if store.hasActiveSubscription(ofProductIdentifier: "com.acme.app.silver") { unlock() }
            }
            """, """
            - (void)f {
                if ([self.store hasActiveSubscriptionOfProductIdentifier:@"com.acme.app.silver"]) { [self unlock]; }
            }
            """, ["com.acme.app.silver"])
    }

    func testComparisonsAndAssignmentsToAProductsIdentifier() {
        assertBoth("""
            func handle(_ transaction: SKPaymentTransaction, name: String) {
                if transaction.payment.productIdentifier == "com.acme.app.gold" || name == "user_name" { unlock() }
                let payment = SKMutablePayment()
                payment.productIdentifier = useGems ? "gems_100" : "com.acme.app.coins"
            }
            """, """
            - (void)handle:(SKPaymentTransaction *)transaction name:(NSString *)name {
                if ([transaction.payment.productIdentifier isEqualToString:@"com.acme.app.gold"] || [name isEqualToString:@"user_name"]) { [self unlock]; }
                SKMutablePayment *payment = [[SKMutablePayment alloc] init];
                payment.productIdentifier = useGems ? @"gems_100" : @"com.acme.app.coins";
            }
            """, ["com.acme.app.gold", "gems_100"])
    }

    func testContainsOfAProductsIdentifier() {
        assertBoth("""
            let consumables = ["com.acme.app.coins", "com.acme.app.gems"]
            func isConsumable(_ transaction: SKPaymentTransaction) -> Bool {
                consumables.contains(transaction.payment.productIdentifier)
            }
            """, """
            - (BOOL)isConsumable:(SKPaymentTransaction *)transaction {
                NSArray *consumables = @[@"com.acme.app.coins", @"com.acme.app.gems"];
                return [consumables containsObject:transaction.payment.productIdentifier];
            }
            """, ["com.acme.app.gems"])
    }

    func testDictionaryKeysThatReachStoreKit() {
        assertBoth("""
            let emoji = ["com.acme.app.coins": "🪙", "com.acme.app.hat": "🎩"]
            func load() async throws {
                let products = try await Product.products(for: emoji.keys)
            }
            """, """
            - (void)load {
                NSDictionary *emoji = @{@"com.acme.app.coins": @"🪙", @"com.acme.app.hat": @"🎩"};
                SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:[emoji allKeys]]];
            }
            """, ["com.acme.app.hat"])
    }

    // MARK: Did you mean

    func testSuggestionsOnlyWithinTwoEditsOrUnderTheBundlePrefix() {
        let swift = """
            func load() async throws {
                _ = try await Product.products(for: ["com.acme.app.coinz", "pro", "something_else"])
            }
            """
        let messages = SourceLinter(context: context).lint(source: swift, path: "Store.swift").map(\.message)
        XCTAssertEqual(messages, [
            "'com.acme.app.coinz' is used as a product ID but is not in the catalog; did you mean 'com.acme.app.coins'?",
            "'pro' is used as a product ID but is not in the catalog; did you mean 'com.acme.app.pro'?",
            "'something_else' is used as a product ID but is not in the catalog",
        ])
        let objc = "id r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:@\"com.acme.app.coinz\", @\"pro\", @\"something_else\", nil]];\n"
        XCTAssertEqual(SourceLinter(context: context).lint(source: objc, path: "Store.m").map(\.message), messages)
        // Not used as a product ID: a typo by its shape alone.
        XCTAssertEqual(SourceLinter(context: context).lint(source: "let x = \"com.acme.app.coinz\"\n", path: "Store.swift").map(\.message),
                       ["'com.acme.app.coinz' is not in the catalog; it looks like a typo of 'com.acme.app.coins'"])
    }

    // MARK: Hostile input

    func testSelfReferencesAndLongChainsEnd() {
        let swift = "let a = b\nlet b = a\nlet r = SKProductsRequest(productIdentifiers: Set(a))\n"
            + (0..<200).map { "let v\($0) = v\($0 + 1)" }.joined(separator: "\n") + "\nlet v200 = [\"x_1\"]\nlet q = SKProductsRequest(productIdentifiers: Set(v0))\n"
        XCTAssertEqual(unknown(swift, "Store.swift"), [])
        let objc = "- (void)f {\n    NSSet *a = b;\n    NSSet *b = a;\n    id r = [[SKProductsRequest alloc] initWithProductIdentifiers:a];\n}\n"
            + String(repeating: "]", count: 5_000) + String(repeating: "(", count: 5_000)
        XCTAssertEqual(unknown(objc, "Store.m"), [])
    }
}
