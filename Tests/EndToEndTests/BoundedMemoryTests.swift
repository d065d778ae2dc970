import Foundation
import TestSupport
import XCTest

/// A huge file is streamed, not loaded: the peak memory of the iap process stays far below the
/// file's size.
final class BoundedMemoryTests: XCTestCase {
    /// Runs iap with `arguments` and returns its exit status and peak resident memory in KB.
    ///
    /// On Linux a spawned child's `ru_maxrss` starts at its parent's resident size: `execve` keeps
    /// the old address space's high-water mark, and a forked one starts at its parent's. Spawned
    /// straight from this test process (a hundred MB or more after the earlier tests), iap would be
    /// charged for the test runner's memory. So a small Python process forks iap and reads iap's own
    /// peak from `wait4`; the floor is then Python's few MB, not the test runner's.
    func peak(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
        let helper = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        // python3 measures iap's own peak memory.
        try Prerequisite.program(["python3"], install: "apt-get install python3")
        let result = try IAPRunner.runProgram("/usr/bin/env", ["python3", "-c", helper, IAPRunner.binary.path] + arguments)
        let fields = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard result.status == 0, fields.count == 2, let status = Int32(fields[0]), let kilobytes = Int(fields[1]) else {
            XCTFail("the measuring helper failed: \(result.stdout) \(result.stderr)")
            return (-1, 0)
        }
        return (status, kilobytes)
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
