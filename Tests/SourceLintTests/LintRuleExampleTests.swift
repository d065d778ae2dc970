import Diagnostics
import Foundation
import XCTest
@testable import SourceLint

/// Every lint rule's examples: triggering ones fire at their `↓` marker, also after a multibyte
/// prefix; wrapped in a comment or after a disabling comment they do not; non-triggering ones never.
final class LintRuleExampleTests: XCTestCase {
    static let context = LintContext(
        productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro"],
        titles: [LintContext.normalizedTitle("Bag of Coins"), LintContext.normalizedTitle("Acme")], bundlePrefix: "com.acme.app.",
        appNames: [LintContext.normalizedTitle("Acme")])

    struct Prepared {
        var source: String
        var line: Int
        var column: Int
    }

    /// Strips the marker, remembering where it was; `prefix` goes before the marker's line.
    static func prepare(_ code: String, prefix: String = "") -> Prepared {
        var lines = code.components(separatedBy: "\n")
        var line = 0, column = 0
        for (i, text) in lines.enumerated() {
            guard let r = text.range(of: "↓") else { continue }
            line = i + 1
            let stripped = text.replacingCharacters(in: r, with: "")
            column = prefix.count + text.distance(from: text.startIndex, to: r.lowerBound) + 1
            lines[i] = prefix + stripped
        }
        return Prepared(source: lines.joined(separator: "\n"), line: line, column: column)
    }

    func lint(_ source: String, _ language: SourceLanguage) -> [Diagnostic] {
        SourceLinter(context: Self.context).lint(source: source, path: language == .swift ? "Example.swift" : "Example.m")
    }

    func testTriggeringExamples() {
        for rule in LintRules.all {
            for example in rule.triggering {
                for prefix in ["", "let ü = \"日本😀\"; "] where !(prefix.hasPrefix("let") && example.language == .objc) {
                    let p = Self.prepare(example.code, prefix: example.language == .objc && !prefix.isEmpty ? "" : prefix)
                    let found = lint(p.source, example.language).filter { $0.ruleID == rule.id }
                    XCTAssertTrue(found.contains { $0.location.line == p.line && $0.location.column == p.column },
                                  "\(rule.id): \(p.source.debugDescription) expected at \(p.line):\(p.column), got \(found.map { "\($0.location.line):\($0.location.column)" })")
                }
                guard rule.id != "invalid-suppression" else { continue }
                // Inside a comment: nothing.
                let p = Self.prepare(example.code)
                let commented = "/*\n" + p.source + "\n*/"
                XCTAssertTrue(lint(commented, example.language).filter { $0.ruleID == rule.id }.isEmpty, "\(rule.id) fired inside a comment: \(commented)")
                // After a disabling comment: nothing.
                let disabled = "// iap:disable \(rule.id) - example\n" + p.source + "\n// iap:enable \(rule.id)"
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
