import Foundation
import Support
import XCTest

/// The one walk every command makes: what it says of each entry, in name order, and what it enters.
final class FolderWalkTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-folderwalk-\(UUID().uuidString)").path
        let fm = FileManager.default
        for folder in ["walked/App/Inner", "walked/build", "walked/.git", "walked/Tests", "outside"] {
            try fm.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        for file in ["walked/App/a.swift", "walked/App/Inner/b.plist", "walked/.gitignore", "walked/._a.swift",
                     "walked/build/skipped.swift", "walked/Tests/t.swift", "outside/secret.swift"] {
            try Data("x\n".utf8).write(to: URL(fileURLWithPath: "\(root)/\(file)"))
        }
        try fm.createSymbolicLink(atPath: "\(root)/walked/App/out", withDestinationPath: "../../outside")
        try fm.createSymbolicLink(atPath: "\(root)/walked/App/loop", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: "\(root)/walked/App/nothing.plist", withDestinationPath: "gone.plist")
        try fm.createSymbolicLink(atPath: "\(root)/walked/App/alias.swift", withDestinationPath: "a.swift")
        XCTAssertEqual(mkfifo("\(root)/walked/App/pipe.plist", 0o644), 0)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Every entry in name order, depth first; test folders left unentered by the caller.
    func testEveryEntryIsSaidOnceInNameOrder() throws {
        var walk = FolderWalk()
        var said: [String] = []
        let top = root + "/walked"
        try walk.walk(top) { folder, entry in
            let relative = { (path: String) in String(path.dropFirst(top.count + 1)) }
            switch entry {
            case .junk(let path, let why, let isFolder): said.append("junk \(relative(path)) folder=\(isFolder): \(why)")
            case .missing(let path, _, let isLink): said.append("missing \(relative(path)) link=\(isLink)")
            case .special(let path, _, let kind): said.append("special \(relative(path)): \(kind)")
            case .linkOut(let path, _, let real, _): said.append("linkOut \(relative(path)) -> \(real == FilePaths.realPath(self.root + "/outside"))")
            case .folderAgain(let path, _, _): said.append("again \(relative(path))")
            case .unlisted(let path, let reason): said.append("unlisted \(relative(path)): \(reason)")
            case .folder(let path, let name, _):
                said.append("folder \(relative(path)) in \(relative(folder + "/"))")
                return name != "Tests"
            case .file(let path, _, let status): said.append("file \(relative(path)) link=\(status.isLink)")
            }
            return false
        }
        XCTAssertEqual(said, [
            "junk ._a.swift folder=false: an AppleDouble file (macOS metadata, named ._…): not read",
            "junk .git folder=true: a hidden folder: not walked",
            "folder App in ",
            "folder App/Inner in App/",
            "file App/Inner/b.plist link=false",
            "file App/a.swift link=false",
            "file App/alias.swift link=true",
            "again App/loop",
            "missing App/nothing.plist link=true",
            "linkOut App/out -> true",
            "special App/pipe.plist: a FIFO",
            "folder Tests in ",
            "junk build folder=true: a build or dependency folder (build): not walked; name it to check what it holds",
        ])
        XCTAssertEqual(walk.roots, [top])
    }

    /// A folder named to the walk that is not there (or cannot be listed) is the caller's error.
    func testARootThatCannotBeListedIsThrown() {
        var walk = FolderWalk()
        XCTAssertThrowsError(try walk.walk(root + "/none") { _, _ in true }) { error in
            XCTAssertEqual((error as? FolderWalk.Unlisted)?.reason, "No such file or directory")
        }
    }

    /// Names come sorted by their bytes (uppercase before lowercase), whatever order the disk gives.
    func testNamesAreSortedByTheirBytes() throws {
        let folder = root + "/names"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["b", "B", "a", "é", "Z"] { try Data().write(to: URL(fileURLWithPath: "\(folder)/\(name)")) }
        XCTAssertEqual(try FolderWalk.names(in: folder).get(), ["B", "Z", "a", "b", "é"])
    }
}
