import Foundation
import XCTest

final class GenEndToEndTests: XCTestCase {
    func testWriteCheckAndStaleness() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-gen-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("ProductID.swift").path

        // Missing: --check fails and writes nothing.
        let missing = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output, "--check"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "iap: \(output) is missing: run iap gen catalogs/FakeGame -o \(output) to create it\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))

        // First run writes the golden content.
        let first = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output])
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stderr, "iap: wrote \(output) (3 products)\n")
        let golden = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Tests/CodeGenerationTests/Golden/FakeGame-constants.swift"),
                                encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), golden)

        // Unchanged content: the file is not touched, so builds do not recompile.
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output)
        let second = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output])
        XCTAssertEqual(second.stderr, "iap: \(output) unchanged\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date, past)
        let fresh = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output, "--check"])
        XCTAssertEqual(fresh.status, 0)
        XCTAssertEqual(fresh.stderr, "iap: \(output) is up to date\n")

        // Stale: --check exits 1 with a unified diff and leaves the file as it was.
        let edited = golden.replacingOccurrences(of: "static let superpowers", with: "static let superPowers")
        try edited.write(toFile: output, atomically: true, encoding: .utf8)
        let stale = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output, "--check"])
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stdout.hasPrefix("--- \(output)\n+++ \(output) (generated)\n@@ "), stale.stdout)
        XCTAssertTrue(stale.stdout.contains("\n-    static let superPowers = \"com.appcoda.fakegame.superpowers\"\n+    static let superpowers = \"com.appcoda.fakegame.superpowers\"\n"), stale.stdout)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), edited)

        // A rewrite goes through a temporary file that is renamed into place: a new inode, no leftovers.
        let inodeBefore = try FileManager.default.attributesOfItem(atPath: output)[.systemFileNumber] as? Int
        XCTAssertEqual(try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", output]).status, 0)
        let inodeAfter = try FileManager.default.attributesOfItem(atPath: output)[.systemFileNumber] as? Int
        XCTAssertNotEqual(inodeBefore, inodeAfter)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["ProductID.swift"])
    }

    func testSameBytesWhateverTheLocaleOrTimeZone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-gen-locale-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [String] = []
        for (i, env) in [[:], ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"], ["LANG": "ja_JP.UTF-8", "TZ": "Asia/Tokyo"]].enumerated() {
            let path = folder.appendingPathComponent("P\(i).swift").path
            XCTAssertEqual(try IAPRunner.run(["gen", "catalogs/SpeakEnglish", "--style", "enum", "-o", path], environment: env).status, 0)
            outputs.append(try String(contentsOfFile: path, encoding: .utf8))
        }
        XCTAssertEqual(Set(outputs).count, 1)
    }

    func testErrors() throws {
        let noFolder = try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", "/nonexistent-folder/ProductID.swift"])
        XCTAssertEqual(noFolder.status, 2)
        XCTAssertEqual(noFolder.stderr, "iap: error: output folder '/nonexistent-folder' does not exist; create it first (it is not created silently)\n")
        let several = try IAPRunner.run(["gen", "catalogs", "-o", "/tmp/x.swift"])
        XCTAssertEqual(several.status, 2)
        XCTAssertTrue(several.stderr.hasPrefix("iap: error: catalogs holds 7 catalogs"), several.stderr)
        let broken = try IAPRunner.run(["gen", "catalogs/broken/Broken_ProductIDs.plist", "-o", "/tmp/x.swift"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("[malformed-catalog]"), broken.stderr)
        XCTAssertEqual(try IAPRunner.run(["gen", "catalogs/FakeGame"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["gen", "catalogs/FakeGame", "-o", "/tmp/x.swift", "--style", "weird"]).status, 64)
    }
}
