import Diagnostics
import XCTest
@testable import SourceLint

/// The classes of false finding left after issue 21's first measurement (docs/accuracy.md), each
/// written in Swift and in Objective-C: what is not a product's price, title or formatter stays
/// quiet, and the true finding beside it still fires.
final class LintPrecisionClassTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.pro": "ProductID.pro"],
                              titles: [LintContext.normalizedTitle("Pro Theme")], bundlePrefix: "com.acme.app.")

    func lint(_ source: String, path: String) -> [String] {
        SourceLinter(context: context).lint(source: source, path: path).map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }
    }

    func testAnAmountOfZeroIsNotAPrice() {
        let swift = """
        let total = formatter.string(from: sum as NSDecimalNumber) ?? "$0.00"
        let empty = "0,00 €"
        let price = "$0.99"
        """
        XCTAssertEqual(lint(swift, path: "App/Totals.swift"), ["3:13 hardcoded-price"])
        let objc = """
        NSString *total = @"$0.00";
        NSString *price = @"$0.99";
        """
        XCTAssertEqual(lint(objc, path: "App/Totals.m"), ["2:19 hardcoded-price"])
    }

    func testInterpolatedMoneyIsAProductsPriceWhereProductsAreSoldOrWhenItNamesAPrice() {
        // An app that shows an API's cost in dollars: its own money, not a product's price.
        let costs = """
        import SwiftUI
        struct Usage: View {
            let totalCost: Decimal
            var body: some View { Text("Est. cost: $\\(totalCost)") }
        }
        """
        XCTAssertEqual(lint(costs, path: "App/Usage.swift"), [])
        // The same line in a file that sells products, and a price by name anywhere, are prices.
        XCTAssertEqual(lint("import StoreKit\n" + costs, path: "App/Usage.swift"), ["5:32 hardcoded-price"])
        XCTAssertEqual(lint("let label = \"Only $\\(proPrice)\"\n", path: "App/Paywall.swift"), ["1:13 hardcoded-price"])
    }

    func testLiteralsThatDescribeAStandInProductAreNotShownPrices() {
        let swift = """
        enum TestData {
            static let weekly = TestStoreProduct(localizedTitle: "Pro Theme", price: 1.99, localizedPriceString: "$1.99")
            static let loading = PlaceholderProduct(displayPrice: "$4.99")
        }
        let plan = Plan(title: "Pro Theme", displayPrice: "$1.99")
        """
        XCTAssertEqual(lint(swift, path: "App/Plans.swift"), ["5:24 hardcoded-title", "5:51 hardcoded-price"])
        let objc = """
        SKProduct *weekly = [[TestProduct alloc] initWithTitle:@"Pro Theme" price:@"$1.99"];
        id stub = [MockProduct productWithPriceString:@"$4.99"];
        Plan *plan = [[Plan alloc] initWithTitle:@"Pro Theme" price:@"$1.99"];
        """
        XCTAssertEqual(lint(objc, path: "App/Plans.m"), ["3:42 hardcoded-title", "3:61 hardcoded-price"])
    }

    func testAKeyThatSpellsAProductsTitleIsNotTheTitle() {
        let swift = """
        let theme = Theme(nameKey: "PRO THEME", titleID: "Pro Theme")
        let shown = Theme(name: "Pro Theme")
        """
        XCTAssertEqual(lint(swift, path: "App/Themes.swift"), ["2:25 hardcoded-title"])
        let objc = """
        Theme *theme = [Theme themeWithNameKey:@"PRO THEME"];
        Theme *shown = [Theme themeWithName:@"Pro Theme"];
        """
        XCTAssertEqual(lint(objc, path: "App/Themes.m"), ["2:37 hardcoded-title"])
    }

    func testAFormatterWhoseCurrencyIsSetFromAValueIsNotReported() {
        // A transaction's paid price has no price locale: its currency is set per value.
        let swift = """
        import StoreKit
        enum Paid {
            static let formatter: NumberFormatter = {
                let formatter = NumberFormatter()
                formatter.numberStyle = .currency
                return formatter
            }()
            static func text(_ transaction: Transaction, formatter: NumberFormatter) -> String? {
                formatter.currencyCode = transaction.currency?.identifier
                return formatter.string(from: transaction.price! as NSDecimalNumber)
            }
        }
        """
        XCTAssertEqual(lint(swift, path: "App/Paid.swift"), [])
        XCTAssertEqual(lint(swift.replacingOccurrences(of: "transaction.currency?.identifier", with: "\"USD\""), path: "App/Paid.swift"),
                       ["5:9 currency-formatter-locale", "9:34 currency-formatter-locale"])
        let objc = """
        #import <StoreKit/StoreKit.h>
        - (NSString *)paid:(NSDecimalNumber *)amount currency:(NSString *)code {
            NSNumberFormatter *formatter = [[NSNumberFormatter alloc] init];
            formatter.numberStyle = NSNumberFormatterCurrencyStyle;
            [formatter setCurrencyCode:code];
            return [formatter stringFromNumber:amount];
        }
        """
        XCTAssertEqual(lint(objc, path: "App/Paid.m"), [])
        XCTAssertEqual(lint(objc.replacingOccurrences(of: "[formatter setCurrencyCode:code];", with: ""), path: "App/Paid.m"),
                       ["4:5 currency-formatter-locale"])
    }

    func testCPlusPlusRawStringsInObjectiveCPlusPlusAreStrings() {
        let source = """
        static const char *json = R"({ "tools": ["a\\b", "c"] })";
        static const char *other = u8R"x(quote " and )" inside
        a second line)x";
        NSString *price = @"$0.99";
        """
        XCTAssertEqual(lint(source, path: "App/Tools.mm"), ["4:19 hardcoded-price"])
        let unterminated = "static const char *json = R\"({ \"a\": 1 }\";\nNSString *name = @\"x\";\n"
        let findings = SourceLinter(context: context).lint(source: unterminated, path: "App/Tools.mm")
        XCTAssertEqual(findings.map(\.ruleID), ["unparsed-source"])
        XCTAssertEqual(findings.first?.message, "a raw string that never ends: findings after this point may be missed")
    }

    func testAMacroNamedInTheSystemsReservedSpaceIsNotAPrice() {
        let header = """
        #define __DARWIN_SUF_1050 "$1050"
        #define _SUF_UNIX "$20.50"
        #define kProPriceText @"$10.50"
        """
        XCTAssertEqual(lint(header, path: "include/sys/cdefs.h"), ["3:23 hardcoded-price"])
    }

    func testCodeNestedPastTheParsersLimitIsAnInfoNotAStringThatNeverEnds() {
        // 18 closures inside each other, each with an interpolation, is valid code (owncloud's) and parses.
        let real = "func f() {\n" + String(repeating: "g { x in\n", count: 18) + "print(\"a \\(b) c\")\n"
            + String(repeating: "}\n", count: 18) + "}\n"
        XCTAssertEqual(SourceLinter(context: context).lint(source: real, path: "App/Deep.swift").count, 0)
        let depth = 300
        let source = "func f() {\n" + String(repeating: "g { x in\n", count: depth) + "print(\"a \\(b) c\")\n"
            + String(repeating: "}\n", count: depth) + "}\n"
        let findings = SourceLinter(context: context).lint(source: source, path: "App/Deep.swift")
        XCTAssertEqual(findings.map(\.ruleID), ["unparsed-source"])
        XCTAssertEqual(findings.first?.severity, .info)
        XCTAssertEqual(findings.first?.message,
                       "the code nests deeper here than iap's Swift parser follows (closures, calls and interpolations inside each other): the rest of the file is not linted")
    }
}
