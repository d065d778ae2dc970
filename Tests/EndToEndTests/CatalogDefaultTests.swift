import Foundation
import XCTest

/// With no PATH and no iap.yml, every command reads the same catalogs (CatalogSelection):
/// `./catalogs` when it exists, else the catalogs found under `.`. And every hint a message
/// gives is a command that works as printed: the tests run them.
final class CatalogDefaultTests: XCTestCase {
    static func metadata(_ id: String, _ name: String) -> String {
        metadata([(id, name)])
    }

    static func metadata(_ products: [(id: String, name: String)]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>IAPCatalogMetadata</key>
        \t<integer>1</integer>
        \t<key>products</key>
        \t<dict>

        """ + products.map(product).joined() + """
        \t</dict>
        </dict>
        </plist>

        """
    }

    static func product(_ id: String, _ name: String) -> String {
        """
        \t\t<key>\(id)</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>consumable</string>
        \t\t\t<key>referenceName</key>
        \t\t\t<string>\(name)</string>
        \t\t\t<key>price</key>
        \t\t\t<string>0.99</string>
        \t\t\t<key>currency</key>
        \t\t\t<string>USD</string>
        \t\t\t<key>localizations</key>
        \t\t\t<dict>
        \t\t\t\t<key>en-US</key>
        \t\t\t\t<dict>
        \t\t\t\t\t<key>displayName</key>
        \t\t\t\t\t<string>\(name)</string>
        \t\t\t\t\t<key>description</key>
        \t\t\t\t\t<string>A bag of \(name.lowercased())</string>
        \t\t\t\t</dict>
        \t\t\t</dict>
        \t\t</dict>

        """
    }

    /// An app folder: `App/Metadata.plist` (com.acme.shop.coins) and one source; no iap.yml, no catalogs/.
    func makeAppFolder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-default-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Self.metadata("com.acme.shop.coins", "Coins").write(to: root.appendingPathComponent("App/Metadata.plist"), atomically: true, encoding: .utf8)
        try "let shelf = 1\n".write(to: root.appendingPathComponent("App/Shop.swift"), atomically: true, encoding: .utf8)
        return root
    }

    /// Each command, run with no PATH: all must read the catalog named `expected` and its product.
    func assertEveryCommandReads(_ expected: String, product: String, in root: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("iap-default-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let validate = try IAPRunner.run(["validate"], in: root)
        XCTAssertEqual(validate.status, 0, validate.stderr, file: file, line: line)
        XCTAssertEqual(validate.stderr, "1 file checked: 0 errors, 0 warnings, 0 infos, 1 product in 1 catalog\n", file: file, line: line)
        let list = try IAPRunner.run(["list", "--format", "json"], in: root)
        XCTAssertEqual(list.status, 0, list.stderr, file: file, line: line)
        XCTAssertTrue(list.stdout.contains("\"\(product)\""), list.stdout, file: file, line: line)
        let report = try IAPRunner.run(["report"], in: root)
        XCTAssertEqual(report.status, 0, report.stderr, file: file, line: line)
        XCTAssertTrue(report.stdout.contains("| \(product) | consumable |  | $0.99 |\n"), report.stdout, file: file, line: line)
        let lint = try IAPRunner.run(["lint"], in: root)
        XCTAssertEqual(lint.status, 0, lint.stderr, file: file, line: line)
        XCTAssertEqual(lint.stderr, "iap: using the catalog in \(expected) (1 product)\n1 file checked: 0 errors, 0 warnings, 0 infos\n", file: file, line: line)
        let gen = try IAPRunner.run(["gen", "-o", out.appendingPathComponent("ProductID.swift").path], in: root)
        XCTAssertEqual(gen.status, 0, gen.stderr, file: file, line: line)
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("ProductID.swift"), encoding: .utf8).contains("\"\(product)\""), file: file, line: line)
        let storekit = try IAPRunner.run(["storekit", "-o", out.appendingPathComponent("Local.storekit").path], in: root)
        XCTAssertEqual(storekit.status, 0, storekit.stderr, file: file, line: line)
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("Local.storekit"), encoding: .utf8).contains("\"\(product)\""), file: file, line: line)
        let check = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(check.status, 0, check.stderr, file: file, line: line)
        XCTAssertEqual(check.stderr, "iap: no iap.yml here or above; validating \(expected == "catalogs" ? "./catalogs" : "the catalogs found under .") (iap init writes one)\n"
                       + "1 catalog file (1 product in 1 catalog) checked: 0 errors, 0 warnings, 0 infos\n", file: file, line: line)
    }

    func testAnAppFolderWithoutCatalogsIsWalkedByEveryCommand() throws {
        let root = try makeAppFolder()
        try assertEveryCommandReads("App", product: "com.acme.shop.coins", in: root)
    }

    func testACatalogsFolderIsWhatEveryCommandReads() throws {
        let root = try makeAppFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("catalogs"), withIntermediateDirectories: true)
        try Self.metadata("com.acme.shop.gems", "Gems").write(to: root.appendingPathComponent("catalogs/Metadata.plist"), atomically: true, encoding: .utf8)
        try assertEveryCommandReads("catalogs", product: "com.acme.shop.gems", in: root)
    }

    /// The command a hint asks for, as arguments of iap: the rest of the line after "run: iap ",
    /// what stands between quotes after "run '", else the words after "run iap " up to "without --check" (which means: the same
    /// command, without that flag), " to …" or the end of the line. No hint here quotes a path.
    func hintedCommand(_ line: String) throws -> [String] {
        // "for the details run: iap validate …": the command is the rest of the line.
        if let colon = line.range(of: "run: iap ") {
            return line[colon.upperBound...].split(whereSeparator: \.isWhitespace).map(String.init)
        }
        if let quoted = line.range(of: "run '") {
            let rest = line[quoted.upperBound...]
            let command = try XCTUnwrap(rest.firstIndex(of: "'").map { rest[..<$0] })
            return Array(command.split(separator: " ").map(String.init).dropFirst())
        }
        let after = try XCTUnwrap(line.range(of: "run iap ")).upperBound
        var command = String(line[after...])
        for end in [" without --check", " to "] {
            if let range = command.range(of: end) { command = String(command[..<range.lowerBound]) }
        }
        return command.split(separator: " ").map(String.init)
    }

    func testListsAndCatalogDriftsHintsWorkAsPrinted() throws {
        let root = try makeAppFolder()
        // A StoreKit configuration of the one product, then a second product in the plist only.
        XCTAssertEqual(try IAPRunner.run(["storekit", "App/Metadata.plist", "-o", "App/Local.storekit"], in: root).status, 0)
        try Self.metadata([("com.acme.shop.coins", "Coins"), ("com.acme.shop.gems", "Gems")])
            .write(to: root.appendingPathComponent("App/Metadata.plist"), atomically: true, encoding: .utf8)
        let drift = try IAPRunner.run(["validate"], in: root)
        let fix = try XCTUnwrap(drift.stdout.split(separator: "\n").first { $0.contains("note: fix: run iap storekit") }, drift.stdout)
        XCTAssertEqual(String(fix), "App/Metadata.plist:29:3: note: fix: run iap storekit App/Metadata.plist -o App/Local.storekit to regenerate the configuration, or add the product in Xcode")
        let regenerated = try IAPRunner.run(try hintedCommand(String(fix)), in: root)
        XCTAssertEqual(regenerated.status, 0, regenerated.stderr)
        let after = try IAPRunner.run(["validate"], in: root)
        XCTAssertEqual(after.status, 0, after.stdout)
        XCTAssertFalse(after.stdout.contains("[catalog-drift]"), after.stdout)

        // list's hint names the catalogs it read, so validate shows the same files' findings.
        try "<plist><array><string>com.acme.shop.x</strin></array></plist>\n"
            .write(to: root.appendingPathComponent("App/Broken_ProductIDs.plist"), atomically: true, encoding: .utf8)
        for arguments in [["list"], ["list", "App"]] {
            let list = try IAPRunner.run(arguments, in: root)
            XCTAssertEqual(list.status, 1)
            XCTAssertEqual(list.stderr, "iap: some files could not be read as catalogs; for the details run: iap validate\(arguments.count > 1 ? " App" : "")\n")
            let validate = try IAPRunner.run(try hintedCommand(list.stderr), in: root)
            XCTAssertEqual(validate.status, 1)
            XCTAssertTrue(validate.stdout.hasPrefix("App/Broken_ProductIDs.plist:1:"), validate.stdout)
            XCTAssertTrue(validate.stdout.contains("[malformed-catalog]\n"), validate.stdout)
        }
    }

    func testHintsAreCommandsThatWorkAsPrinted() throws {
        let root = try makeAppFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Generated"), withIntermediateDirectories: true)
        try """
            catalogs: [App]
            generate:
              - output: Generated/ProductID.swift
              - output: Generated/Local.storekit

            """.write(to: root.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        // Both outputs missing: check names the command that writes each.
        let stale = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(stale.status, 1)
        XCTAssertEqual(stale.stdout, """
            Generated/Local.storekit: error: Generated/Local.storekit is missing: run iap storekit to create it [stale-generated-file]
            Generated/Local.storekit: note: fix: run iap storekit and commit the file
            Generated/ProductID.swift: error: Generated/ProductID.swift is missing: run iap gen to create it [stale-generated-file]
            Generated/ProductID.swift: note: fix: run iap gen and commit the file

            """)
        let hints = stale.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(hints.count, 2)
        for hint in hints {
            let command = try hintedCommand(String(hint))
            let ran = try IAPRunner.run(command, in: root)
            XCTAssertEqual(ran.status, 0, "\(command): \(ran.stderr)")
            // The same command with --check now agrees.
            let checked = try IAPRunner.run(command + ["--check"], in: root)
            XCTAssertEqual(checked.status, 0, "\(command) --check: \(checked.stderr)")
        }
        let fresh = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(fresh.status, 0, fresh.stdout + fresh.stderr)
        XCTAssertEqual(fresh.stderr, "1 catalog file (1 product in 1 catalog), 2 generated files checked: 0 errors, 0 warnings, 0 infos\n")

        // A stale file: gen --check shows the diff, and the hint it prints repairs it.
        try "// edited by hand\n".write(to: root.appendingPathComponent("Generated/ProductID.swift"), atomically: true, encoding: .utf8)
        let genCheck = try IAPRunner.run(["gen", "--check"], in: root)
        XCTAssertEqual(genCheck.status, 1)
        XCTAssertTrue(genCheck.stdout.hasPrefix("--- Generated/ProductID.swift\n"), genCheck.stdout)
        XCTAssertEqual(genCheck.stderr, "iap: Generated/ProductID.swift is stale: run iap gen to update it\n")
        XCTAssertEqual(try IAPRunner.run(try hintedCommand(genCheck.stderr.trimmingCharacters(in: .newlines)), in: root).status, 0)
        XCTAssertEqual(try IAPRunner.run(["gen", "--check"], in: root).stderr, "iap: Generated/ProductID.swift is up to date\n")
    }

    func testGenAndStoreKitWithoutOutputSayWhatToPass() throws {
        let root = try makeAppFolder()
        let gen = try IAPRunner.run(["gen"], in: root)
        XCTAssertEqual(gen.status, 64)
        XCTAssertEqual(gen.stderr, "iap: error: no -o FILE given and no iap.yml here or above: pass -o FILE, or list the files to keep up to date under generate: in iap.yml (iap init writes one)\n")
        try "generate:\n  - output: App/ProductID.swift\n".write(to: root.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let storekit = try IAPRunner.run(["storekit"], in: root)
        XCTAssertEqual(storekit.status, 64)
        XCTAssertEqual(storekit.stderr, "iap: error: no -o FILE given and iap.yml lists no .storekit output under generate:; pass -o FILE, or add one there\n")
    }

    func testInitsHintWorksAsPrinted() throws {
        // A folder with a catalog: the hint is a command, and it runs.
        let root = try makeAppFolder()
        let written = try IAPRunner.run(["init"], in: root)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stderr, "iap: wrote iap.yml; run iap check\n")
        let check = try IAPRunner.run(try hintedCommand(written.stderr.trimmingCharacters(in: .newlines)), in: root)
        XCTAssertEqual(check.status, 0, check.stderr)

        // iap init on a subfolder: the hint names that folder's file.
        let parent = root.deletingLastPathComponent(), name = root.lastPathComponent
        let sub = try IAPRunner.run(["init", name, "--force"], in: parent)
        XCTAssertEqual(sub.stderr, "iap: wrote \(name)/iap.yml; run iap check --config \(name)/iap.yml\n")
        let subCheck = try IAPRunner.run(try hintedCommand(sub.stderr.trimmingCharacters(in: .newlines)), in: parent)
        XCTAssertEqual(subCheck.status, 0, subCheck.stderr)

        // An empty folder: no command that would fail, but what to add.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("iap-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: empty) }
        let nothing = try IAPRunner.run(["init"], in: empty)
        XCTAssertEqual(nothing.status, 0, nothing.stderr)
        XCTAssertEqual(nothing.stderr, "iap: wrote iap.yml; nothing to check here yet: add the app's product-ID plist, metadata plist or .storekit file to this folder, or name the folder that holds them under catalogs: in iap.yml\n")

        // check's "iap init writes one" note: iap init, as printed, runs.
        let noConfig = try makeAppFolder()
        let note = try IAPRunner.run(["check"], in: noConfig)
        XCTAssertTrue(note.stderr.contains("(iap init writes one)"), note.stderr)
        XCTAssertEqual(try IAPRunner.run(["init"], in: noConfig).status, 0)
    }
}
