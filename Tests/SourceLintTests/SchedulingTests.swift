import Foundation
import XCTest
@testable import SourceLint

/// Files are linted largest first; what comes back is in file order whatever the order of work.
final class SchedulingTests: XCTestCase {
    func testLargestFilesAreTakenFirstAndTiesKeepFileOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-schedule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (name, size) in [("a.swift", 10), ("b.swift", 300), ("c.swift", 10), ("d.swift", 40)] {
            let path = folder.appendingPathComponent(name).path
            try Data(repeating: 0x20, count: size).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        files.append(folder.appendingPathComponent("missing.swift").path)
        XCTAssertEqual(SourceLinter.largestFirst(files), [1, 3, 0, 2, 4])
    }

    func testUnreadableFilesComeBackInFileOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-schedule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("a.swift").path, large = folder.appendingPathComponent("b.swift").path
        try Data("let x = 1\n".utf8).write(to: URL(fileURLWithPath: small))
        try Data(String(repeating: "let y = 2\n", count: 50).utf8).write(to: URL(fileURLWithPath: large))
        let gone = [folder.appendingPathComponent("x.swift").path, folder.appendingPathComponent("y.swift").path]
        var linter = SourceLinter()
        linter.jobs = 2
        let run = linter.run(files: [gone[0], small, large, gone[1]])
        XCTAssertEqual(run.unreadable.map(\.location.path), gone)
    }
}
