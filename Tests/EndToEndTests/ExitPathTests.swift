import Foundation
import XCTest

/// Every command ends through one path (`Terminal.end`) with a status from the one table.
final class ExitPathTests: XCTestCase {
    /// Runs that used to end with literal exit codes, or through ArgumentParser's own exit.
    func testStatusesAndWordsThroughTheOnePath() throws {
        let cases: [(arguments: [String], status: Int32, stderr: String)] = [
            (["price", "0.99", "--currency", "EURO", "--locale", "de_DE"], 64,
             "iap: error: 'EURO' is not an ISO 4217 currency code Foundation knows (e.g. USD, EUR, JPY)\n"),
            (["price", "0.99", "--currency", "EUR"], 64, "iap: error: give --locale ID (or --storefronts)\n"),
            (["price", "--catalog", "catalogs/FakeGame", "1"], 64,
             "iap: error: --catalog formats the catalog's own prices: give no AMOUNT and no --storefronts\n"),
            (["plist", "print", "Tests/Fixtures/FuzzFindings/no-such.plist"], 2,
             "iap: error: Tests/Fixtures/FuzzFindings/no-such.plist: no such file\n"),
            (["plist", "lint", "README.md"], 1, ""),
            (["report", "--sales", "Tests/Fixtures/Sales", "--storefronts", "USA"], 64,
             "iap: error: --storefronts is for the price matrix; sales reports show the storefronts that sold\n"),
            (["init", "no-such-folder"], 2, "iap: error: no-such-folder: no such folder\n"),
            (["rules", "--format", "json"], 0, ""),
        ]
        for (arguments, status, stderr) in cases {
            let run = try IAPRunner.run(arguments)
            XCTAssertEqual(run.status, status, "iap \(arguments.joined(separator: " ")): \(run.stderr)")
            XCTAssertEqual(run.stderr, stderr, "iap \(arguments.joined(separator: " "))")
        }
        let plist = try IAPRunner.run(["plist", "print", "README.md"])
        XCTAssertEqual(plist.status, 1)
        XCTAssertTrue(plist.stderr.hasPrefix("README.md: error: "), plist.stderr)
        XCTAssertEqual(plist.stdout, "")
        let help = try IAPRunner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: "))
        XCTAssertEqual(help.stderr, "")
    }

    /// The CLI parses, prints and exits through `Terminal.end`; it imports the tool library and
    /// ArgumentParser only, and names no exit code of its own.
    func testTheCLIHasOneExitAndDependsOnTheToolLibraryOnly() throws {
        let folder = IAPRunner.packageRoot.appendingPathComponent("Sources/iap")
        var exits: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if line.hasPrefix("import ") {
                    XCTAssertTrue(["import ArgumentParser", "import Foundation", "import IAPTool"].contains(String(line)), "\(name): \(line)")
                }
                if line.contains("ExitCode(") || line.contains("Foundation.exit(") { exits.append("\(name): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        XCTAssertEqual(exits, ["Terminal.swift: Foundation.exit(status.rawValue)"])
        let manifest = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try XCTUnwrap(manifest.range(of: #"name: "iap",\s*dependencies: \[([^\]]*)\]"#, options: .regularExpression))
        let dependencies = manifest[target].components(separatedBy: "dependencies: [")[1]
        XCTAssertEqual(dependencies.filter { !$0.isWhitespace }, #""IAPTool",.product(name:"ArgumentParser",package:"swift-argument-parser"),]"#)
    }
}
