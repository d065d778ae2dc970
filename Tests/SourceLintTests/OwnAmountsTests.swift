import XCTest
@testable import SourceLint

/// Amounts an app computes for itself are not App Store prices (measured on 20 fetched
/// repositories for issue 33): a currency formatter in a function that takes only binary numbers,
/// and a price-named constant in a file that sells nothing unless its name says whose price it is.
final class OwnAmountsTests: XCTestCase {
    func lint(_ source: String, path: String) -> [String] {
        SourceLinter(context: LintContext()).lint(source: source, path: path)
            .map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }
    }

    func testACurrencyFormatterOfTheAppsOwnNumbersIsQuiet() {
        let swift = """
            import StoreKit
            struct Onboarding {
                private func currencyString(_ value: Double) -> String {
                    let formatter = NumberFormatter()
                    formatter.numberStyle = .currency
                    formatter.locale = .current
                    return formatter.string(from: NSNumber(value: value)) ?? "$0"
                }
                func spend(_ cents: Int, rounded: Bool) -> String? {
                    let f = NumberFormatter()
                    f.numberStyle = .currencyAccounting
                    return f.string(from: NSNumber(value: cents))
                }
                func width(_ scale: CGFloat?) -> String? {
                    let f = NumberFormatter()
                    f.numberStyle = .currency
                    return f.string(for: scale)
                }
            }
            """
        XCTAssertEqual(lint(swift, path: "Onboarding.swift"), [])
        let objc = """
            #import <StoreKit/StoreKit.h>
            @implementation Savings
            - (NSString *)spend:(double)value rounded:(BOOL)rounded {
                NSNumberFormatter *f = [[NSNumberFormatter alloc] init];
                f.numberStyle = NSNumberFormatterCurrencyStyle;
                return [f stringFromNumber:@(value)];
            }
            + (NSString *)total:(NSInteger)cents;
            {
                NSNumberFormatter *f = [[NSNumberFormatter alloc] init];
                [f setNumberStyle:NSNumberFormatterCurrencyStyle];
                return [f stringFromNumber:@(cents)];
            }
            @end
            """
        XCTAssertEqual(lint(objc, path: "Savings.m"), [])
    }

    func testAFormatterThatCanBeGivenAPriceIsStillFound() {
        let swift = """
            import StoreKit
            func label(_ product: SKProduct, scale: Double) -> String? {
                let formatter = NumberFormatter()
                formatter.numberStyle = .currency
                return formatter.string(from: product.price)
            }
            func label(_ price: Decimal) -> String? {
                let formatter = NumberFormatter()
                formatter.numberStyle = .currency
                return formatter.string(for: price)
            }
            func label() -> String? {
                let formatter = NumberFormatter()
                formatter.numberStyle = .currency
                return formatter.string(for: 1)
            }
            """
        XCTAssertEqual(lint(swift, path: "Store.swift"), ["4:5 currency-formatter-locale", "9:5 currency-formatter-locale", "14:5 currency-formatter-locale"])
        let objc = """
            #import <StoreKit/StoreKit.h>
            @implementation Store
            - (NSString *)label:(SKProduct *)product scale:(double)scale {
                NSNumberFormatter *f = [[NSNumberFormatter alloc] init];
                f.numberStyle = NSNumberFormatterCurrencyStyle;
                return [f stringFromNumber:product.price];
            }
            @end
            """
        XCTAssertEqual(lint(objc, path: "Store.m"), ["5:5 currency-formatter-locale"])
    }

    func testAPriceNamedConstantOutsideASellingFileMustSayWhosePriceItIs() {
        let ownSwift = """
            import Foundation
            enum Ledger {
                private static let typicalUnitPrice: Double = 5.0
                static let itemCost = 1.89
                let averagePrice = Decimal(2.49)
            }
            """
        XCTAssertEqual(lint(ownSwift, path: "Ledger.swift"), [])
        let productSwift = """
            import Foundation
            enum Forecast {
                static let proPrice: Double = 9.99
                static let kMonthlySubscriptionPrice = 4.99
                let lifetimeCost = Decimal(29.99)
            }
            """
        XCTAssertEqual(lint(productSwift, path: "Forecast.swift"), ["3:16 hardcoded-price", "4:16 hardcoded-price", "5:9 hardcoded-price"])
        // In a file that sells products, any price name still counts.
        let selling = """
            import StoreKit
            enum Shop {
                static let unitPrice = 4.99
            }
            """
        XCTAssertEqual(lint(selling, path: "Shop.swift"), ["3:16 hardcoded-price"])
        XCTAssertEqual(lint("#define kItemPrice 1.89\nstatic const double kUnitCost = 2.49;\n", path: "Ledger.m"), [])
        XCTAssertEqual(lint("#define kProPrice 9.99\nstatic const double kYearlyCost = 29.99;\n", path: "Prices.m"),
                       ["1:9 hardcoded-price"])
        XCTAssertEqual(lint("#import <StoreKit/StoreKit.h>\n#define kItemPrice 1.89\n", path: "Shop.m"), ["2:9 hardcoded-price"])
    }
}
