import Diagnostics
import Foundation
import XCTest
@testable import SourceLint

/// Sources no one should write, each a positioned finding and never a crash or a hang.
final class HostileSourceTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-hostile-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func lines(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.location.line):\($0.location.column): \($0.severity) \($0.ruleID): \($0.message)" }
    }

    func lint(_ source: String, _ name: String) -> [String] {
        lines(SourceLinter().lint(source: source, path: name))
    }

    func testUnterminatedStringsAndComments() {
        let stop = "that never ends: findings after this point may be missed"
        XCTAssertEqual(lint("let a = 1\nlet id = \"com.a.b\nlet c = 2\n", "a.swift"), ["2:10: warning unparsed-source: a string \(stop)"])
        XCTAssertEqual(lint("let a = 1\n/* never closed\nlet b = 2\n", "b.swift"), ["2:1: warning unparsed-source: a /* comment \(stop)"])
        XCTAssertEqual(lint("let a = \"\"\"\nabc\n", "m.swift"), ["1:9: warning unparsed-source: a string \(stop)"])
        // swift-syntax is stricter than the compilers such files build with: not a finding.
        XCTAssertEqual(lint("struct A {\n  @Flag (\n    name: 1\n  )\n  var b = false\n}\n", "f.swift"), [])
        XCTAssertEqual(lint("int a = 1;\nNSString *s = @\"abc\nint b;\n", "c.m"),
                       ["2:15: warning unparsed-source: a string that never ends: findings after this point may be missed"])
        XCTAssertEqual(lint("int a = 1;\n  /* x\n", "d.m"),
                       ["2:3: warning unparsed-source: a /* comment that never ends: findings after this point may be missed"])
        XCTAssertEqual(lint("let a = \"ok\" // fine\n", "e.swift"), [])
    }

    func testBinaryFilesAndTheSizeLimit() throws {
        let binary = folder.appendingPathComponent("Binary.swift")
        try Data(Array("let a = 1\nlet b".utf8) + [0, 1, 2]).write(to: binary)
        XCTAssertEqual(lines(SourceLinter().lint(file: binary.path)),
                       ["2:6: error unreadable-source: binary data (a NUL byte), not source text: not linted"])
        let big = folder.appendingPathComponent("Big.m")
        try Data(repeating: 0x20, count: 3 << 20).write(to: big)
        var linter = SourceLinter()
        linter.maxSourceBytes = 2 << 20
        XCTAssertEqual(lines(linter.lint(file: big.path)), [
            "0:0: error unreadable-source: 3 MB, more than the 2 MB iap lints: not read; if it is generated, leave it out with --exclude or lint.exclude in iap.yml",
        ])
    }

    func testALongLineOfFindingsIsListedOnceAndSummedUp() {
        // 5,000 prices on one line: the first 100 one by one, then one finding for the rest, and
        // character columns right after multi-byte text.
        let source = "let a = [\"é\", " + (0..<5000).map { _ in "\"$0.99\"" }.joined(separator: ", ") + "]"
        let found = lint(source, "Prices.swift")
        XCTAssertEqual(found.count, 101)
        XCTAssertEqual(found.first, "1:15: warning hardcoded-price: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own")
        XCTAssertEqual(found[1].prefix(8), "1:24: wa")
        XCTAssertEqual(found.last, "1:915: warning hardcoded-price: 4900 more hardcoded-price findings in this file from here on, not listed one by one (iap lists the first 100 of a rule per file)")
    }

    /// The fuzzer's one hang: swift-syntax's parser doubles its time with each level of square
    /// brackets (Tests/Fixtures/FuzzFindings/swift/timeout-…). Such a file is not parsed.
    func testDeeplyNestedBracketsAreNotParsed() {
        let deep = "let x = \"\\(a.c" + String(repeating: "[", count: 40) + "ount)\"\n"
        let start = Date()
        XCTAssertEqual(lint(deep, "deep.swift"), [
            "1:54: warning unparsed-source: square brackets nest 40 deep here, more than the 16 iap parses (swift-syntax's time doubles with each level): not linted",
        ])
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // Brackets in comments and string literals do not count; in interpolations they do.
        let many = String(repeating: "[", count: 40)
        XCTAssertEqual(BracketDepth.deepest(in: "// \(many)\n/* \(many) /* */ */\nlet s = \"\(many)\"\nlet r = #\"\(many)\"#\nlet m = \"\"\"\n\(many)\n\"\"\"\nlet a = [[1]]\n").depth, 2)
        XCTAssertEqual(BracketDepth.deepest(in: "let s = \"x \\([[[1]]]) y\" + [\"[\"]\n").depth, 3)
        XCTAssertEqual(BracketDepth.deepest(in: "let s = #\"\\#([[1]])\"#\n").depth, 2)
        XCTAssertEqual(lint("let a: [[String: [[Int]]]] = [[\"k\": [[1, 2]]]]\n", "ok.swift"), [])
    }
}
