import Foundation
import XCTest

/// Every command, run on a repository of hostile inputs (each a class of crash found by an
/// attacker), ends with an exit status the docs promise — 0, 1, 2 or 64 — and never by a signal,
/// a trap or a stack overflow.
final class HostileExitStatusTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-hostile-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("catalogs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
        // Swift that overflowed swift-syntax's stack, or took minutes and gigabytes.
        try write("let x: " + String(repeating: "A<", count: 1_400) + "Int" + String(repeating: ">", count: 1_400) + " = 1\n", "Sources/Generics.swift")
        try write("func f() throws { " + String(repeating: "try ", count: 10_000) + "g() }\n", "Sources/Try.swift")
        try write("let x = a" + String(repeating: ".b", count: 60_000) + "\n", "Sources/Chain.swift")
        try write("let s = " + String(repeating: "\"\\(", count: 8_000) + "1" + String(repeating: ")\"", count: 8_000) + "\n", "Sources/Strings.swift")
        try write("let r = #/\"\"\"/#\nlet a = " + String(repeating: "[", count: 28) + "1" + String(repeating: "]", count: 28) + "\n// \"\"\"\n", "Sources/Regex.swift")
        try write("#import <StoreKit/StoreKit.h>\nNSString *s = " + String(repeating: "[NSString stringWithFormat:@\"%@\", ", count: 400) + "@\"x\""
                  + String(repeating: "]", count: 400) + ";\n", "Sources/Format.m")
        // A subscription whose introductory offer lasts longer than any integer holds.
        let storeKit = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/StoreKit/Offers.storekit"), encoding: .utf8)
            .replacingOccurrences(of: "\"introductoryOffer\" : null", with: """
            "introductoryOffer" : { "internalID" : "I1", "numberOfPeriods" : 9223372036854775807, "paymentMode" : "payUpFront", \
            "subscriptionPeriod" : "P1Y", "displayPrice" : "0.99" }
            """)
        try write(storeKit, "catalogs/Offers.storekit")
        // Units that overflow when summed.
        let header = "Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tApple Identifier\tCustomer Price\tPromo Code\tParent Identifier\tSubscription\tPeriod\tCategory\tCMB\tDevice\tSupported Platforms\tProceeds Reason\tPreserved Pricing\tClient\tOrder Type\n"
        let row = "APPLE\tUS\tcom.acme.app.coins\tAcme\tCoins\t \tIA1\t9223372036854775807\t0.70\t11/02/2026\t11/02/2026\tUSD\tUS\tUSD\t6500000001\t0.99\t \tapp\t \t \tGames\t \tiPhone\tiOS\t \t \t \t \n"
        try write(header + row + row, "reports/S_D_80012345_20261102.txt")
        // A baseline whose counts overflow.
        try write("""
        {"findings": [{"count": 9223372036854775807, "path": "Sources/Format.m", "rule": "hardcoded-price", "subject": "x"},
                      {"count": 9223372036854775807, "path": "Sources/Format.m", "rule": "hardcoded-price", "subject": "x"}], "version": 1}
        """, "baseline.json")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(path))
    }

    func testEveryCommandEndsWithAPromisedStatus() throws {
        let commands: [[String]] = [
            ["validate", "."], ["validate", "catalogs"], ["list", "catalogs"], ["report", "catalogs"],
            ["report", "--sales", "reports/S_D_80012345_20261102.txt"], ["price", "--catalog", "catalogs"],
            ["lint", "Sources"], ["lint", "Sources", "--baseline", "baseline.json"], ["lint", "Sources", "--write-baseline", "new.json"],
            ["gen", "-o", "ProductID.swift", "catalogs"], ["gen", "--check", "-o", "ProductID.swift", "catalogs"],
            ["storekit", "-o", "Out.storekit", "catalogs"], ["convert", "catalogs/Offers.storekit", "-o", "Out.plist"],
            ["plist", "lint", "catalogs/Offers.storekit"], ["init"], ["check"], ["rules"], ["storefronts"],
        ]
        for command in commands {
            let result = try IAPRunner.run(command, in: folder)
            XCTAssertTrue([0, 1, 2, 64].contains(result.status), "iap \(command.joined(separator: " ")) exited \(result.status)")
            for sign in ["Program crashed", "Fatal error", "*** Signal", "Backtracing"] {
                XCTAssertFalse(result.stderr.contains(sign), "iap \(command.joined(separator: " ")): \(result.stderr.prefix(300))")
            }
        }
    }
}
