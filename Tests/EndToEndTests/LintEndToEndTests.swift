import Foundation
import XCTest

/// `iap lint` as a user runs it: exit statuses, options, formats, order.
final class LintEndToEndTests: XCTestCase {
    let demo = ["lint", "Examples/LintDemo", "--catalog", "catalogs/FakeGame"]

    func testExitStatusFollowsSeverityAndStrict() throws {
        let withCatalog = try IAPRunner.run(demo)
        XCTAssertEqual(withCatalog.status, 1)  // unknown-product-id is an error
        XCTAssertEqual(withCatalog.stdout.split(separator: "\n").count, 13)
        XCTAssertEqual(withCatalog.stderr, "2 files checked: 2 errors, 11 warnings, 0 infos\n")

        let noCatalog = try IAPRunner.run(["lint", "Examples/LintDemo"])
        XCTAssertEqual(noCatalog.status, 0)  // warnings only
        XCTAssertEqual(noCatalog.stderr, """
        iap: no catalog found in Examples/LintDemo: product titles and IDs are not checked (pass --catalog)
        2 files checked: 0 errors, 8 warnings, 0 infos

        """)
        XCTAssertEqual(try IAPRunner.run(["lint", "Examples/LintDemo", "--strict"]).status, 1)

        let clean = try IAPRunner.run(["lint", "Examples/StoreDemo", "--catalog", "catalogs/FakeGame", "--strict"])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stdout, "")

        let missing = try IAPRunner.run(["lint", "Examples/NoSuchFolder"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "iap: error: Examples/NoSuchFolder: no such file or folder\n")
    }

    func testExcludeAppliesToNamedFiles() throws {
        let result = try IAPRunner.run(["lint", "Examples/LintDemo/ShopViewController.m", "Examples/LintDemo/ShopViewController.swift",
                                        "--catalog", "catalogs/FakeGame", "--exclude", "*.swift"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout.split(separator: "\n").map { String($0.split(separator: ":")[0]) },
                       Array(repeating: "Examples/LintDemo/ShopViewController.m", count: 5))
        XCTAssertEqual(result.stderr, "1 file checked: 1 error, 4 warnings, 0 infos\n")
    }

    func testOrderDoesNotDependOnArgumentOrder() throws {
        let forward = try IAPRunner.run(demo)
        let reversed = try IAPRunner.run(["lint", "Examples/LintDemo/ShopViewController.swift", "Examples/LintDemo/ShopViewController.m",
                                          "--catalog", "catalogs/FakeGame"])
        XCTAssertEqual(forward.stdout, reversed.stdout)
        XCTAssertTrue(forward.stdout.hasPrefix("Examples/LintDemo/ShopViewController.m:8:40: warning:"))
    }

    func testJSONAndTestFiles() throws {
        let json = try IAPRunner.run(demo + ["--format", "json"])
        XCTAssertEqual(json.status, 1)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["version"] as? Int, 1)
        XCTAssertEqual(document["command"] as? String, "lint")
        let findings = try XCTUnwrap(document["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.count, 13)
        XCTAssertEqual(findings.filter { $0["ruleID"] as? String == "unknown-product-id" }.count, 2)
        XCTAssertEqual(findings.compactMap { $0["severity"] as? String }.filter { $0 == "error" }.count, 2)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-lint-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ShopTests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "let p = \"$0.99\"\n".write(to: folder.appendingPathComponent("ShopTests/PriceTests.swift"), atomically: true, encoding: .utf8)
        try "let q = 1\n".write(to: folder.appendingPathComponent("Shop.swift"), atomically: true, encoding: .utf8)
        let skipped = try IAPRunner.run(["lint", folder.path])
        XCTAssertEqual(skipped.stderr, "iap: no catalog found in \(folder.path): product titles and IDs are not checked (pass --catalog)\n"
                       + "1 file checked: 0 errors, 0 warnings, 0 infos\n")
        let included = try IAPRunner.run(["lint", folder.path, "--include-tests"])
        XCTAssertEqual(included.stdout, "\(folder.path)/ShopTests/PriceTests.swift:1:9: warning: the literal shows a price ('$0.99'); "
                       + "show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
    }
}
