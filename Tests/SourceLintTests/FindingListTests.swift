import Diagnostics
import XCTest
@testable import SourceLint

/// Findings are capped as a linter makes them: what is kept must be what sorting every finding
/// and capping at the end kept.
final class FindingListTests: XCTestCase {
    func finding(_ line: Int, _ column: Int = 1, _ rule: RuleDescription = HardcodedPriceRule.description) -> Finding {
        Finding(rule: rule, message: "at \(line):\(column)", line: line, column: column)
    }

    func summary(_ list: FindingList) -> [String] {
        list.diagnostics(path: "F.m").sortedForOutput().map { "\($0.location.line):\($0.location.column) \($0.ruleID) \($0.message)" }
    }

    func testFindingsAddedOutOfOrderKeepTheFirstInFileOrder() {
        var list = FindingList(suppressions: Suppressions(comments: [], knownRules: LintRules.ids), limit: 3)
        // Backwards, then a tie at one position (kept in the order added), then another rule.
        for line in stride(from: 10, through: 1, by: -1) { list.append(finding(line)) }
        list.append(Finding(rule: HardcodedPriceRule.description, message: "second at 2:1", line: 2, column: 1))
        list.append(finding(7, 1, HardcodedTitleRule.description))
        XCTAssertEqual(summary(list), [
            "1:1 hardcoded-price at 1:1",
            "2:1 hardcoded-price at 2:1",
            "2:1 hardcoded-price second at 2:1",
            "3:1 hardcoded-price 8 more hardcoded-price findings in this file from here on, not listed one by one (iap lists the first 3 of a rule per file)",
            "7:1 hardcoded-title at 7:1",
        ])
    }

    func testSuppressedFindingsNeitherCountNorTakeAPlace() {
        let comments = [SourceComment(line: 1, column: 1, text: " iap:disable:next hardcoded-price"),
                        SourceComment(line: 4, column: 1, text: " iap:disable all"),
                        SourceComment(line: 6, column: 1, text: " iap:enable all")]
        var list = FindingList(suppressions: Suppressions(comments: comments, knownRules: LintRules.ids), limit: 2)
        list += (1...8).map { finding($0) }
        XCTAssertEqual(summary(list), [
            "1:1 hardcoded-price at 1:1",
            "3:1 hardcoded-price at 3:1",
            "4:1 hardcoded-price 4 more hardcoded-price findings in this file from here on, not listed one by one (iap lists the first 2 of a rule per file)",
        ])
    }

    func testTheObjectiveCTokenIsCompact() {
        // A file of punctuation is a token per byte: 32 bytes each, not 48.
        XCTAssertEqual(MemoryLayout<ObjCTokenizer.Token>.stride, 32)
        // A long identifier is one string per file, shared by every token that spells it.
        let tokens = ObjCTokenizer("[a stringWithFormat:x]; [b stringWithFormat:y];").tokens.filter { $0.text == "stringWithFormat" }
        XCTAssertEqual(tokens.count, 2)
        XCTAssertTrue(tokens[0].text.utf8.withContiguousStorageIfAvailable { a in
            tokens[1].text.utf8.withContiguousStorageIfAvailable { b in a.baseAddress == b.baseAddress }
        } == true)
    }
}
