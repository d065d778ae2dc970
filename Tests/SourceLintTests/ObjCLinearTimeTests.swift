import Diagnostics
import Foundation
import XCTest
@testable import SourceLint

/// The Objective-C linter is linear in its tokens (issue 22: 4,000 nested `stringWithFormat:`
/// messages, 140 kB, took 17.8 s, and 10,000 more than a minute). Each shape below made one of
/// its questions scan a statement, a body or the file again for every token. Each is linted at
/// 400 and at 4,000 repetitions: ten times the input must take less than 30 times the time
/// (linear is 10, quadratic 100), a ratio of processor times that holds on a loaded machine where
/// a time limit does not; the findings at 4,000 are the ones it had before.
final class ObjCLinearTimeTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.coins": "coins", "com.acme.app.pro": "pro"],
                              titles: ["100 Coins"], bundlePrefix: "com.acme.app")

    /// Lints `body(n)` inside a method of a file that imports StoreKit, for n = 400 and 4,000;
    /// checks the growth, and returns the findings at 4,000 by rule.
    func lint(_ body: (Int) -> String, file: String = "Shop.m") -> [String: Int] {
        func source(_ n: Int) -> String { "#import <StoreKit/StoreKit.h>\n\n@implementation Shop\n- (void)show {\n" + body(n) + "\n}\n@end\n" }
        let (small, large) = (source(400), source(4000))
        let linter = SourceLinter(context: context)
        var smallTime = (0..<3).map { _ in Self.seconds { _ = linter.lint(source: small, path: file) } }.min()!
        var found: [Diagnostic] = []
        var largeTime = Self.seconds { found = linter.lint(source: large, path: file) }
        // A build or test run beside this one can stall one measurement: a ratio over the bound is
        // measured twice more, each size's best time kept. Quadratic time fails every attempt.
        for _ in 0..<2 where largeTime >= max(smallTime, 0.001) * 30 {
            smallTime = min(smallTime, Self.seconds { _ = linter.lint(source: small, path: file) })
            largeTime = min(largeTime, Self.seconds { _ = linter.lint(source: large, path: file) })
        }
        XCTAssertLessThan(largeTime, max(smallTime, 0.001) * 30,
                          "\(large.utf8.count) bytes took \(largeTime) s, \(small.utf8.count) bytes \(smallTime) s")
        return Dictionary(found.map { ($0.ruleID, 1) }, uniquingKeysWith: +)
    }

    /// The processor time `work` takes (the process's, in seconds): unlike the time on the clock,
    /// it does not grow while a build beside the tests has the processors.
    static func seconds(_ work: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start)
        work()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    func testNestedFormatMessages() {
        // Each message's arguments hold every message inside it.
        let nested = { (n: Int) in "    label.text = " + String(repeating: "[NSString stringWithFormat:@\"%@\",", count: n) + " price"
            + String(repeating: "]", count: n) + ";" }
        XCTAssertEqual(lint(nested), [:])
        let priced = { (n: Int) in "    label.text = " + String(repeating: "[NSString stringWithFormat:@\"$%@\",", count: n) + " price"
            + String(repeating: "]", count: n) + ";" }
        XCTAssertEqual(lint(priced), ["hardcoded-price": 101])
    }

    func testManyConversionsInOneBody() {
        // Each conversion looked through the rest of the body for uses of its local.
        let body = { (n: Int) in (0..<n).map { "    double monthly\($0) = product.price.doubleValue;" }.joined(separator: "\n") }
        XCTAssertEqual(lint(body), ["price-float-conversion": 101])
    }

    func testManyCurrencyFormattersInManyMethods() {
        // Each style set scanned the whole file for where the formatter's locale is set.
        let body = { (n: Int) in (0..<n).map { "}\n- (void)f\($0) {\n    _priceFormatter.numberStyle = NSNumberFormatterCurrencyStyle;" }.joined(separator: "\n") }
        XCTAssertEqual(lint(body), ["currency-formatter-locale": 101])
        XCTAssertEqual(lint { body($0) + "\n    _priceFormatter.locale = product.priceLocale;" }, [:])
    }

    func testLongChainsOfAssignments() {
        // Each `=` looked ahead to the end of its statement for a price, and for where its value ends.
        XCTAssertEqual(lint { n in "    int " + (0..<n).map { "a\($0) = 1" }.joined(separator: ", ") + ";" }, [:])
        XCTAssertEqual(lint { n in "    a = " + (0..<n).map { "b\($0)" }.joined(separator: " = ") + ";" }, [:])
    }

    func testManySinksOfOneManyTimesAssignedName() {
        // Each sink followed every assignment of the name.
        let body = { (n: Int) in (0..<n).map { "    ids = @\"com.acme.app.p\($0)\";" }.joined(separator: "\n") + "\n"
            + (0..<n).map { _ in "    r = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];" }.joined(separator: "\n") }
        XCTAssertEqual(lint(body), ["unknown-product-id": 101])
    }

    func testDeeplyNestedLoggingAndLocalizationCalls() {
        let logged = { (n: Int) in "    " + String(repeating: "NSLog(@\"$0.99 %@\", ", count: n) + "x" + String(repeating: ")", count: n) + ";" }
        XCTAssertEqual(lint(logged), [:])
        let localized = { (n: Int) in
            "    " + String(repeating: "NSLocalizedString(@\"100 Coins\", ", count: n) + "@\"c\"" + String(repeating: ")", count: n) + ";"
        }
        XCTAssertEqual(lint(localized), [:])
    }

    func testDeeplyNestedDebugBranches() {
        let source = { (n: Int) in "#import <StoreKit/StoreKit.h>\n" + String(repeating: "#if DEBUG\n", count: n) + "@\"$0.99\";\n"
            + String(repeating: "@\"$0.99\";\n", count: n) + String(repeating: "#endif\n", count: n) + "@\"$1.99\";\n" }
        let linter = SourceLinter(context: context)
        let smallTime = (0..<3).map { _ in Self.seconds { _ = linter.lint(source: source(400), path: "Debug.m") } }.min()!
        var found: [Diagnostic] = []
        var largeTime = Self.seconds { found = linter.lint(source: source(4000), path: "Debug.m") }
        for _ in 0..<2 where largeTime >= max(smallTime, 0.001) * 30 {
            largeTime = min(largeTime, Self.seconds { _ = linter.lint(source: source(4000), path: "Debug.m") })
        }
        XCTAssertLessThan(largeTime, max(smallTime, 0.001) * 30, "4,000 branches took \(largeTime) s, 400 \(smallTime) s")
        XCTAssertEqual(found.map { "\($0.location.line) \($0.ruleID)" }, ["12003 hardcoded-price"])
    }
}
