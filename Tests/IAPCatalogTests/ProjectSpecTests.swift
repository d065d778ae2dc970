import Foundation
import XCTest
@testable import IAPCatalog

/// The project-spec readers on what a pull request can write: includes repeated, many or nested
/// deep. Work is counted (files read, include names kept), never timed.
final class ProjectSpecTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// An XcodeGen target that sets its bundle ID.
    static func target(_ name: String, _ id: String) -> String {
        "targets:\n  \(name):\n    type: application\n    settings:\n      base:\n        PRODUCT_BUNDLE_IDENTIFIER: \(id)\n"
    }

    static func ids(_ reading: ProjectSpec.Reading) -> [String] {
        reading.targets.compactMap(\.bundleID)
    }

    /// 0.8 MB of one name repeated: each file is read once, each name kept once a file (the
    /// reader was quadratic in the repetitions: 17–30 s).
    func testRepeatedIncludeNamesAreKeptOnceAndEachFileReadOnce() throws {
        let spec = try write("App/project.yml", "name: App\n" + Self.target("App", "com.acme.app") + "include:\n"
                             + String(repeating: "  - path: more.yml\n", count: 43_000))
        // The included file names itself and the spec: a cycle, read once each.
        try write("App/more.yml", "include: [more.yml, project.yml]\n" + Self.target("More", "com.acme.more"))
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: spec)[.size] as? Int ?? 0, 800_000)
        let reading = ProjectSpec.read(path: spec)
        XCTAssertEqual(reading.filesRead, [spec, folder.appendingPathComponent("App/more.yml").path])
        XCTAssertEqual(reading.includeNames, 3)
        XCTAssertEqual(Self.ids(reading), ["com.acme.app", "com.acme.more"])
        XCTAssertEqual(reading.passedOver, [])
    }

    /// A hundred distinct includes: the first `maxIncludes` are read, one note says where it stopped.
    func testAtMostMaxIncludesFilesAreFollowed() throws {
        let count = 100
        let spec = try write("project.yml", "include:\n" + (0..<count).map { "  - inc\($0).yml\n" }.joined())
        for index in 0..<count { try write("inc\(index).yml", Self.target("T\(index)", "com.acme.t\(index)")) }
        let reading = ProjectSpec.read(path: spec)
        XCTAssertEqual(reading.filesRead.count, 1 + ProjectSpec.maxIncludes)
        XCTAssertEqual(Self.ids(reading), (0..<ProjectSpec.maxIncludes).map { "com.acme.t\($0)" })
        // The spec's names are kept as far as the cap needs, not a hundred.
        XCTAssertEqual(reading.includeNames, ProjectSpec.maxIncludes + 2)
        XCTAssertEqual(reading.passedOver, [PassedOverFile(path: spec, reason: "its include 'inc16.yml' is past the 16 files iap follows from one XcodeGen spec: not read")])
    }

    /// A chain of includes: `maxIncludeDepth` deep, and a note at the file whose include goes deeper.
    func testIncludesNestAtMostMaxIncludeDepthDeep() throws {
        let spec = try write("project.yml", "include: [d1.yml]\n" + Self.target("T0", "com.acme.d0"))
        for depth in 1...12 { try write("d\(depth).yml", "include: [d\(depth + 1).yml]\n" + Self.target("T\(depth)", "com.acme.d\(depth)")) }
        let reading = ProjectSpec.read(path: spec)
        XCTAssertEqual(Self.ids(reading), (0...ProjectSpec.maxIncludeDepth).map { "com.acme.d\($0)" })
        let deepest = folder.appendingPathComponent("d\(ProjectSpec.maxIncludeDepth).yml").path
        XCTAssertEqual(reading.passedOver, [PassedOverFile(path: deepest, reason: "its include 'd9.yml' nests more than 8 includes deep: not read")])
    }
}
