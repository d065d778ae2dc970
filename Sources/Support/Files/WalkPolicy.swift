import Foundation

/// What every walk passes over without reading, and why: catalog discovery (`FileDiscovery`),
/// the lint walk (`SourceLinter.files(in:)`) and `iap init`'s proposal use this one list, so a
/// folder of junk is junk to all of them, and `--verbose` says the same reason whichever walk met
/// it. Also the one form of a walked path: relative as given, never `./App/…` beside `App/…`.
public enum WalkPolicy {
    /// Build output and dependency folders: never the app's own files. `Carthage` covers
    /// `Carthage/Build` and the dependencies' checkouts beside it.
    public static let buildFolders: Set<String> = ["build", ".build", "DerivedData", "Pods", "Carthage", "node_modules"]

    /// What a zip made on a Mac leaves beside the files: a folder of AppleDouble copies.
    public static let archiveMetadataFolder = "__MACOSX"

    /// Why a folder named `name`, met by a walk, is not entered; nil when it is walked.
    public static func folderReason(_ name: String) -> String? {
        if name == archiveMetadataFolder {
            return "macOS archive metadata (\(archiveMetadataFolder), left by a zip made on a Mac): not walked"
        }
        if buildFolders.contains(name) {
            return "a build or dependency folder (\(name)): not walked; name it to check what it holds"
        }
        if name.hasPrefix(".") { return "a hidden folder: not walked" }
        return nil
    }

    /// Why a file named `name`, met by a walk, is junk whatever it holds; nil when its name says nothing.
    public static func fileReason(_ name: String) -> String? {
        if name == ".DS_Store" { return "Finder's folder settings (.DS_Store): not read" }
        if name.hasPrefix("._") { return "an AppleDouble file (macOS metadata, named ._…): not read" }
        return nil
    }

    /// The first four bytes of an AppleDouble file (`._Name`), whatever it is named.
    static let appleDoubleMagic: [UInt8] = [0x00, 0x05, 0x16, 0x07]

    /// Why the first bytes of a file say it is not source text: AppleDouble data, or a NUL byte
    /// (what git calls binary); nil when they could be text.
    public static func contentReason(_ head: [UInt8]) -> String? {
        if head.starts(with: appleDoubleMagic) { return "AppleDouble data (macOS metadata), not source text: not read" }
        if head.contains(0) { return "binary data (a NUL byte), not source text: not read" }
        return nil
    }

    /// How many bytes `contentReason` is asked about.
    public static let sniffedBytes = 8000

    /// `contentReason` of the file at `path`; nil when it cannot be opened (the reader says why).
    public static func contentReason(ofFileAt path: String) -> String? {
        guard case .success(let fd) = FileContents.open(path) else { return nil }
        defer { close(fd) }
        let size = sniffedBytes
        var head = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = head.withUnsafeMutableBytes { buffer in
                FileContents.read(fd, into: buffer.baseAddress! + filled, count: size - filled)
            }
            guard case .success(let count) = n, count > 0 else { break }
            filled += count
        }
        return contentReason(Array(head.prefix(filled)))
    }

    /// A test target's folder (`Tests`, `AppTests`, `AppUITests`): linted only with
    /// `--include-tests`, and its catalogs are test configurations.
    public static func isTestFolder(_ name: String) -> Bool { name.hasSuffix("Tests") }

    /// A path as a walk reports it: `./App/x` and `App//x` are `App/x`, `./` and `` are `.`;
    /// an absolute path stays absolute, and `..` is kept (lexical, no file-system call).
    public static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty { return absolute ? "/" : "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// `entry` inside `folder`, in the walk's path form: `App` inside `.` is `App`, not `./App`.
    public static func joined(_ folder: String, _ entry: String) -> String {
        if folder == "." { return entry }
        return folder.hasSuffix("/") ? folder + entry : folder + "/" + entry
    }

    /// An absolute path (a link's target) as the user can read it where they stand: relative to
    /// the working folder, with `..` where it lies outside; never the machine's absolute path.
    public static func relativeToWorkingFolder(_ absolute: String) -> String {
        guard absolute.hasPrefix("/") else { return absolute }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let realCwd = FilePaths.realPath(cwd) ?? cwd
        let from = realCwd.split(separator: "/"), to = normalized(absolute).split(separator: "/")
        var common = 0
        while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
