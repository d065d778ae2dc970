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

    func testSwiftHasALowerSizeLimitAndGeneratedFilesPassAtAnySize() throws {
        // swift-syntax's tree takes up to 120 bytes per byte of source: Swift stops at 4 MB.
        let big = folder.appendingPathComponent("Big.swift")
        try Data(repeating: 0x20, count: 5 << 20).write(to: big)
        XCTAssertEqual(lines(SourceLinter().lint(file: big.path)), [
            "0:0: error unreadable-source: 5 MB, more than the 4 MB iap lints: not read; if it is generated, leave it out with --exclude or lint.exclude in iap.yml",
        ])
        // The same size of Objective-C is read.
        let objc = folder.appendingPathComponent("Big.m")
        try Data(repeating: 0x20, count: 5 << 20).write(to: objc)
        XCTAssertEqual(lines(SourceLinter().lint(file: objc.path)), [])
        // A generated file over the limit is passed over, as it is under it.
        let generated = folder.appendingPathComponent("Strings.swift")
        try Data(Array("// swiftlint:disable all\n// Generated using SwiftGen — https://github.com/SwiftGen/SwiftGen\n".utf8)
                 + [UInt8](repeating: 0x20, count: 5 << 20)).write(to: generated)
        XCTAssertEqual(lines(SourceLinter().lint(file: generated.path)), [])
    }

    func testManySuppressionRangesAndFindingsStayFast() {
        // 1,000 disable/enable pairs and 1,000 findings: each finding was checked against every
        // range; ranges are merged and searched. (4,000 pairs took swift-syntax 9 s to parse in a
        // debug build, near the 20 s parse limit on a loaded machine.)
        var source = "import StoreKit\n"
        for i in 0..<1000 {
            source += "// iap:disable hardcoded-title\nlet t\(i) = \"x\"\n// iap:enable hardcoded-title\nlet p\(i) = \"$1.99\"\n"
        }
        // A disable inside another's range, an unmatched enable, one left open to the end.
        source += "// iap:disable hardcoded-price\n// iap:disable hardcoded-price\nlet q = \"$2.99\"\n// iap:enable hardcoded-price\nlet r = \"$3.99\"\n"
        source += "// iap:enable hardcoded-title\n// iap:disable all\nlet s = \"$4.99\"\n"
        // Its speed is measured in BENCHMARKS.md, not timed here: a loaded machine fails any bound.
        let found = lint(source, "Many.swift")
        XCTAssertEqual(found.count, 101)
        XCTAssertEqual(found.first, "5:10: warning hardcoded-price: the literal shows a price ('$1.99'); show the product's displayPrice so every storefront sees its own")
        XCTAssertEqual(found.last, "405:12: warning hardcoded-price: 901 more hardcoded-price findings in this file from here on, not listed one by one (iap lists the first 100 of a rule per file)")
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
            "1:31: warning unparsed-source: square brackets nest more than 16 deep here (swift-syntax's time doubles with each level): not linted",
        ])
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // Brackets in comments, string and regex literals are text (terminal colours, "\u{1B}[1m",
        // are common); in interpolations they count as code.
        let many = String(repeating: "[", count: 40)
        XCTAssertNil(SwiftStructureScan.excess(in: "// \(many)\n/* \(many) /* */ */\nlet s = \"\(many)\"\nlet r = #\"\(many)\"#\nlet m = \"\"\"\n\(many)\n\"\"\"\nlet x = #/\(many)/#\nlet y = /\(many)/\nlet a = [[1]]\n"))
        XCTAssertNil(SwiftStructureScan.excess(in: "let bold = \"" + String(repeating: "\\u{1B}[1mX", count: 30) + "\"\n"))
        XCTAssertNil(SwiftStructureScan.excess(in: "let s = \"x \\([[[1]]]) y\" + [\"[\"]\n"))
        XCTAssertEqual(SwiftStructureScan.excess(in: "let s = \"\\(" + String(repeating: "[", count: 17) + "1" + String(repeating: "]", count: 17) + ")\"\n")?.column, 28)
        XCTAssertNil(SwiftStructureScan.excess(in: "let s = #\"\\#([[1]])\"#\n"))
        XCTAssertEqual(lint("let a: [[String: [[Int]]]] = [[\"k\": [[1, 2]]]]\n", "ok.swift"), [])
    }

    /// A regex literal that holds quotes (`#/"""/#`) made the old guard read 28 levels of real
    /// brackets as string text (> 60 s in swift-syntax). Regex literals are read as the parser
    /// reads them.
    func testLiteralsTheScanMisreadsCannotHideBrackets() {
        let brackets = String(repeating: "[", count: 28) + "1" + String(repeating: "]", count: 28)
        for source in ["let r = #/\"\"\"/#\nlet a = \(brackets)\n// \"\"\"\n",
                       "let r = /[/*]/\nlet a = \(brackets)\n// */\n",
                       "let r = /\"/; let a = \(brackets)\n"] {
            let start = Date()
            let found = lint(source, "regex.swift")
            XCTAssertEqual(found.count, 1, source)
            XCTAssertTrue(found.first?.contains("square brackets nest more than 16 deep here") == true, source)
            XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        }
    }

    /// The backstop for a shape the scan misjudges: a parse that takes too long is abandoned and
    /// the file reported, the run goes on.
    func testAParseOverItsTimeLimitIsReportedNotWaitedFor() {
        let big = String(repeating: "let a = f(1, 2) + g(3)\n", count: 100_000)
        let start = Date()
        let (findings, _) = SwiftLinter(path: "big.swift", source: big, context: LintContext()).runOnLargeStack(timeLimit: 0.05)
        XCTAssertEqual(findings.map(\.message), ["swift-syntax took more than 0.05 s to parse this file: not linted"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    /// Shapes that recurse once per level in swift-syntax and in every walk of its tree: each
    /// overflowed the stack (SIGSEGV) in under 120 kB. Each is now one finding, fast.
    func testShapesThatRecursePastTheStackAreNotParsed() {
        let recursion = "(each is a level of recursion in swift-syntax, which would overflow its stack): not linted"
        let cases: [(String, String)] = [
            ("let x: " + String(repeating: "A<", count: 1_400) + "Int" + String(repeating: ">", count: 1_400) + " = 1\n",
             "1:209: warning unparsed-source: generic arguments nest more than 100 deep here \(recursion)"),
            ("func f() throws { " + String(repeating: "try ", count: 10_000) + "g() }\n",
             "1:419: warning unparsed-source: more than 100 prefix keywords and operators in a row here \(recursion)"),
            ("let x = a" + String(repeating: ".b", count: 60_000) + "\n",
             "1:4010: warning unparsed-source: a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than 2000 here \(recursion)"),
            ("let x = f" + String(repeating: "()", count: 3_000) + "\n",
             "1:4010: warning unparsed-source: a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than 2000 here \(recursion)"),
            ("let x: Int" + String(repeating: "?", count: 3_000) + " = nil\n",
             "1:2011: warning unparsed-source: a postfix chain (`.member`, calls, subscripts, `?`, `!`) longer than 2000 here \(recursion)"),
            ("func f() {\n if a {}" + String(repeating: " else if a {}", count: 1_200) + "\n}\n",
             "2:13015: warning unparsed-source: more than 1000 `else if` branches in a row here \(recursion)"),
            (String(repeating: "#if A\n", count: 100) + "let x = 1\n" + String(repeating: "#endif\n", count: 100),
             "65:1: warning unparsed-source: #if blocks nest more than 64 deep here \(recursion)"),
            ("let f: " + String(repeating: "(Int) -> ", count: 300) + "Int\n",
             "1:1814: warning unparsed-source: more than 200 `->` in one type here \(recursion)"),
            ("let s = " + String(repeating: "\"\\(", count: 8_000) + "1" + String(repeating: ")\"", count: 8_000) + "\n",
             "1:108: warning unparsed-source: string interpolations nest more than 32 deep here (swift-syntax's time and memory grow with the square of the depth): not linted"),
        ]
        for (source, expected) in cases {
            let start = Date()
            XCTAssertEqual(lint(source, "deep.swift"), [expected])
            XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        }
    }

    /// What real code writes stays far inside every limit.
    func testRealShapesAreParsed() {
        let modifiers = (0..<150).map { "    .padding(\($0))" }.joined(separator: "\n")
        let branches = (0..<300).map { "    if a == \($0) { x() } else if b { y() } else if c { z() } else { w() }" }.joined(separator: "\n")
        let source = """
        import SwiftUI
        let table: Dictionary<String, Array<Set<Optional<Int>>>> = [:]
        func load() async throws -> Int { try await try! fetch(try? other() ?? 0) }
        let v = Text("x")
        \(modifiers)
        func f() {
        \(branches)
            if a<b && c<d && e<f && g<h { }
            let s = "a \\(b) \\("c \\(d)")"
        }
        """
        XCTAssertNil(SwiftStructureScan.excess(in: source))
        XCTAssertEqual(lint(source, "real.swift"), [])
    }
}
