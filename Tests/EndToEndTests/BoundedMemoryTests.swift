import Foundation
import XCTest

/// A huge file is streamed, not loaded: the peak memory of the iap process stays far below the
/// file's size.
final class BoundedMemoryTests: XCTestCase {
    /// Runs iap with `arguments` and returns its exit status and peak resident memory in KB, read
    /// from wait4(2)'s rusage for that one child.
    func peak(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
        var pid: pid_t = 0
        let argv = ([IAPRunner.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let spawned = posix_spawn(&pid, IAPRunner.binary.path, &actions, nil, argv, environ)
        XCTAssertEqual(spawned, 0)
        var status: Int32 = 0
        var usage = rusage()
        XCTAssertEqual(wait4(pid, &status, 0, &usage), pid)
        return ((status >> 8) & 0xFF, usage.ru_maxrss)
    }

    func testA200MBPlistOfWhitespaceIsReadInBoundedMemory() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("iap-whitespace-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: file) }
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("<plist><array>\n".utf8))
        let spaces = Data(repeating: 0x20, count: 1 << 20)
        for _ in 0..<200 { try handle.write(contentsOf: spaces) }
        try handle.write(contentsOf: Data("\n<string>com.example.app.coins</string></array></plist>\n".utf8))
        try handle.close()
        let (status, kilobytes) = try peak(["plist", "lint", file.path])
        XCTAssertEqual(status, 0)
        XCTAssertGreaterThan(kilobytes, 1_000, "rusage gave no peak")
        XCTAssertLessThan(kilobytes, 100_000, "peak \(kilobytes) KB reading a 200 MB file")
    }
}
