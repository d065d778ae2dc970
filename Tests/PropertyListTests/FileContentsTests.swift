import Foundation
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
