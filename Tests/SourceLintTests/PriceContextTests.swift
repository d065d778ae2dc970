import XCTest
@testable import SourceLint

/// Issue 33, item 6: prices the linter missed. (a) A price truncated or converted after it was put
/// in a local not named for a price: the value is followed, not the name. (b) A bare amount
/// (`"0.99"`) given to a price's place. Each in Swift and Objective-C, with the true findings
/// beside them kept and the innocent code beside them quiet.
final class PriceContextTests: XCTestCase {
    func lint(_ source: String, path: String, rule: String? = nil) -> [String] {
        SourceLinter(context: LintContext()).lint(source: source, path: path)
            .filter { rule == nil || $0.ruleID == rule }
            .map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }
    }

    // MARK: (a) A price through a local of any name

    func testAPriceInALocalOfAnyNameIsFollowedToItsTruncation() {
        let swift = """
            import StoreKit
            func show(_ product: SKProduct, _ skProduct: SKProduct, _ storeProduct: StoreProduct) {
                let amount = product.price
                label.text = "\\(NSDecimalNumber(decimal: amount.decimalValue).intValue)"
                let value: NSDecimalNumber? = skProduct.price
                total.text = String(NSDecimalNumber(decimal: value!.decimalValue).intValue)
                let v = storeProduct.price
                let whole = Int(truncating: v as NSNumber)
                let cents = (amount as NSDecimalNumber).doubleValue
                guard let p = product.price as NSDecimalNumber? else { return }
                let shown = p.integerValue
                let x = amount
                let y = x.intValue
            }
            """
        XCTAssertEqual(lint(swift, path: "App/Paywall.swift", rule: "price-float-conversion"),
                       ["4:21 price-float-conversion", "6:25 price-float-conversion", "8:17 price-float-conversion",
                        "9:17 price-float-conversion", "11:17 price-float-conversion", "13:13 price-float-conversion"])
    }

    func testTheNamePathStaysAndLocalsThatHoldNoPriceAreQuiet() {
        let swift = """
            import StoreKit
            func show(_ product: SKProduct) {
                let price = product.price
                label.text = String(price.intValue)
                let count = prices.count
                let n = Int(count)
                let locale = product.priceLocale
                let shown = product.displayPrice
                let amount = order.total
                let a = amount.intValue
                let ratio = product.price
                if ratio.doubleValue > 0 { show() }
            }
            func other() {
                let amount = 3 as NSNumber
                let whole = amount.intValue
            }
            """
        XCTAssertEqual(lint(swift, path: "App/Paywall.swift", rule: "price-float-conversion"), ["4:25 price-float-conversion"])
    }

    func testALocalOfAnotherFunctionOrAShadowingOneIsNotFollowed() {
        let swift = """
            import StoreKit
            func a(_ product: SKProduct) {
                let amount = product.price
                use(amount)
            }
            func b() {
                let whole = amount.intValue
                let amount = NSNumber(value: 3)
                if true {
                    let amount = coins
                    let n = amount.intValue
                }
            }
            """
        XCTAssertEqual(lint(swift, path: "App/Paywall.swift", rule: "price-float-conversion"), [])
    }

    func testAGamesPriceInALocalCountsOnlyThroughNSNumberOrWhereProductsAreSold() {
        // `Int(amount)` of a game's price in gold is no money; `.intValue` is NSNumber's: money.
        let swift = """
            func buy(_ item: Item) {
                let amount = item.price
                let gold = Int(amount)
                let whole = NSDecimalNumber(decimal: amount).intValue
            }
            """
        XCTAssertEqual(lint(swift, path: "Game/Shop.swift", rule: "price-float-conversion"), ["4:17 price-float-conversion"])
    }

    func testAPriceInALocalOfAnyNameInObjectiveC() {
        let objc = """
            #import <StoreKit/StoreKit.h>
            - (void)show:(SKProduct *)product {
                NSDecimalNumber *amount = product.price;
                self.label.text = [NSString stringWithFormat:@"%d", [amount intValue]];
                NSDecimalNumber *value = (NSDecimalNumber *)[product price];
                total.text = [NSString stringWithFormat:@"%ld", (long)value.integerValue];
                NSDecimalNumber *again = amount;
                cents = again.doubleValue;
                NSInteger count = self.prices.count;
                if (amount.doubleValue > 0) { [self buy]; }
            }
            - (void)other {
                int whole = [amount intValue];
            }
            """
        XCTAssertEqual(lint(objc, path: "App/Paywall.m", rule: "price-float-conversion"),
                       ["4:58 price-float-conversion", "6:59 price-float-conversion", "8:13 price-float-conversion"])
        // The name path stays.
        XCTAssertEqual(lint("- (void)f:(SKProduct *)product {\n    NSDecimalNumber *price = product.price;\n    x = [price intValue];\n}\n",
                            path: "App/P.m", rule: "price-float-conversion"), ["3:10 price-float-conversion"])
    }

    // MARK: (b) A bare amount given to a price's place

    func testABareAmountGivenToAPricesPlaceIsAPrice() {
        let swift = """
            func show() {
                priceLabel.text = "0.99"
                self.price = "1.99"
                cell.priceLabel?.text = "4,99"
                let plan = Plan(name: name, price: "12.00")
                priceButton.setTitle("2.99", for: .normal)
                let yearlyPrice = "29.99"
                configure(displayPrice: "9.99")
            }
            """
        XCTAssertEqual(lint(swift, path: "App/Paywall.swift", rule: "hardcoded-price"),
                       ["2:23 hardcoded-price", "3:18 hardcoded-price", "4:29 hardcoded-price", "5:40 hardcoded-price",
                        "6:26 hardcoded-price", "7:23 hardcoded-price", "8:29 hardcoded-price"])
        let objc = """
            - (void)show {
                priceLabel.text = @"0.99";
                self.price = @"1.99";
                _priceLabel.text = @"4,99";
                Plan *plan = [[Plan alloc] initWithName:name price:@"12.00"];
                [self.priceButton setTitle:@"2.99" forState:UIControlStateNormal];
                NSString *yearlyPrice = @"29.99";
                [self.priceLabel setText:@"9.99"];
            }
            """
        XCTAssertEqual(lint(objc, path: "App/Paywall.m", rule: "hardcoded-price"),
                       ["2:23 hardcoded-price", "3:18 hardcoded-price", "4:24 hardcoded-price", "5:56 hardcoded-price",
                        "6:32 hardcoded-price", "7:29 hardcoded-price", "8:30 hardcoded-price"])
    }

    func testTheMessageNamesThePlace() {
        let findings = SourceLinter(context: LintContext()).lint(source: "priceLabel.text = \"0.99\"\n", path: "App/P.swift")
        XCTAssertEqual(findings.map(\.message), ["the literal gives 'priceLabel' a price written in code ('0.99'); show the product's displayPrice so every storefront sees its own"])
    }

    func testDecimalsElsewhereAndAboutPricesAreNotPrices() {
        let swift = """
            func show() {
                versionLabel.text = "1.0"
                let version = "2.5"
                appVersion = "10.15"
                label.text = "0.99"
                let scale = "1.25"
                priceLabel.text = "1.0"
                priceLocaleID = "12.34"
                let priceChangePercent = "12.50"
                let info = ["price": "0.99"]
                print(price, "0.99")
                let priceLabelHeight = "20.50"
                self.price = "0.00"
                Text("4.99")
            }
            """
        XCTAssertEqual(lint(swift, path: "App/About.swift"), [])
        let objc = """
            - (void)show {
                versionLabel.text = @"1.0";
                NSString *version = @"2.50";
                label.text = @"0.99";
                priceLabel.text = @"2.5";
                NSDictionary *d = @{@"price": @"0.99"};
                NSLog(@"%@", @"0.99");
                if ([price isEqualToString:@"0.99"]) { }
                self.price = @"0.00";
            }
            """
        XCTAssertEqual(lint(objc, path: "App/About.m"), [])
    }

    func testPricesWithACurrencyStillFireOnceAndStandInsStayQuiet() {
        let swift = """
            priceLabel.text = "$0.99"
            let stub = MockProduct(price: "0.99")
            #if DEBUG
            priceLabel.text = "0.99"
            #endif
            """
        XCTAssertEqual(lint(swift, path: "App/Paywall.swift"), ["1:19 hardcoded-price"])
    }
}
