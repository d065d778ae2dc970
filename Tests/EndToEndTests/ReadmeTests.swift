import Foundation
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
        XCTAssertEqual(examples.count, 25)
        for (command, expected) in examples {
            let result = try IAPRunner.run(command.split(separator: " ").map(String.init))
            XCTAssertEqual(result.stdout + result.stderr, expected, "README example: iap \(command)")
        }
    }

    func testRulesTableMatchesTheRules() throws {
        let table = try IAPRunner.run(["rules", "--format", "markdown"]).stdout
        XCTAssertTrue(try readme.contains(table), "README's rules table differs from `iap rules --format markdown`")
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
                       ["swift run iap validate", "swift test"])
    }
}
