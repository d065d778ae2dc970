import Foundation
import IAPTool
import XCTest

/// README.md stays true: every `$ iap …` example in a ```console block is run and its output
/// (stdout, then stderr) must match what the README shows; the rules table must match `iap rules`.
final class ReadmeTests: XCTestCase {
    var readme: String {
        get throws { try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    func testConsoleExamplesMatchRealOutput() throws {
        var examples: [(command: String, expected: String)] = []
        var inConsole = false
        var current: (String, [String])?
        for line in try readme.components(separatedBy: "\n") {
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
        XCTAssertEqual(examples.count, 37)
        for (command, expected) in examples {
            let result = try IAPRunner.run(command.split(separator: " ").map(String.init))
            XCTAssertEqual(result.stdout + result.stderr, expected, "README example: iap \(command)")
        }
    }

    func testRulesTableMatchesTheRules() throws {
        let table = try IAPRunner.run(["rules", "--format", "markdown"]).stdout
        XCTAssertTrue(try readme.contains(table), "README's rules table differs from `iap rules --format markdown`")
        // docs/rules.md, which SARIF's helpUri links to, is generated from the same descriptions.
        let reference = try IAPRunner.run(["rules", "--format", "reference"]).stdout
        let page = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        XCTAssertEqual(page, reference, "docs/rules.md differs from `iap rules --format reference`")
        XCTAssertTrue(page.contains("\n## unknown-price-currency\n"))
    }

    func testGeneratedExampleIsTheGoldenFile() throws {
        let golden = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Tests/CodeGenerationTests/Golden/FakeGame-constants.swift"),
                                encoding: .utf8)
        XCTAssertTrue(try readme.contains("```swift\n" + golden + "```"), "README's iap gen example differs from the golden file")
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
    /// and catalogs, and each collapsed example's "(N findings, exit S)" or "(N rows)".
    func testNumbersInProseAreTrue() throws {
        let text = try readme
        let quick = try XCTUnwrap(text.firstMatch(of: /the run prints (\d+) findings from (\d+) catalogs and exits (\d+)/),
                                  "the Quick start states what iap check prints")
        let check = try IAPRunner.run(["check"])
        XCTAssertEqual(check.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }.count, Int(quick.1))
        XCTAssertTrue(check.stderr.contains(" in \(quick.2) catalogs)"), check.stderr)
        XCTAssertEqual(check.status, Int32(quick.3))
        var checked = 0
        for match in text.matches(of: /<summary><code>iap ([^<]+)<\/code> \((\d+) (findings, exit (\d+)|rows)\)<\/summary>/) {
            let result = try IAPRunner.run(String(match.1).split(separator: " ").map(String.init))
            let lines = result.stdout.split(separator: "\n")
            if let status = match.4 {
                XCTAssertEqual(lines.filter { !$0.contains(": note: ") }.count, Int(match.2), "iap \(match.1)")
                XCTAssertEqual(result.status, Int32(status), "iap \(match.1)")
            } else {
                XCTAssertEqual(lines.count - 1, Int(match.2), "iap \(match.1)")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
    }

    /// README's exit-status table is the one table every command exits by.
    func testExitTableIsTheToolsTable() throws {
        let text = try readme
        for status in ExitStatus.allCases {
            XCTAssertTrue(text.contains("\n| \(status.rawValue) | \(status.meaning) |\n"), "README's exit table differs for \(status.rawValue)")
        }
    }
}
