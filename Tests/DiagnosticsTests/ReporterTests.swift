import Foundation
import TestSupport
import Support
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

    static let rules = [
        RuleDescription(id: "duplicate-id", name: "Duplicate product ID", severity: .error, rationale: "Listed twice.", triggering: [], nonTriggering: []),
        RuleDescription(id: "hardcoded-price", name: "Hardcoded price", severity: .warning, rationale: "Wrong in 174 storefronts.", triggering: [], nonTriggering: []),
        RuleDescription(id: "unknown-metadata-key", name: "Unknown metadata key", severity: .warning, rationale: "A typo.", triggering: [], nonTriggering: []),
        RuleDescription(id: "undeclared-kind", name: "Undeclared kind", severity: .info, rationale: "Declare it.", triggering: [], nonTriggering: []),
    ]

    /// Findings that exercise every escape: `%`, `:`, `,`, line breaks, XML and Markdown
    /// characters, quotes, non-ASCII, a path with a space, no line, a replacement fix.
    static let findings = [
        Diagnostic(ruleID: "duplicate-id", severity: .error, message: "product ID 'com.acme.coins' is listed 2 times: Store/IDs.plist:5:2, Store/IDs.plist:6:2",
                   location: SourceLocation(path: "Store/IDs.plist", line: 6, column: 2),
                   related: [RelatedLocation(SourceLocation(path: "Store/IDs.plist", line: 5, column: 2), "also listed here")],
                   fix: SuggestedFix("remove the repeated entry")),
        Diagnostic(ruleID: "hardcoded-price", severity: .warning, message: "the literal shows a price ('50% off, now $0.99 <b>&</b> | \"cheap\"')\nsecond line",
                   location: SourceLocation(path: "App/Shop View.swift", line: 12, column: 17)),
        Diagnostic(ruleID: "unknown-metadata-key", severity: .warning, message: "unknown key 'familyShareble' (did you mean 'familyShareable'?)",
                   location: SourceLocation(path: "Store/Metadata.plist", line: 40, column: 4),
                   fix: SuggestedFix("rename the key to 'familyShareable'", replacement: "familyShareable", replacing: "familyShareble", at: 9)),
        Diagnostic(ruleID: "undeclared-kind", severity: .info, message: "kind of 'com.acme.café' is unknown",
                   location: SourceLocation(path: "Store/IDs.plist")),
        Diagnostic(ruleID: "hardcoded-price", severity: .warning, message: "the literal shows a price ('50% off, now $0.99 <b>&</b> | \"cheap\"')\nsecond line",
                   location: SourceLocation(path: "App/Shop View.swift", line: 30, column: 5)),
    ]

    static let result = RunResult(command: "check", findings: findings, rules: rules,
                                  files: ["App/Shop View.swift", "App/Clean.swift", "Store/IDs.plist", "Store/Metadata.plist"],
                                  tool: ToolInfo(name: "iap", version: "1.2.3", informationURI: "https://example.com/iap"),
                                  baseline: nil)

    func testTextFormIsWhatEditorsParse() {
        XCTAssertEqual(TextReporter().render([a, b, c]), """
        a.plist: info: kind unknown [undeclared-kind]
        a.plist:9:1: warning: close [similar-ids]
        b.plist:6:2: error: product ID 'x' is listed 2 times [duplicate-id]
        b.plist:5:2: note: also listed here
        b.plist:6:2: note: fix: remove the repeated entry

        """)
    }

    func testAFindingIsOneLineWhateverItsMessageHolds() {
        let text = TextReporter().report(Self.result, options: ReportOptions())
        // 5 findings, 1 related location, 2 fixes: 8 lines, the line break in a message escaped.
        XCTAssertEqual(text.split(separator: "\n").count, 8)
        XCTAssertTrue(text.contains("\"cheap\"')\\nsecond line [hardcoded-price]\n"))
    }

    func testColourOnlyWhenAsked() {
        XCTAssertFalse(TextReporter(useColor: false).render(a).contains("\u{1B}"))
        XCTAssertTrue(TextReporter(useColor: true).render(a).contains("\u{1B}[1;31merror\u{1B}[0m"))
        XCTAssertFalse(TextReporter().report(Self.result, options: ReportOptions(useColor: false)).contains("\u{1B}"))
        XCTAssertTrue(TextReporter().report(Self.result, options: ReportOptions(useColor: true)).contains("\u{1B}[1;33mwarning\u{1B}[0m"))
    }

    func testSummaryAndSeverities() {
        XCTAssertEqual(TextReporter().summary([a, b, c], files: 1), "1 file checked: 1 error, 1 warning, 1 info")
        XCTAssertEqual([a, b, c].maximumSeverity, .error)
        XCTAssertEqual([b, c].maximumSeverity, .warning)
        XCTAssertNil([Diagnostic]().maximumSeverity)
        XCTAssertTrue(Severity.info < Severity.warning && Severity.warning < Severity.error)
        XCTAssertEqual(Self.result.severityCounts, "1 error, 3 warnings, 1 info")
    }

    /// Every registered format against its golden file (IAP_UPDATE_GOLDEN=1 rewrites them).
    func testEveryFormatMatchesItsGoldenFile() throws {
        XCTAssertEqual(Reporters.identifiers, ["text", "json", "sarif", "github", "junit", "checkstyle", "markdown", "gitlab"])
        for reporter in Reporters.all {
            let text = reporter.init().report(Self.result, options: ReportOptions())
            try assertGolden(text, "report." + reporter.identifier)
            // Deterministic whatever the order the findings came in.
            let shuffled = RunResult(command: "check", findings: Self.findings.reversed(), rules: Self.rules, files: Self.result.files,
                                     tool: Self.result.tool)
            XCTAssertEqual(reporter.init().report(shuffled, options: ReportOptions()), text, reporter.identifier)
        }
    }

    func testJSONFormatsParse() throws {
        for reporter in [JSONReporter.self, SARIFReporter.self, GitLabReporter.self] as [any Reporter.Type] {
            let text = reporter.init().report(Self.result, options: ReportOptions())
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), reporter.identifier)
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(JSONReporter().report(Self.result, options: ReportOptions()).utf8)) as? [String: Any])
        XCTAssertEqual(json["version"] as? Int, 1)
        XCTAssertEqual((json["findings"] as? [Any])?.count, 5)
        let gitlab = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(GitLabReporter().report(Self.result, options: ReportOptions()).utf8)) as? [[String: Any]])
        // The two findings with one fingerprint get distinct GitLab fingerprints.
        XCTAssertEqual(Set(gitlab.compactMap { $0["fingerprint"] as? String }).count, 5)
    }

    func testGitHubEscapingAndOrder() {
        XCTAssertEqual(Escape.githubData("100% done\r\nnext"), "100%25 done%0D%0Anext")
        XCTAssertEqual(Escape.githubProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae")
        let lines = GitHubReporter().report(Self.result, options: ReportOptions()).split(separator: "\n")
        XCTAssertEqual(lines.map { String($0.prefix { $0 != " " }) }, ["::error", "::warning", "::warning", "::warning", "::notice"])
    }

    func testMarkdownStaysUnderItsLimit() {
        let many = (0..<20_000).map { i in
            Diagnostic(ruleID: "hardcoded-price", severity: .warning, message: "the literal shows a price ('$\(i).99')",
                       location: SourceLocation(path: "Sources/View\(i).swift", line: i + 1, column: 3))
        }
        let result = RunResult(command: "lint", findings: many, rules: Self.rules, files: [], tool: Self.result.tool)
        let summary = GitHubStepSummary.markdown(result)
        XCTAssertLessThan(summary.utf8.count, GitHubStepSummary.byteLimit)
        XCTAssertTrue(summary.contains("more findings, left out to stay under"), String(summary.suffix(200)))
        XCTAssertEqual(MarkdownReporter().report(result, options: ReportOptions()).split(separator: "\n").count, 20_004)
    }

    func testFingerprintIgnoresLinesAndKeepsSubject() {
        let moved = Diagnostic(ruleID: "duplicate-id", severity: .error, message: "product ID 'com.acme.coins' is listed 2 times: Store/IDs.plist:9:2, Store/IDs.plist:10:2",
                               location: SourceLocation(path: "./Store/IDs.plist", line: 10, column: 2))
        XCTAssertEqual(Fingerprint.of(moved, root: "."), Fingerprint.of(Self.findings[0], root: "."))
        XCTAssertEqual(Fingerprint.of(moved, root: ".").subject, "com.acme.coins")
        XCTAssertEqual(Fingerprint.of(moved, root: "Store").path, "IDs.plist")
        let unquoted = Diagnostic(ruleID: "empty-product-list", severity: .warning, message: "listed at IDs.plist:4:1 and IDs.plist:7",
                                  location: SourceLocation(path: "IDs.plist", line: 4, column: 1))
        XCTAssertEqual(Fingerprint.subject(of: unquoted), "listed at IDs.plist and IDs.plist")
        let counted = Diagnostic(ruleID: "too-many-products", severity: .error, message: "the catalog holds 10001 products; App Store Connect allows 10000 per app",
                                 location: SourceLocation(path: "Metadata.plist", line: 9, column: 3))
        XCTAssertEqual(Fingerprint.subject(of: counted), "the catalog holds # products; App Store Connect allows # per app")
        XCTAssertEqual(Fingerprint(rule: "r", path: "p", subject: "s").hash, Fingerprint(rule: "r", path: "p", subject: "s").hash)
        XCTAssertNotEqual(Fingerprint(rule: "r", path: "ps", subject: "").hash, Fingerprint(rule: "r", path: "p", subject: "s").hash)
    }

    func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try Golden.check(text, "Tests/DiagnosticsTests/Golden/\(name)", file: file, line: line)
    }
}

final class FingerprintHashTests: XCTestCase {
    /// The fast path over many findings gives each finding's own fingerprint hash.
    func testBulkHashesEqualEachFingerprintsHash() {
        let findings = ReporterTests.findings + [
            Diagnostic(ruleID: "stale-generated-file", severity: .error, message: "App/P.swift is stale", location: SourceLocation(path: "./App/P.swift"),
                       subject: "App/P.swift"),
            Diagnostic(ruleID: "empty-product-list", severity: .warning, message: "empty at IDs.plist:4:1", location: SourceLocation(path: "/abs/IDs.plist", line: 4)),
        ]
        XCTAssertEqual(Fingerprint.hashes(of: findings, root: "."), findings.map { Fingerprint.of($0, root: ".").hash })
        XCTAssertEqual(Fingerprint(rule: "r", path: "p", subject: "s").hash.count, 16)
    }
}
