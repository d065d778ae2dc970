import Diagnostics
import Foundation
import XCTest
@testable import SourceLint
import TestSupport

/// Every lint rule's examples: triggering ones fire at their `↓` marker, also after a multibyte
/// prefix; wrapped in a comment or after a disabling comment they do not; non-triggering ones never.
final class LintRuleExampleTests: XCTestCase {
    static let context = LintContext(
        productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro"],
        titles: [LintContext.normalizedTitle("Bag of Coins"), LintContext.normalizedTitle("Acme")], bundlePrefix: "com.acme.app.",
        appNames: [LintContext.normalizedTitle("Acme")])

    func lint(_ source: String, _ language: SourceLanguage) -> [Diagnostic] {
        SourceLinter(context: Self.context).lint(source: source, path: language == .swift ? "Example.swift" : "Example.m")
    }

    func testTriggeringExamples() {
        for rule in LintRules.all {
            for example in rule.triggering {
                for prefix in ["", "let ü = \"日本😀\"; "] where !(prefix.hasPrefix("let") && example.language == .objc) {
                    let p = MarkedText(example.code, prefix: example.language == .objc && !prefix.isEmpty ? "" : prefix)
                    let found = lint(p.text, example.language).filter { $0.ruleID == rule.id }
                    XCTAssertTrue(found.contains { $0.location.line == p.line && $0.location.column == p.column },
                                  "\(rule.id): \(p.text.debugDescription) expected at \(p.line ?? 0):\(p.column ?? 0), got \(found.map { "\($0.location.line):\($0.location.column)" })")
                }
                guard rule.id != "invalid-suppression" else { continue }
                // Inside a comment: nothing.
                let p = MarkedText(example.code)
                let commented = "/*\n" + p.text + "\n*/"
                XCTAssertTrue(lint(commented, example.language).filter { $0.ruleID == rule.id }.isEmpty, "\(rule.id) fired inside a comment: \(commented)")
                // After a disabling comment: nothing.
                let disabled = "// iap:disable \(rule.id) - example\n" + p.text + "\n// iap:enable \(rule.id)"
                XCTAssertTrue(lint(disabled, example.language).filter { $0.ruleID == rule.id }.isEmpty, "\(rule.id) fired though disabled")
            }
        }
    }

    func testNonTriggeringExamples() {
        for rule in LintRules.all {
            for example in rule.nonTriggering {
                let found = lint(example.code, example.language).filter { $0.ruleID == rule.id }
                XCTAssertTrue(found.isEmpty, "\(rule.id) fired on \(example.code.debugDescription): \(found.map(\.message))")
            }
        }
    }

    func testSuppressionForms() {
        let base = "let a = \"$0.99\"\n"
        XCTAssertEqual(lint(base, .swift).count, 1)
        XCTAssertEqual(lint("// iap:disable:next hardcoded-price\n" + base, .swift).count, 0)
        XCTAssertEqual(lint("let a = \"$0.99\" // iap:disable:this hardcoded-price - shown in a test fixture\n", .swift).count, 0)
        XCTAssertEqual(lint("// iap:disable:next all\n" + base, .swift).count, 0)
        XCTAssertEqual(lint("// iap:disable:next hardcoded-title\n" + base, .swift).count, 1)
    }
}
