import Foundation
import XCTest

/// Every crash, hang or memory blow-up a fuzzer found is kept under
/// Tests/Fixtures/FuzzFindings/TARGET/ and replayed here through the same entry, so that it stays
/// fixed. A finding that crashes again crashes this test; one that hangs fails after two minutes.
final class FuzzReplayTests: XCTestCase {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/FuzzFindings")

    func testEveryFindingFolderNamesATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.findings.path)
            .filter { !$0.hasSuffix(".md") }
        XCTAssertEqual(Set(folders).subtracting(FuzzEntries.all.keys), [])
        XCTAssertEqual(FuzzEntries.all.keys.sorted(), ["asc", "ascanswers", "baseline", "config", "gencheck", "objc", "plan", "plist", "price", "pricepoints", "sales",
                                                   "shapes", "storekit", "swift"])
    }

    func testEveryFindingIsReplayedQuickly() throws {
        var replayed = 0
        for (target, entry) in FuzzEntries.all.sorted(by: { $0.key < $1.key }) {
            let folder = Self.findings.appendingPathComponent(target)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                // A guard against a hang come back, not a speed test: a replay takes well under a
                // second on an idle machine, and a loaded one (two cores, six builds) took 15 s.
                let start = Date()
                entry(bytes)
                XCTAssertLessThan(Date().timeIntervalSince(start), 120, "\(target)/\(name) hangs")
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 0, "no findings under \(Self.findings.path)")
    }
}
