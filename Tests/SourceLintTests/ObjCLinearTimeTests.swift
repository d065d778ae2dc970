import Diagnostics
import Foundation
import XCTest
@testable import SourceLint

/// The Objective-C linter is linear in its tokens (issue 22: 4,000 nested `stringWithFormat:`
/// messages, 140 kB, took 17.8 s, and 10,000 more than a minute). Each shape below made one of
/// its questions scan a statement, a body or the file again for every token; each is linted at
/// 4,000 repetitions within a few seconds of a debug build, with the findings it had before.
final class ObjCLinearTimeTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.coins": "coins", "com.acme.app.pro": "pro"],
                              titles: ["100 Coins"], bundlePrefix: "com.acme.app")

    /// Lints `body` inside a method of a file that imports StoreKit; the findings by rule.
    func lint(_ body: String, file: String = "Shop.m", limit: TimeInterval = 10) -> [String: Int] {
        let source = "#import <StoreKit/StoreKit.h>\n\n@implementation Shop\n- (void)show {\n" + body + "\n}\n@end\n"
        let start = Date()
        let found = SourceLinter(context: context).lint(source: source, path: file)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertLessThan(seconds, limit, "\(source.utf8.count) bytes took \(seconds) s")
        return Dictionary(found.map { ($0.ruleID, 1) }, uniquingKeysWith: +)
    }

    func testNestedFormatMessages() {
        // Each message's arguments hold every message inside it.
        let nested = "    label.text = " + String(repeating: "[NSString stringWithFormat:@\"%@\",", count: 4000) + " price"
            + String(repeating: "]", count: 4000) + ";"
        XCTAssertEqual(lint(nested), [:])
        let priced = "    label.text = " + String(repeating: "[NSString stringWithFormat:@\"$%@\",", count: 4000) + " price"
            + String(repeating: "]", count: 4000) + ";"
        XCTAssertEqual(lint(priced), ["hardcoded-price": 101])
    }

    func testManyConversionsInOneBody() {
        // Each conversion looked through the rest of the body for uses of its local.
        let body = (0..<4000).map { "    double monthly\($0) = product.price.doubleValue;" }.joined(separator: "\n")
        XCTAssertEqual(lint(body), ["price-float-conversion": 101])
    }

    func testManyCurrencyFormattersInManyMethods() {
        // Each style set scanned the whole file for where the formatter's locale is set.
        let body = (0..<4000).map { "}\n- (void)f\($0) {\n    _priceFormatter.numberStyle = NSNumberFormatterCurrencyStyle;" }.joined(separator: "\n")
        XCTAssertEqual(lint(body), ["currency-formatter-locale": 101])
        XCTAssertEqual(lint(body + "\n    _priceFormatter.locale = product.priceLocale;"), [:])
    }

    func testLongChainsOfAssignments() {
        // Each `=` looked ahead to the end of its statement for a price, and for where its value ends.
        XCTAssertEqual(lint("    int " + (0..<4000).map { "a\($0) = 1" }.joined(separator: ", ") + ";"), [:])
        XCTAssertEqual(lint("    a = " + (0..<4000).map { "b\($0)" }.joined(separator: " = ") + ";"), [:])
    }

    func testManySinksOfOneManyTimesAssignedName() {
        // Each sink followed every assignment of the name.
        let body = (0..<4000).map { "    ids = @\"com.acme.app.p\($0)\";" }.joined(separator: "\n") + "\n"
            + (0..<4000).map { _ in "    r = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];" }.joined(separator: "\n")
        XCTAssertEqual(lint(body), ["unknown-product-id": 101])
    }

    func testDeeplyNestedLoggingAndLocalizationCalls() {
        let logged = "    " + String(repeating: "NSLog(@\"$0.99 %@\", ", count: 4000) + "x" + String(repeating: ")", count: 4000) + ";"
        XCTAssertEqual(lint(logged), [:])
        let localized = "    " + String(repeating: "NSLocalizedString(@\"100 Coins\", ", count: 4000) + "@\"c\"" + String(repeating: ")", count: 4000) + ";"
        XCTAssertEqual(lint(localized), [:])
    }

    func testDeeplyNestedDebugBranches() {
        let source = "#import <StoreKit/StoreKit.h>\n" + String(repeating: "#if DEBUG\n", count: 4000) + "@\"$0.99\";\n"
            + String(repeating: "@\"$0.99\";\n", count: 4000) + String(repeating: "#endif\n", count: 4000) + "@\"$1.99\";\n"
        let start = Date()
        let found = SourceLinter(context: context).lint(source: source, path: "Debug.m")
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertEqual(found.map { "\($0.location.line) \($0.ruleID)" }, ["12003 hardcoded-price"])
    }
}
