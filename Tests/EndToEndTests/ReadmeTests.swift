import Foundation
import IAPTool
import TestSupport
import XCTest

/// README.md and the pages under docs/ stay true: every `$ iap …` example in a ```console block is
/// run from the package root and its output (stdout, then stderr) must match what the page shows;
/// the rules table must match `iap rules`; every relative link leads to a file and heading that exist.
final class ReadmeTests: XCTestCase {
    /// How many examples each file holds. Adding or removing one changes this table, so an example
    /// never vanishes unnoticed (before the reference moved out of README.md it held 37).
    static let examplesPerFile: [String: Int] = [
        "README.md": 16,
        "docs/asc.md": 1,
        "docs/catalog-as-code.md": 1,
        "docs/commands.md": 41,
        "docs/prices.md": 3,
        "docs/readiness.md": 1,
        "docs/storefronts.md": 1,
    ]

    var readme: String {
        get throws { try Self.text("README.md") }
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    /// README.md and every Markdown page under docs/, as paths from the package root.
    static func documentationFiles() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: IAPRunner.packageRoot.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// Each `$ iap …` line of a ```console block with the lines that follow it, up to the next
    /// command or the block's end. A command that does not exit 0 says how it exits, as a shell
    /// comment at the end of its line (`$ iap valdate  # exit 64`).
    static func examples(in text: String) -> [(command: String, expected: String)] {
        var examples: [(command: String, expected: String)] = []
        var inConsole = false
        var current: (String, [String])?
        for line in text.components(separatedBy: "\n") {
            if line == "```console" { inConsole = true; continue }
            if inConsole && line == "```" {
                if let (command, lines) = current { examples.append((command, lines.map { $0 + "\n" }.joined())) }
                current = nil
                inConsole = false
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ iap ") {
                if let (command, lines) = current { examples.append((command, lines.map { $0 + "\n" }.joined())) }
                current = (String(line.dropFirst(6)), [])
            } else {
                current?.1.append(line)
            }
        }
        return examples
    }

    /// `text` with each example's output and exit comment replaced by `results`, in order: what
    /// `scripts/update-docs.sh` writes. Everything outside the examples is kept as it is.
    static func rewritten(_ text: String, results: [(output: String, status: Int32)]) -> String {
        var lines: [String] = []
        var inConsole = false
        var skipping = false
        var next = 0
        for line in text.components(separatedBy: "\n") {
            if line == "```console" { inConsole = true }
            if inConsole && line == "```" { inConsole = false; skipping = false }
            if inConsole, line.hasPrefix("$ iap "), next < results.count {
                let (command, _) = exitStatus(of: String(line.dropFirst(6)))
                let (output, status) = results[next]
                next += 1
                lines.append("$ iap " + command + (status == 0 ? "" : "  # exit \(status)"))
                var shown = output.components(separatedBy: "\n")
                if shown.last == "" { shown.removeLast() }
                lines += shown
                skipping = true
                continue
            }
            if skipping { continue }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    func testRewritingKeepsTextAndReplacesOutputs() {
        let page = "Intro\n```console\n$ iap a  # exit 1\nold\n\n$ iap b\n```\nafter\n"
        XCTAssertEqual(Self.rewritten(page, results: [("new\nlines\n", 0), ("", 2)]),
                       "Intro\n```console\n$ iap a\nnew\nlines\n$ iap b  # exit 2\n```\nafter\n")
        XCTAssertEqual(Self.rewritten(page, results: [("old\n\n", 1), ("", 0)]), page)
    }

    /// The command without its `  # exit N` comment, and N (0 without one).
    static func exitStatus(of line: String) -> (command: String, status: Int32) {
        guard let match = line.firstMatch(of: /^(.*?)  # exit (\d+)$/), let status = Int32(match.2) else { return (line, 0) }
        return (String(match.1), status)
    }

    func testExampleParser() {
        XCTAssertEqual(Self.exitStatus(of: "valdate  # exit 64").command, "valdate")
        XCTAssertEqual(Self.exitStatus(of: "valdate  # exit 64").status, 64)
        XCTAssertEqual(Self.exitStatus(of: "rules").status, 0)
        let page = "x\n```console\n$ iap a b\none\n\ntwo\n$ iap c\n```\n```sh\n$ iap d\n```\n```console\n$ iap e\n```\n"
        let found = Self.examples(in: page)
        XCTAssertEqual(found.map(\.command), ["a b", "c", "e"])
        XCTAssertEqual(found.map(\.expected), ["one\n\ntwo\n", "", ""])
    }

    func testConsoleExamplesMatchRealOutput() throws {
        var counts: [String: Int] = [:]
        for file in try Self.documentationFiles() {
            let text = try Self.text(file)
            let examples = Self.examples(in: text)
            guard !examples.isEmpty else { continue }
            counts[file] = examples.count
            var results: [(output: String, status: Int32)] = []
            for (line, expected) in examples {
                let (command, status) = Self.exitStatus(of: line)
                let result = try IAPRunner.run(command.split(separator: " ").map(String.init))
                results.append((result.stdout + result.stderr, result.status))
                guard !Golden.updating else { continue }
                XCTAssertEqual(result.stdout + result.stderr, expected, "\(file) example: iap \(command) (scripts/update-docs.sh rewrites it)")
                XCTAssertEqual(result.status, status, "\(file) example: iap \(command) exits \(result.status); say so with `  # exit \(result.status)`")
            }
            if Golden.updating { try Golden.check(Self.rewritten(text, results: results), file) }
        }
        XCTAssertEqual(counts, Self.examplesPerFile, "examples per file (ReadmeTests.examplesPerFile)")
    }

    func testRulesTableMatchesTheRules() throws {
        let table = try IAPRunner.run(["rules", "--format", "markdown"]).stdout
        XCTAssertTrue(try Self.text("docs/commands.md").contains("<!-- begin: iap rules --format markdown -->\n\n" + table + "\n<!-- end:"),
                      "docs/commands.md's rules table differs from `iap rules --format markdown` (scripts/update-docs.sh rewrites it)")
        // docs/rules.md, which SARIF's helpUri links to, is generated from the same descriptions.
        let reference = try IAPRunner.run(["rules", "--format", "reference"]).stdout
        let page = try Self.text("docs/rules.md")
        XCTAssertEqual(page, reference, "docs/rules.md differs from `iap rules --format reference` (scripts/update-docs.sh rewrites it)")
        XCTAssertTrue(page.contains("\n## unknown-price-currency\n"))
    }

    /// The generated files the documentation shows are the golden files of the generator's tests.
    func testGeneratedExamplesAreTheGoldenFiles() throws {
        let constants = try Self.text("Tests/CodeGenerationTests/Golden/FakeGame-constants.swift")
        XCTAssertTrue(try readme.contains("$ iap gen catalogs/FakeGame --output -\n" + constants + "iap: wrote - (3 products)\n```"),
                      "README's iap gen example differs from the golden file")
        let enumStyle = try Self.text("Tests/CodeGenerationTests/Golden/FakeGame-enum.swift")
        XCTAssertTrue(try Self.text("docs/commands.md").contains("$ iap gen catalogs/FakeGame --style enum --output -\n" + enumStyle),
                      "docs/commands.md's --style enum example differs from the golden file")
    }

    func testQuickStartHasExactlyTwoCommands() throws {
        let text = try readme
        let start = try XCTUnwrap(text.range(of: "## Quick start"))
        let block = try XCTUnwrap(text.range(of: "```sh\n", range: start.upperBound..<text.endIndex))
        let end = try XCTUnwrap(text.range(of: "```", range: block.upperBound..<text.endIndex))
        let commands = text[block.upperBound..<end.lowerBound].split(separator: "\n")
        XCTAssertEqual(commands.map { $0.split(separator: "#")[0].trimmingCharacters(in: .whitespaces) },
                       ["swift run iap check", "swift test"])
    }

    /// Numbers the prose states about runs are the runs' own: the Quick start's count of findings
    /// and catalogs, the number of rules, and each collapsed example's "(N findings, exit S)" or
    /// "(N rows)", in README.md and every page under docs/. `scripts/update-docs.sh` writes the
    /// true numbers in.
    func testNumbersInProseAreTrue() throws {
        var checked = 0
        for file in try Self.documentationFiles() {
            let text = try Self.text(file)
            var stated: [String] = []
            var truth: [String] = []
            if let quick = text.firstMatch(of: /the run prints (\d+) findings from (\d+) catalogs and exits (\d+)/) {
                let check = try IAPRunner.run(["check"])
                let catalogs = check.stderr.firstMatch(of: /\sin (\d+) catalogs\)/).map { String($0.1) } ?? "?"
                stated.append(String(quick.0))
                truth.append("the run prints \(check.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }.count) findings from \(catalogs) catalogs and exits \(check.status)")
            }
            if let rules = text.firstMatch(of: /Lists all (\d+) rules/) {
                stated.append(String(rules.0))
                truth.append("Lists all \(try IAPRunner.run(["rules"]).stdout.split(separator: "\n").count) rules")
            }
            for match in text.matches(of: /<summary><code>iap ([^<]+)<\/code> \((\d+) (findings, exit (\d+)|rows)\)<\/summary>/) {
                let result = try IAPRunner.run(String(match.1).split(separator: " ").map(String.init))
                let lines = result.stdout.split(separator: "\n")
                let count = match.4 == nil ? "\(lines.count - 1) rows" : "\(lines.filter { !$0.contains(": note: ") }.count) findings, exit \(result.status)"
                stated.append(String(match.0))
                truth.append("<summary><code>iap \(match.1)</code> (\(count))</summary>")
            }
            checked += stated.count
            if Golden.updating {
                var updated = text
                for (old, new) in zip(stated, truth) { updated = updated.replacingOccurrences(of: old, with: new) }
                try Golden.check(updated, file)
            } else {
                XCTAssertEqual(stated, truth, "\(file): numbers in prose (scripts/update-docs.sh rewrites them)")
            }
        }
        XCTAssertTrue(try readme.contains("the run prints "), "the Quick start states what iap check prints")
        XCTAssertTrue(try readme.contains("Lists all "), "README states how many rules iap rules lists")
        XCTAssertGreaterThanOrEqual(checked, 4)
    }

    /// README's exit-status table is the one table every command exits by.
    func testExitTableIsTheToolsTable() throws {
        let text = try readme
        for status in ExitStatus.allCases {
            XCTAssertTrue(text.contains("\n| \(status.rawValue) | \(status.meaning) |\n"), "README's exit table differs for \(status.rawValue)")
        }
    }

    /// Every relative link of README.md and docs/*.md leads to a file that exists and, with a
    /// `#fragment` into a Markdown file, to one of its headings (GitHub's anchors).
    func testRelativeLinksLeadSomewhere() throws {
        var links = 0
        for file in try Self.documentationFiles() {
            let folder = (file as NSString).deletingLastPathComponent
            for (target, fragment) in Self.relativeLinks(in: try Self.text(file)) {
                links += 1
                let path = target.isEmpty ? file : ((folder as NSString).appendingPathComponent(target) as NSString).standardizingPath
                XCTAssertTrue(FileManager.default.fileExists(atPath: IAPRunner.packageRoot.appendingPathComponent(path).path),
                              "\(file): the link to \(target) leads nowhere")
                guard let fragment, path.hasSuffix(".md"),
                      let page = try? Self.text(path) else { continue }
                XCTAssertTrue(Self.anchors(of: page).contains(fragment), "\(file): \(path) has no heading #\(fragment)")
            }
        }
        XCTAssertGreaterThan(links, 50)
    }

    func testAnchorsAreGitHubs() {
        let page = "# A `b` c\n## Reports, several at once, and baselines\n```\n# not a heading\n```\n## Kinds: declared — or not\n## A `b` c\n"
        XCTAssertEqual(Self.anchors(of: page), ["a-b-c", "reports-several-at-once-and-baselines", "kinds-declared--or-not", "a-b-c-1"])
    }

    /// `(path#fragment)` of each Markdown link outside code, but links to the web or mail.
    static func relativeLinks(in text: String) -> [(String, String?)] {
        var found: [(String, String?)] = []
        for line in prose(text) {
            for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                let link = String(match.1)
                if link.contains("://") || link.hasPrefix("mailto:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                found.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : nil))
            }
        }
        return found
    }

    /// The anchors GitHub gives a page's headings: lower-cased, punctuation dropped, spaces to
    /// hyphens, and `-1`, `-2` for repeats.
    static func anchors(of text: String) -> [String] {
        var seen: [String: Int] = [:]
        var anchors: [String] = []
        for line in prose(text) {
            let level = line.prefix { $0 == "#" }.count
            guard (1...6).contains(level), line.dropFirst(level).hasPrefix(" ") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(title.lowercased().compactMap { c -> Character? in
                if c == " " { return "-" }
                return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
            })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// The lines of a page outside fenced code blocks.
    static func prose(_ text: String) -> [String] {
        var inFence = false
        var lines: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if !inFence { lines.append(line) }
        }
        return lines
    }
}
