import Foundation
import XCTest

/// A test case that gets a fresh temporary folder for each test, removed after it, and writes
/// text files into it (making their folders).
open class ScratchFolderTestCase: XCTestCase {
    public var folder: URL!

    /// The start of the folder's name (`iap-advice`), which says what a left-behind folder came from.
    open class var folderPrefix: String { "iap-test" }

    override open func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.folderPrefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override open func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    public func write(_ path: String, _ text: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
