import Foundation
import XCTest

/// Every command's output is byte-identical whatever the locale of the machine, the number of
/// threads, the order paths are given in and the order files were created in.
final class DeterminismTests: XCTestCase {
    static let commands: [[String]] = [
        ["validate", "catalogs"],
        ["validate", "catalogs/FakeGame", "catalogs/RazeFaces", "--format", "sarif"],
        ["list", "catalogs/RazeFaces", "catalogs/SpeakEnglish", "--format", "json"],
        ["check", "--config", "Examples/ShopApp/iap.yml", "--format", "json"],
        ["gen", "catalogs/FakeGame", "--output", "Tests/CodeGenerationTests/Golden/FakeGame-constants.swift", "--check"],
        ["storekit", "catalogs/SpeakEnglish", "--output", "Tests/EndToEndTests/Golden/storekit-SpeakEnglish.storekit", "--check"],
        ["convert", "catalogs/RazeFaces/RazeFaces.storekit", "--output", "Tests/EndToEndTests/Golden/convert-RazeFaces-Metadata.plist", "--check"],
        ["lint", "Examples", "--catalog", "catalogs/FakeGame"],
        ["price", "1234.56", "--currency", "EUR", "--storefronts", "DEU,FRA,CHE,USA,JPN,SAU,TUR"],
        ["price", "--catalog", "catalogs/SpeakEnglish"],
        ["report", "Tests/Fixtures/Sales/Catalog", "--storefronts", "USA,JPN,DEU,SAU,TUR"],
        ["report", "--sales", "Tests/Fixtures/Sales", "--format", "json"],
        ["report", "--sales", "Tests/Fixtures/Sales", "--format", "md"],
        ["plist", "print", "catalogs/FakeGame/Metadata.plist"],
    ]

    static let locales = ["C", "de_DE.UTF-8", "ja_JP.UTF-8", "ar_SA.UTF-8", "tr_TR.UTF-8"]

    func run(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let result = try IAPRunner.run(arguments, environment: environment)
        return "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
    }

    func testEveryCommandIsTheSameInEveryLocale() throws {
        for command in Self.commands {
            let baseline = try run(command, ["LANG": "C", "LC_ALL": "C"])
            XCTAssertGreaterThan(baseline.count, 40, command.joined(separator: " "))
            for locale in Self.locales.dropFirst() {
                for variables in [["LANG": locale, "LC_ALL": ""], ["LANG": "C", "LC_ALL": locale]] {
                    XCTAssertEqual(try run(command, variables), baseline, "\(command.joined(separator: " ")) with \(variables)")
                }
            }
        }
    }

    func testLintIsTheSameOnAnyNumberOfThreads() throws {
        let command = ["lint", "Examples", "Tests/Fixtures", "--catalog", "catalogs/FakeGame", "--format", "json"]
        let one = try run(command + ["--jobs", "1"], [:])
        XCTAssertTrue(one.contains("hardcoded-price"), one)
        for jobs in ["2", "8"] {
            XCTAssertEqual(try run(command + ["--jobs", jobs], [:]), one, "--jobs \(jobs)")
        }
        XCTAssertEqual(try run(command, [:]), one, "one job per processor")
    }

    func testPathOrderAndCreationOrderDoNotChangeOutput() throws {
        let paths = ["catalogs/SpeakEnglish", "catalogs/FakeGame", "catalogs/RazeFaces", "catalogs/broken"]
        let forward = try run(["validate"] + paths, [:])
        XCTAssertEqual(try run(["validate"] + paths.reversed(), [:]), forward)
        // The same catalog copied twice, its files created in opposite orders.
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let source = IAPRunner.packageRoot.appendingPathComponent("catalogs/broken")
        let names = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
        var outputs: [String] = []
        for (copy, order) in [("a", names), ("b", names.reversed())] {
            let folder = base.appendingPathComponent(copy).appendingPathComponent("broken")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in order {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            let result = try IAPRunner.run(["validate", "broken", "--format", "json"], in: folder.deletingLastPathComponent())
            outputs.append(result.stdout)
        }
        XCTAssertGreaterThan(outputs[0].count, 100)
        XCTAssertEqual(outputs[0], outputs[1])
    }
}
