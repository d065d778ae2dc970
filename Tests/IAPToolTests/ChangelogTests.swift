import Foundation
import TestSupport
import IAPTool
import XCTest

/// CHANGELOG.md is the project's history in the Keep a Changelog form: its newest release is the
/// version `iap --version` prints, every release heading is `## [X.Y.Z] - YYYY-MM-DD`, newest
/// first, and every heading has its link at the end.
final class ChangelogTests: XCTestCase {
    static let root = Prerequisite.packageRoot

    func testTheNewestReleaseIsTheToolsVersionAndReleasesAreNewestFirst() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## [") }.map(String.init)
        XCTAssertEqual(headings.first, "## [Unreleased]")
        let releases = headings.dropFirst().map { heading -> (version: [Int], date: String) in
            let parts = heading.dropFirst("## [".count).split(separator: "]", maxSplits: 1)
            let version = parts.first.map { $0.split(separator: ".").compactMap { Int($0) } } ?? []
            let date = parts.count == 2 ? String(parts[1]) : ""
            XCTAssertEqual(version.count, 3, heading)
            XCTAssertNotNil(date.range(of: #"^ - \d{4}-\d{2}-\d{2}$"#, options: .regularExpression), heading)
            return (version, date)
        }
        XCTAssertFalse(releases.isEmpty)
        XCTAssertEqual(releases.first?.version.map(String.init).joined(separator: "."), IAPToolInfo.version)
        for (newer, older) in zip(releases, releases.dropFirst()) {
            XCTAssertTrue(newer.version.lexicographicallyPrecedes(older.version) == false && newer.version != older.version, "\(newer) after \(older)")
            XCTAssertGreaterThanOrEqual(newer.date, older.date)
        }
        for heading in headings {
            let name = heading.dropFirst("## ".count).prefix { $0 != " " }
            XCTAssertTrue(text.contains("\n\(name): https://"), "\(name) has no link at the end")
        }
    }
}
