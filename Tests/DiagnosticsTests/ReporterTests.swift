import Foundation
import XCTest
@testable import Diagnostics

final class ReporterTests: XCTestCase {
    let a = Diagnostic(ruleID: "duplicate-id", severity: .error, message: "product ID 'x' is listed 2 times",
                       location: SourceLocation(path: "b.plist", line: 6, column: 2),
                       related: [RelatedLocation(SourceLocation(path: "b.plist", line: 5, column: 2), "also listed here")],
                       fix: SuggestedFix("remove the repeated entry"))
    let b = Diagnostic(ruleID: "similar-ids", severity: .warning, message: "close",
                       location: SourceLocation(path: "a.plist", line: 9, column: 1))
    let c = Diagnostic(ruleID: "undeclared-kind", severity: .info, message: "kind unknown",
                       location: SourceLocation(path: "a.plist", line: 0))

    func testTextFormIsWhatEditorsParse() {
        XCTAssertEqual(TextReporter().render([a, b, c]), """
        a.plist: info: kind unknown [undeclared-kind]
        a.plist:9:1: warning: close [similar-ids]
        b.plist:6:2: error: product ID 'x' is listed 2 times [duplicate-id]
        b.plist:5:2: note: also listed here
        b.plist:6:2: note: fix: remove the repeated entry

        """)
    }

    func testColourOnlyWhenAsked() {
        XCTAssertFalse(TextReporter(useColor: false).render(a).contains("\u{1B}"))
        XCTAssertTrue(TextReporter(useColor: true).render(a).contains("\u{1B}[1;31merror\u{1B}[0m"))
    }

    func testSummaryAndSeverities() {
        XCTAssertEqual(TextReporter().summary([a, b, c], files: 1), "1 file checked: 1 error, 1 warning, 1 info")
        XCTAssertEqual([a, b, c].maximumSeverity, .error)
        XCTAssertEqual([b, c].maximumSeverity, .warning)
        XCTAssertNil([Diagnostic]().maximumSeverity)
        XCTAssertTrue(Severity.info < Severity.warning && Severity.warning < Severity.error)
    }

    func testJSONIsStableAndRoundTrips() throws {
        let text = JSONReporter().render([c, b, a])
        XCTAssertEqual(text, JSONReporter().render([a, b, c]))
        let decoded = try JSONDecoder().decode([Diagnostic].self, from: Data(text.utf8))
        XCTAssertEqual(decoded, [c, b, a].sortedForOutput())
        XCTAssertTrue(text.contains("\"ruleID\" : \"duplicate-id\""))
    }
}
