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

    /// Catalog rules run in parallel from 2,000 products: a 3,000-product list where several
    /// rules fire, one of them past its cap of 100, reads the same on 1, 2 and 8 threads.
    func testValidateAndCheckAreTheSameOnAnyNumberOfThreads() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-threads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        var ids: [String] = []
        for i in 0..<3_000 {
            switch i % 6 {
            case 0: ids.append("com.acme.shop.gems\(i)")
            case 1: ids.append("com.acme.shop.Gems\(i - 1)")             // case-duplicate-id
            case 2: ids.append("com.yourcompany.shop.coins\(i)")           // placeholder-prefix
            case 3: ids.append("com.acme.shop.gems\(i - 3)")             // duplicate-id
            case 4: ids.append("com.acme.shop.pack \(i)")                // whitespace-in-id
            default: ids.append(i % 12 == 5 ? "org.acme.shop.level\(i)" : "com.acme.shop.level\(i).unlock")  // missing-bundle-prefix
            }
        }
        let plist = "<plist version=\"1.0\">\n<array>\n" + ids.map { "<string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n"
        try plist.write(to: base.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        try "bundle-id: com.acme.shop\ncatalogs: [.]\n".write(to: base.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        for command in [["validate", base.path, "--bundle-id", "com.acme.shop", "--format", "json"],
                        ["check", "--config", base.appendingPathComponent("iap.yml").path]] {
            let one = try run(command + ["--jobs", "1"], [:])
            for rule in ["case-duplicate-id", "placeholder-prefix", "duplicate-id", "whitespace-in-id", "missing-bundle-prefix"] {
                XCTAssertTrue(one.contains(command[0] == "check" ? "[\(rule)]" : "\"\(rule)\""), "\(rule) does not fire")
            }
            XCTAssertTrue(one.contains("findings not shown"), "no rule reaches its cap")
            for jobs in ["2", "8"] {
                XCTAssertEqual(try run(command + ["--jobs", jobs], [:]), one, "\(command[0]) --jobs \(jobs)")
            }
            XCTAssertEqual(try run(command, [:]), one, "\(command[0]): one job per processor")
        }
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
