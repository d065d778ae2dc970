import Foundation
import Support
import XCTest
@testable import PropertyList

/// Every input iap reads goes through `FileContents`: a FIFO, socket, device or folder is refused
/// without waiting, and a file that is not there says so in the OS's words.
final class FileContentsTests: XCTestCase {
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-contents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func reason(_ result: Result<Data, FileContents.Failure>) -> String? {
        if case .failure(let failure) = result { return failure.reason }
        return nil
    }

    func testARegularFileIsReadWhole() throws {
        let file = try makeFolder().appendingPathComponent("a.txt")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: file)
        XCTAssertEqual(try FileContents.read(file.path).get(), bytes)
        try Data("héllo".utf8).write(to: file)
        XCTAssertEqual(try FileContents.text(file.path).get(), "héllo")
    }

    func testSpecialFilesAndFoldersAreRefusedWithoutWaiting() throws {
        let folder = try makeFolder()
        let fifo = folder.appendingPathComponent("pipe.plist").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        // No writer ever opens the FIFO: a blocking open would hang here.
        XCTAssertEqual(reason(FileContents.read(fifo)), "a FIFO, not a regular file")
        XCTAssertEqual(reason(FileContents.read("/dev/null")), "a device, not a regular file")
        XCTAssertEqual(reason(FileContents.read(folder.path)), "a folder, not a file")
        XCTAssertThrowsError(try PlistReader().read(path: fifo)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot open file: a FIFO, not a regular file"))
            XCTAssertEqual((error as? PlistError)?.osReason, "a FIFO, not a regular file")
        }
    }

    /// A file over a reader's limit is refused by its size before a byte is read: a 2 GiB
    /// sparse file costs nothing (issue 22: a 2 GiB `.storekit` took 4.2 GB).
    func testAFileOverTheLimitIsRefusedByItsSizeUnread() throws {
        let file = try makeFolder().appendingPathComponent("huge.plist")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data("<plist>".utf8)))
        XCTAssertEqual(truncate(file.path, 2 << 30), 0)
        let start = Date()
        XCTAssertEqual(reason(FileContents.read(file.path, limit: 1 << 20)), "larger than 1048576 bytes")
        XCTAssertThrowsError(try PlistReader(maxBytes: 1 << 20).read(path: file.path)) { error in
            XCTAssertEqual((error as? PlistError)?.message,
                           "file is larger than 1048576 bytes, the most iap reads; split the catalog into several files")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testAMissingFileIsToldFromAnUnreadableOne() throws {
        let folder = try makeFolder()
        let missing = FileContents.read(folder.appendingPathComponent("nothing.plist").path)
        XCTAssertEqual(reason(missing), "No such file or directory")
        guard case .failure(let failure) = missing else { return XCTFail("read a file that is not there") }
        XCTAssertTrue(FileContents.isMissing(failure))
        XCTAssertEqual(failure.phrase, "no such file or directory")
        XCTAssertFalse(FileContents.isMissing(FileContents.Failure(reason: "Permission denied")))
        let latin1 = folder.appendingPathComponent("latin1.txt")
        try Data([0x63, 0x61, 0x66, 0xE9]).write(to: latin1)
        guard case .failure(let notText) = FileContents.text(latin1.path) else { return XCTFail("Latin-1 read as UTF-8") }
        XCTAssertEqual(notText.reason, FileContents.notText)
    }
}
