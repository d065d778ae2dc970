import Foundation
import XCTest

/// Every stale-file message names the command that fits the set-up it ran in, quoted for a POSIX
/// shell, and that command, pasted into `sh`, rewrites the file: `iap gen` / `iap storekit` /
/// `iap convert` with `-o` (the same command without `--check` and its report options), `iap gen`
/// / `iap storekit` for what iap.yml lists (with `--config FILE` when one was named), and `iap-gen`
/// (the plugins' tool: the line its `--update-command` names, else its own command line). The
/// SwiftPM plugins' line is checked by PluginBundleTests; Xcode's is unverified here.
final class StaleHintTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        // Spaces and a quote in the paths: a hint that does not quote them does not work when pasted.
        root = FileManager.default.temporaryDirectory.appendingPathComponent("iap stale's \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("my app/Gen"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/RazeFaces"),
                                         to: root.appendingPathComponent("my app/Store Files"))
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// The command between "run " and " to update it" (or "to create it") in `line`.
    func hint(_ line: String) throws -> String {
        let start = try XCTUnwrap(line.range(of: ": run "), line).upperBound
        let end = try XCTUnwrap(line.range(of: " to update it", range: start..<line.endIndex)
                                ?? line.range(of: " to create it", range: start..<line.endIndex), line).lowerBound
        return String(line[start..<end])
    }

    /// Runs `command` in `sh` from `folder`, with the built `iap` and `iap-gen` first on PATH.
    func paste(_ command: String, in folder: URL) throws -> IAPRunner.Result {
        let bin = IAPRunner.binary.deletingLastPathComponent().path
        return try IAPRunner.runProgram("/bin/sh", ["-c", command], in: folder,
                                        environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
    }

    func testTheCommandLinesHintIsItselfWithoutCheckAndWorksWhenPasted() throws {
        let app = root.appendingPathComponent("my app")
        let cases: [(arguments: [String], output: String, expected: String)] = [
            (["gen", "Store Files", "-o", "Gen/Product ID.swift", "--type-name", "Shop", "--style", "enum", "--check", "--format", "text"],
             "Gen/Product ID.swift", "iap gen 'Store Files' -o 'Gen/Product ID.swift' --type-name Shop --style enum"),
            (["storekit", "Store Files", "-o", "Gen/Raze Faces.storekit", "--storefront", "USA", "--check"],
             "Gen/Raze Faces.storekit", "iap storekit 'Store Files' -o 'Gen/Raze Faces.storekit' --storefront USA"),
            (["convert", "Store Files/RazeFaces.storekit", "-o", "Gen/It's.plist", "--check"],
             "Gen/It's.plist", #"iap convert 'Store Files/RazeFaces.storekit' -o 'Gen/It'\''s.plist'"#),
        ]
        for (arguments, output, expected) in cases {
            let missing = try IAPRunner.run(arguments, in: app)
            XCTAssertEqual(missing.status, 1, missing.stderr)
            let line = try XCTUnwrap(missing.stderr.split(separator: "\n").first { $0.hasPrefix("iap: \(output) is missing: ") }, missing.stderr)
            XCTAssertEqual(try hint(String(line)), expected)
            let pasted = try paste(expected, in: app)
            XCTAssertEqual(pasted.status, 0, pasted.stderr)
            XCTAssertEqual(try IAPRunner.run(arguments, in: app).status, 0, "\(arguments)")
            // Edited by hand: stale, with the same command.
            let file = app.appendingPathComponent(output)
            try (String(contentsOf: file, encoding: .utf8) + " ").write(to: file, atomically: true, encoding: .utf8)
            let stale = try IAPRunner.run(arguments, in: app)
            XCTAssertEqual(stale.status, 1)
            XCTAssertTrue(stale.stderr.contains("iap: \(output) is stale: run \(expected) to update it\n"), stale.stderr)
        }
    }

    func testIAPYMLsHintNamesTheConfigGivenAndWorksWhenPasted() throws {
        try """
            catalogs: ["Store Files"]
            generate:
              - output: Gen/Product ID.swift
              - output: Gen/Shop.storekit

            """.write(to: root.appendingPathComponent("my app/iap.yml"), atomically: true, encoding: .utf8)
        // From the folder above, naming the file: the hint names it too.
        let check = try IAPRunner.run(["check", "--config", "my app/iap.yml"], in: root)
        XCTAssertEqual(check.status, 1)
        let hints = try check.stdout.split(separator: "\n").filter { $0.contains("[stale-generated-file]") }.map { try hint(String($0)) }
        XCTAssertEqual(hints, ["iap gen --config 'my app/iap.yml'", "iap storekit --config 'my app/iap.yml'"])
        for command in hints { XCTAssertEqual(try paste(command, in: root).status, 0, command) }
        XCTAssertEqual(try IAPRunner.run(["check", "--config", "my app/iap.yml"], in: root).status, 0)
        // Found by the search: `iap gen` alone finds it again.
        let file = root.appendingPathComponent("my app/Gen/Product ID.swift")
        try "// edited\n".write(to: file, atomically: true, encoding: .utf8)
        let found = try IAPRunner.run(["gen", "--check"], in: root.appendingPathComponent("my app"))
        XCTAssertEqual(found.status, 1)
        XCTAssertEqual(found.stderr, "iap: Gen/Product ID.swift is stale: run iap gen to update it\n")
    }

    func testIapGensHintIsTheOneItIsGivenElseItsOwnLine() throws {
        let tool = IAPRunner.binary.deletingLastPathComponent().appendingPathComponent("iap-gen").path
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("iap-gen is not built next to iap (swift build builds it)") }
        let app = root.appendingPathComponent("my app")
        let given = try IAPRunner.runProgram(tool, ["gen", "Store Files", "--output", "Gen/P.swift", "--check", "--update-command", "swift package iap-gen --target 'My App'"], in: app)
        XCTAssertEqual(given.status, 1)
        XCTAssertEqual(given.stderr, "iap: Gen/P.swift is missing: run swift package iap-gen --target 'My App' to create it\n")
        let own = try IAPRunner.runProgram(tool, ["storekit", "Store Files", "-o", "Gen/P.storekit", "--storefront", "USA", "--check"], in: app)
        XCTAssertEqual(own.status, 1)
        let expected = "iap-gen storekit 'Store Files' --output Gen/P.storekit --storefront USA"
        XCTAssertEqual(own.stderr, "iap: Gen/P.storekit is missing: run \(expected) to create it\n")
        XCTAssertEqual(try paste(expected, in: app).status, 0)
        XCTAssertEqual(try IAPRunner.runProgram(tool, ["storekit", "Store Files", "-o", "Gen/P.storekit", "--storefront", "USA", "--check"], in: app).status, 0)
    }
}
