import Foundation
import Support
import XCTest
@testable import IAPCatalog

/// The project-spec readers on what a pull request can write: includes repeated, many, nested
/// deep or aimed out of the repository, and a `project.pbxproj` linked out of it. Work is counted
/// (files read, include names kept), never timed.
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

    /// A chain of includes: `maxIncludeDepth` deep, and a note at the file whose include goes
    /// deeper, naming the first one not read (each file also includes the spec, read already).
    func testIncludesNestAtMostMaxIncludeDepthDeep() throws {
        let spec = try write("project.yml", "include: [d1.yml]\n" + Self.target("T0", "com.acme.d0"))
        for depth in 1...12 { try write("d\(depth).yml", "include: [project.yml, d\(depth + 1).yml]\n" + Self.target("T\(depth)", "com.acme.d\(depth)")) }
        let reading = ProjectSpec.read(path: spec)
        XCTAssertEqual(Self.ids(reading), (0...ProjectSpec.maxIncludeDepth).map { "com.acme.d\($0)" })
        let deepest = folder.appendingPathComponent("d\(ProjectSpec.maxIncludeDepth).yml").path
        XCTAssertEqual(reading.passedOver, [PassedOverFile(path: deepest, reason: "its include 'd9.yml' nests more than 8 includes deep: not read")])
    }

    /// A repository (a `.git` folder) whose spec includes a file above it, one by absolute path,
    /// one through a link that leads out, and one of its own: only its own is read.
    func testIncludesStayInsideTheRepository() throws {
        let outside = try write("outside.yml", Self.target("Evil", "com.evil.outside"))
        try write("repo/.git/HEAD", "ref: refs/heads/main\n")
        try write("repo/Shared/common.yml", Self.target("Shared", "com.acme.shared"))
        try write("repo/App/project.yml", """
        name: App
        include:
          - ../../outside.yml
          - \(outside)
          - path: linked.yml
          - ../.git/config.yml
          - ../Shared/common.yml
        \(Self.target("App", "com.acme.app"))
        """)
        try write("repo/App/IAP_ProductIDs.plist", Self.idList(["com.evil.outside.coins"]))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("repo/App/linked.yml").path, withDestinationPath: outside)
        let result = try CatalogLoader().loadAll(paths: [folder.appendingPathComponent("repo/App").path])
        let spec = folder.appendingPathComponent("repo/App/project.yml").path
        XCTAssertEqual(result.catalogs.map { $0.bundleID?.value }, ["com.acme.app"])
        XCTAssertEqual(result.passedOver, [
            PassedOverFile(path: spec, reason: "its include '../../outside.yml' leads out of the repository ('..'): not read"),
            PassedOverFile(path: spec, reason: "its include '\(outside)' is an absolute path: not read"),
            PassedOverFile(path: spec, reason: "its include 'linked.yml' leads out of the repository through the link 'linked.yml': not read"),
            PassedOverFile(path: spec, reason: "its include '../.git/config.yml' is inside .git: not read"),
        ])
        let group = try XCTUnwrap(FileDiscovery().groups(for: [folder.appendingPathComponent("repo/App").path]).first)
        XCTAssertEqual(group.boundary?.name, "the repository")
        XCTAssertEqual(Self.ids(ProjectSpec.read(path: spec, boundary: group.boundary)), ["com.acme.app", "com.acme.shared"])
    }

    /// Outside any repository the folder walked is the boundary: `../` out of it is not read.
    func testWithoutARepositoryTheWalkedFolderIsTheBoundary() throws {
        if let repository = FilePaths.repositoryRoot(of: folder.path) {
            throw XCTSkip("the temporary folder is inside the repository \(repository)")
        }
        try write("Shared/common.yml", Self.target("Shared", "com.acme.shared"))
        try write("App/project.yml", "include: [../Shared/common.yml, extra.yml]\n" + Self.target("App", "com.acme.app"))
        try write("App/extra.yml", Self.target("Extra", "com.acme.extra"))
        try write("App/IAP_ProductIDs.plist", Self.idList(["com.acme.shared.coins"]))
        let app = folder.appendingPathComponent("App").path
        let group = try XCTUnwrap(FileDiscovery().groups(for: [app]).first)
        XCTAssertEqual(group.boundary, FileDiscovery.Boundary(walking: try XCTUnwrap(FilePaths.realPath(app))))
        XCTAssertEqual(group.boundary?.name, "the folder checked")
        let reading = ProjectSpec.read(path: app + "/project.yml", boundary: group.boundary)
        XCTAssertEqual(Self.ids(reading), ["com.acme.app", "com.acme.extra"])
        XCTAssertEqual(reading.passedOver.map(\.reason), ["its include '../Shared/common.yml' leads out of the folder checked ('..'): not read"])
        // Walked from the folder above, the same include is inside.
        let parent = try XCTUnwrap(FileDiscovery().groups(for: [folder.path]).first { $0.name.hasSuffix("App") })
        XCTAssertEqual(Self.ids(ProjectSpec.read(path: app + "/project.yml", boundary: parent.boundary)), ["com.acme.app", "com.acme.shared", "com.acme.extra"])
    }

    /// A `project.pbxproj` linked out of the repository is not read: its bundle ID is not found,
    /// and `--verbose`'s note names the link, not what it leads to.
    func testAProjectLinkedOutOfTheRepositoryIsNotRead() throws {
        let outside = try write("outside/project.pbxproj", Self.project(id: "com.evil.app"))
        try write("repo/.git/HEAD", "ref: refs/heads/main\n")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("repo/App.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("repo/App.xcodeproj/project.pbxproj").path, withDestinationPath: outside)
        try write("repo/IAP_ProductIDs.plist", Self.idList(["com.evil.app.coins"]))
        let repo = folder.appendingPathComponent("repo").path
        let result = try CatalogLoader().loadAll(paths: [repo])
        XCTAssertEqual(result.catalogs.count, 1)
        XCTAssertNil(result.catalogs.first?.bundleID)
        XCTAssertEqual(result.passedOver.filter { !$0.isFolder }, [PassedOverFile(path: repo + "/App.xcodeproj/project.pbxproj",
                                                          reason: "an Xcode project that leads out of the repository through the link 'project.pbxproj': not read")])
        // The same project inside the repository is read, link or not.
        try FileManager.default.removeItem(atPath: repo + "/App.xcodeproj/project.pbxproj")
        try write("repo/Projects/project.pbxproj", Self.project(id: "com.evil.app"))
        try FileManager.default.createSymbolicLink(atPath: repo + "/App.xcodeproj/project.pbxproj", withDestinationPath: "../Projects/project.pbxproj")
        let inside = try CatalogLoader().loadAll(paths: [repo])
        XCTAssertEqual(inside.catalogs.first?.bundleID?.value, "com.evil.app")
        XCTAssertEqual(inside.passedOver.filter { !$0.isFolder }, [])
    }

    static func idList(_ ids: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
            + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n"
    }

    /// The smallest `project.pbxproj` with one application target of bundle ID `id`.
    static func project(id: String) -> String {
        """
        // !$*UTF8*$!
        {
        \tobjects = {
        \t\tT1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; };
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
        \t\tC1 = {isa = XCBuildConfiguration; name = Release; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = \(id); }; };
        \t\tP1 = {isa = PBXProject; targets = (T1); };
        \t};
        \trootObject = P1;
        }
        """
    }
}
