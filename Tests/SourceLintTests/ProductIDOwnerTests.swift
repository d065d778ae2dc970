import XCTest
@testable import SourceLint

/// Issue 33, item 3: a label or selector part that says product ID is proof of an App Store
/// product ID only on StoreKit and on in-app purchase SDKs that take App Store IDs. Another
/// store's or a licensing SDK's (Paddle) is none; an unknown type's (an app's helper, an SDK not
/// known) is a warning, never an error. StoreKit's own sinks stay errors.
final class ProductIDOwnerTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro"],
                              bundlePrefix: "com.acme.app.")

    /// `line:column severity text` of each `unknown-product-id` finding, in source order.
    func unknown(_ source: String, _ path: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return SourceLinter(context: context).lint(source: source, path: path)
            .filter { $0.ruleID == UnknownProductIDRule.description.id }
            .map { finding in
                let line = lines[finding.location.line - 1]
                let from = line.index(line.startIndex, offsetBy: finding.location.column - 1)
                let text = line[from...].drop { $0 == "@" || $0 == "\"" }.prefix { $0 != "\"" }
                return "\(finding.location.line):\(finding.location.column) \(finding.severity) \(text)"
            }
    }

    func testAnotherStoresProductIDIsNoneInSwift() {
        // Paddle's and other stores' SDKs, with the labels' spellings varied.
        let swift = """
            import Paddle
            func configure() {
                let product = PADProduct(productID: "534403", productType: .sdkProduct, configuration: config)
                let configuration = PADProductConfiguration(productID: "534404")
                let shared = Paddle.sharedInstance(withVendorID: "1234", apiKey: key, productID: "534405", configuration: config)
                let checkout = FastSpringStore(productId: "acme-pro-license")
                let sub = STPSubscription(productIdentifier: "prod_LxYz")
            }
            """
        XCTAssertEqual(unknown(swift, "App/License.swift"), [])
    }

    func testAnotherStoresProductIDIsNoneInObjectiveC() {
        let objc = """
            #import <Paddle/Paddle.h>
            - (void)configure {
                PADProduct *product = [[PADProduct alloc] initWithProductID:@"534403" productType:PADProductTypeSDKProduct configuration:config];
                Paddle *paddle = [Paddle sharedInstanceWithVendorID:@"1234" apiKey:key productID:@"534405" configuration:config];
                PADProductConfiguration *c = [PADProductConfiguration configurationWithProductID:@"534404"];
            }
            """
        XCTAssertEqual(unknown(objc, "App/License.m"), [])
    }

    func testAnUnknownTypesProductIDLabelIsAWarningNeverAnError() {
        let swift = """
            func start() {
                let license = LicenseManager(productID: "534403")
                helper.buy(productIdentifier: "gold_pack")
                let store = IAPHelper(productIds: ["com.acme.app.coins", "extra.lives"])
                let entitled = Entitlements.shared.isActive(forProductId: "vip_month")
            }
            """
        XCTAssertEqual(unknown(swift, "App/Store.swift"),
                       ["2:45 warning 534403", "3:35 warning gold_pack", "4:62 warning extra.lives", "5:63 warning vip_month"])
        let objc = """
            - (void)start {
                License *license = [[LicenseManager alloc] initWithProductID:@"534403"];
                [self.helper buyProductWithProductIdentifier:@"gold_pack"];
                IAPHelper *store = [[IAPHelper alloc] initWithProductIdentifiers:[NSSet setWithObjects:@"com.acme.app.coins", @"extra.lives", nil]];
            }
            """
        XCTAssertEqual(unknown(objc, "App/Store.m"), ["2:66 warning 534403", "3:50 warning gold_pack", "4:115 warning extra.lives"])
    }

    func testAnIDUnderTheAppsBundleIDIsTheAppsWhateverCallTakesIt() {
        // No other store's or license's ID is under the app's bundle ID: an error, as for StoreKit.
        XCTAssertEqual(unknown("helper.buy(productIdentifier: \"com.acme.app.gold\")\n", "App/Store.swift"), ["1:31 error com.acme.app.gold"])
        XCTAssertEqual(unknown("[self.helper buyProductWithProductIdentifier:@\"com.acme.app.gold\"];\n", "App/Store.m"), ["1:46 error com.acme.app.gold"])
        // Another prefix under an unknown call stays a warning.
        XCTAssertEqual(unknown("helper.buy(productIdentifier: \"com.other.gold\")\n", "App/Store.swift"), ["1:31 warning com.other.gold"])
    }

    func testAnAppsOwnModelNamedLikeAStoreKitTypeIsNotStoreKit() {
        // StoreKit 2's `Product` has no such initializer: this `Product` is the app's.
        XCTAssertEqual(unknown("let item = Product(productID: \"sku-77\", name: name)\n", "App/Model.swift"), ["1:31 warning sku-77"])
        XCTAssertEqual(unknown("Product *item = [[Product alloc] initWithProductID:@\"sku-77\"];\n", "App/Model.m"), ["1:52 warning sku-77"])
    }

    func testTheWarningSaysWhichCallAndWhy() {
        let findings = SourceLinter(context: context).lint(source: "let l = LicenseManager(productID: \"534403\")\n", path: "App/L.swift")
        XCTAssertEqual(findings.map(\.message), ["'534403' is used as a product ID but is not in the catalog (a warning: `LicenseManager(productID:)` is not StoreKit's or a known in-app purchase SDK's, so the value may be another store's or a license's product ID)"])
        let objc = SourceLinter(context: context).lint(source: "id l = [[LicenseManager alloc] initWithProductID:@\"534403\"];\n", path: "App/L.m")
        XCTAssertEqual(objc.map(\.message), ["'534403' is used as a product ID but is not in the catalog (a warning: `initWithProductID:` is not StoreKit's or a known in-app purchase SDK's, so the value may be another store's or a license's product ID)"])
    }

    func testStoreKitAndInAppPurchaseSDKsStayErrors() {
        let swift = """
            func load() async throws {
                let products = try await Product.products(for: ["unknown"])
                let request = SKProductsRequest(productIdentifiers: ["gold_pack"])
                let latest = await Transaction.latest(for: "vip_month")
                let eligible = await Purchases.shared.checkTrialOrIntroDiscountEligibility(productIdentifiers: ["trial.year"])
                SwiftyStoreKit.retrieveProductsInfo(["extra.lives"]) { _ in }
                let result = SwiftyStoreKit.verifyPurchase(productId: "old.coins", inReceipt: receipt)
                let rc = try await Purchases.shared.products(["rc.pack"])
            }
            """
        XCTAssertEqual(unknown(swift, "App/Store.swift"),
                       ["2:53 error unknown", "3:58 error gold_pack", "4:48 error vip_month", "5:101 error trial.year",
                        "6:42 error extra.lives", "7:59 error old.coins", "8:51 error rc.pack"])
        let objc = """
            - (void)load {
                SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObject:@"gold_pack"]];
                SKMutablePayment *p = [SKMutablePayment paymentWithProductIdentifier:@"vip_month"];
                if ([transaction.payment.productIdentifier isEqualToString:@"old.coins"]) { [self unlock]; }
            }
            """
        XCTAssertEqual(unknown(objc, "App/Store.m"), ["2:103 error gold_pack", "3:74 error vip_month", "4:64 error old.coins"])
    }

    func testAnIDThatAlsoReachesStoreKitOrIsATypoStaysAnError() {
        let swift = """
            let ids: Set<String> = ["gold_pack", "com.acme.app.coinz"]
            func start() {
                helper = IAPHelper(productIds: ids)
                let request = SKProductsRequest(productIdentifiers: ["gold_pack"])
                license = LicenseManager(productID: "com.acme.app.coinz")
            }
            """
        XCTAssertEqual(unknown(swift, "App/Store.swift"), ["1:25 warning gold_pack", "1:38 error com.acme.app.coinz", "4:58 error gold_pack",
                                                           "5:41 error com.acme.app.coinz"])
    }
}
