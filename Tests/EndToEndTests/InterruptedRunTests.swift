import Foundation
import TestSupport
import XCTest

/// Runs killed at random points, and runs writing the same file at once: every output is the
/// old file or the new one, whole, and a normal run leaves no temporary file behind.
final class InterruptedRunTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-interrupted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A catalog big enough that writing its outputs takes a while: `count` product IDs.
    func writeCatalog(_ name: String, count: Int, prefix: String) throws -> String {
        let catalog = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        let ids = (0..<count).map { "\t<string>\(prefix).item\($0)</string>\n" }.joined()
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\(ids)</array>\n</plist>\n"
            .write(to: catalog.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        return catalog.path
    }

    /// Starts `iap arguments`, kills it with SIGKILL after `delay` seconds (if still running).
    func runKilled(_ arguments: [String], after delay: TimeInterval) throws {
        let process = Process()
        process.executableURL = IAPRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = IAPRunner.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func testKilledWritersLeaveTheOldFileOrTheNewOneWhole() throws {
        let catalog = try writeCatalog("Big", count: 20_000, prefix: "com.interrupt.app")
        let outputs: [(name: String, arguments: (String) -> [String])] = [
            ("ProductID.swift", { ["gen", catalog, "-o", $0] }),
            ("findings.sarif", { ["validate", catalog, "--report", "sarif:\($0)"] }),
            ("report.html", { ["report", "--sales", "Tests/Fixtures/Sales", "--format", "html", "-o", $0] }),
            ("Metadata.plist", { ["convert", catalog, "--to", "metadata", "-o", $0] }),
        ]
        var generator = SeededGenerator(seed: 11)
        for output in outputs {
            let path = folder.appendingPathComponent(output.name).path
            let old = Data("old content\n".utf8)
            try old.write(to: URL(fileURLWithPath: path))
            // The whole new file, from a run left alone (written beside, then compared).
            let reference = folder.appendingPathComponent("reference-" + output.name).path
            _ = try IAPRunner.run(output.arguments(reference))
            let new = try XCTUnwrap(contents(reference), output.name)
            XCTAssertGreaterThan(new.count, 1000, output.name)
            var seen: Set<String> = []
            for _ in 0..<12 {
                try runKilled(output.arguments(path), after: Double(generator.next() % 400) / 1000)
                let now = contents(path)
                XCTAssertTrue(now == old || now == new, "\(output.name) is partial: \(now?.count ?? -1) bytes")
                seen.insert(now == old ? "old" : "new")
                if now == new { try old.write(to: URL(fileURLWithPath: path)) }
            }
            // A normal run afterwards writes the file and removes what killed runs left.
            _ = try IAPRunner.run(output.arguments(path))
            XCTAssertEqual(contents(path), new, output.name)
            try FileManager.default.removeItem(atPath: reference)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(left, ["Big", "Metadata.plist", "ProductID.swift", "findings.sarif", "report.html"])
    }

    func testTwoRunsWritingOneFileEndWithOneWholeFile() throws {
        let first = try writeCatalog("First", count: 15_000, prefix: "com.first.app")
        let second = try writeCatalog("Second", count: 15_000, prefix: "com.second.app")
        let output = folder.appendingPathComponent("ProductID.swift").path
        let expected = try [first, second].map { catalog -> Data in
            let path = folder.appendingPathComponent("expected-\((catalog as NSString).lastPathComponent).swift").path
            XCTAssertEqual(try IAPRunner.run(["gen", catalog, "-o", path]).status, 0)
            defer { try? FileManager.default.removeItem(atPath: path) }
            return try XCTUnwrap(contents(path))
        }
        for _ in 0..<4 {
            let runs = [first, second].map { catalog -> Process in
                let process = Process()
                process.executableURL = IAPRunner.binary
                process.arguments = ["gen", catalog, "-o", output]
                process.currentDirectoryURL = IAPRunner.packageRoot
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for run in runs { try run.run() }
            for run in runs { run.waitUntilExit() }
            XCTAssertEqual(runs.map(\.terminationStatus), [0, 0])
            let now = contents(output)
            XCTAssertTrue(now == expected[0] || now == expected[1], "\(now?.count ?? -1) bytes: neither run's whole file")
            try FileManager.default.removeItem(atPath: output)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["First", "Second"])
    }
}
