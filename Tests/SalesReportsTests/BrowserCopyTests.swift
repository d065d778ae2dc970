import Foundation
import TestSupport
import SalesReports
import XCTest

/// A report and its copies (a browser's second download, a file manager's duplicate): the report
/// is read first and the copy is the duplicate, whatever the order the files come in.
final class BrowserCopyTests: XCTestCase {
    static let fixtures = Prerequisite.packageRoot
        .appendingPathComponent("Tests/Fixtures/Sales")

    /// Each spelling of a copy, of a plain and a gzipped report: the original's name and the copy's number.
    static let copies: [(copy: String, original: String, number: Int)] = [
        ("EU (1).txt", "EU.txt", 1),                        // Chrome, Edge
        ("EU (12).txt", "EU.txt", 12),
        ("EU(1).txt", "EU.txt", 1),                         // Firefox
        ("EU-1.txt", "EU.txt", 1),                          // Safari
        ("EU copy.txt", "EU.txt", 1),                       // macOS Finder
        ("EU copy 2.txt", "EU.txt", 2),
        ("EU - Copy.txt", "EU.txt", 1),                     // Windows Explorer
        ("EU - Copy (2).txt", "EU.txt", 2),
        ("Copy of EU.txt", "EU.txt", 1),                    // older Windows
        ("Copy (2) of EU.txt", "EU.txt", 2),
        ("S_D_1_20261102 (1).txt.gz", "S_D_1_20261102.txt.gz", 1),
        ("S_D_1_20261102.txt (1).gz", "S_D_1_20261102.txt.gz", 1), // older Chrome: before the last extension
        ("S_D_1_20261102-2.TXT.GZ", "S_D_1_20261102.TXT.GZ", 2),
        ("sales (3).tsv", "sales.tsv", 3),
    ]

    func testEveryCopySpellingNamesItsOriginal() {
        for (copy, original, number) in Self.copies {
            let found = BrowserCopy.original(of: copy)
            XCTAssertEqual(found?.name, original, copy)
            XCTAssertEqual(found?.copy, number, copy)
        }
    }

    /// Names that are no copy's, dates and numbers in report names above all.
    func testReportNamesAreNotCopies() {
        for name in ["EU.txt", "S_D_80012345_20261102.txt", "sales-20261102.txt", "80012345_1126_EU.txt", "S_D_80012345_20261104_v1_0.txt",
                     "Subscription_Event_80012345_20261102.txt", "copy.txt", "(1).txt", "-1.txt", "EU (1234).txt", "EU (x).txt"] {
            XCTAssertNil(BrowserCopy.original(of: name).map { "\($0.name) \($0.copy)" }, name)
        }
    }

    /// The original first, then its copies by number, in every order the paths are given in.
    func testReadingOrderIsTheOriginalFirstWhateverTheOrderGiven() {
        let expected = ["r/A.txt", "r/A (1).txt", "r/A-2.txt", "r/A (3).txt", "r/B.txt", "r/B copy.txt", "r/EU.txt", "r/EU (1).txt"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            XCTAssertEqual(BrowserCopy.readingOrder(expected.shuffled(using: &generator)), expected)
        }
        XCTAssertEqual(BrowserCopy.readingOrder(expected.reversed()), expected)
    }

    /// Read in that order, the copy is the duplicate and the original's rows are counted; and a
    /// copy given alone is read as any report.
    func testTheCopyIsTheDuplicateWhicheverIsListedFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = Self.fixtures.appendingPathComponent("S_D_80012345_20261102.txt")
        for copy in ["S_D_80012345_20261102 (1).txt", "S_D_80012345_20261102(1).txt", "S_D_80012345_20261102-1.txt",
                     "S_D_80012345_20261102 copy.txt", "S_D_80012345_20261102 - Copy.txt", "Copy of S_D_80012345_20261102.txt"] {
            let names = [copy, "S_D_80012345_20261102.txt"]
            for name in names { try FileManager.default.copyItem(at: fixture, to: folder.appendingPathComponent(name)) }
            defer { for name in names { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) } }
            for given in [names, names.reversed()] {
                var ledger = SalesLedger()
                for path in BrowserCopy.readingOrder(given.map { folder.appendingPathComponent($0).path }) {
                    SalesReportReader.read(path, displayPath: (path as NSString).lastPathComponent, into: &ledger)
                }
                XCTAssertEqual(ledger.files.map { "\($0.path) \($0.duplicateOf ?? "-")" },
                               ["S_D_80012345_20261102.txt -", "\(copy) S_D_80012345_20261102.txt"], copy)
                XCTAssertEqual(ledger.rowCount, 11, copy)
            }
        }
    }
}
