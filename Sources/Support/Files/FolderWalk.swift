import Foundation

/// The one walk of folders every command makes (catalog discovery, the lint walk, report folders):
/// entries in name order, junk named by `WalkPolicy` before anything is opened, one `stat` and one
/// `lstat` per entry, links that lead outside the walked folders never followed, and a folder met
/// twice (a link loop, two links to one folder) never walked twice. What to read, and what to say
/// about what is passed over, is the caller's: the walk says what each entry is, and the caller
/// says whether a folder is entered.
public struct FolderWalk {
    /// One entry of a walked folder, as the walk met it.
    public enum Entry {
        /// Passed over for its name alone, never opened: a file `WalkPolicy.fileReason` names, or
        /// a folder `WalkPolicy.folderReason` names (`isFolder`). A file with a folder's junk name
        /// (hidden: `.gitignore`) is passed over without a word.
        case junk(path: String, reason: String, isFolder: Bool)
        /// Nothing is there: deleted while the walk runs, or a link to nothing (`isLink`).
        case missing(path: String, name: String, isLink: Bool)
        /// A FIFO, socket or device ("a FIFO"): never opened, since reading one waits forever.
        case special(path: String, name: String, kind: String)
        /// A link whose target (`real`) is outside every folder walked: not followed.
        case linkOut(path: String, name: String, real: String, status: FileStatus)
        /// A folder; the caller's answer says whether it is entered.
        case folder(path: String, name: String, status: FileStatus)
        /// A folder already walked, met again through a link: not entered.
        case folderAgain(path: String, name: String, real: String)
        /// A folder met by the walk that cannot be listed, with the OS's reason.
        case unlisted(path: String, reason: String)
        /// A regular file (or a link to one inside the walked folders).
        case file(path: String, name: String, status: FileStatus)
    }

    /// A folder named to the walk that cannot be listed.
    public struct Unlisted: Error, Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// The folders walked so far, as given and with their links resolved.
    public private(set) var roots: [String] = []
    public private(set) var realRoots: [String] = []
    private var visitedFolders = Set<FileIdentity>()

    public init() {}

    /// The names in `folder`, sorted by their bytes; or why it cannot be listed, in the OS's words.
    public static func names(in folder: String) -> Result<[String], FileContents.Failure> {
        do {
            return .success(try FileManager.default.contentsOfDirectory(atPath: folder).sorted())
        } catch {
            return .failure(FileContents.Failure(reason: FilePaths.listingReason(folder, error)))
        }
    }

    /// Whether a real path is inside one of the folders walked so far.
    private func isInsideRoots(_ real: String) -> Bool {
        realRoots.contains { FilePaths.isInside(real: real, root: $0) }
    }

    /// What the caller is asked of each entry: the folder it is in, and what it is. The answer
    /// says whether a `.folder` is entered; for other entries it is not asked.
    public typealias Visitor = (_ folder: String, _ entry: Entry) -> Bool

    /// Walks the folder `root` (in the walk's path form, `WalkPolicy.normalized`), calling `visit`
    /// for every entry below it, depth first in name order.
    public mutating func walk(_ root: String, _ visit: Visitor) throws(Unlisted) {
        roots.append(root)
        realRoots.append(FilePaths.realPath(root) ?? root)
        if let status = FileStatus(root) { visitedFolders.insert(status.identity) }
        switch Self.names(in: root) {
        case .success(let names): walk(root, names, visit)
        case .failure(let failure): throw Unlisted(path: root, reason: failure.reason)
        }
    }

    private mutating func walk(_ folder: String, _ names: [String], _ visit: Visitor) {
        for name in names {
            let path = WalkPolicy.joined(folder, name)
            if let why = WalkPolicy.fileReason(name) {
                _ = visit(folder, .junk(path: path, reason: why, isFolder: false))
                continue
            }
            if let why = WalkPolicy.folderReason(name) {
                // A file named like one (`.gitignore`, a file called `build`) is passed over unsaid.
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    _ = visit(folder, .junk(path: path, reason: why, isFolder: true))
                }
                continue
            }
            guard let status = FileStatus(path) else {
                _ = visit(folder, .missing(path: path, name: name, isLink: FileIdentity.isLink(path)))
                continue
            }
            if let kind = status.specialKind {
                _ = visit(folder, .special(path: path, name: name, kind: kind))
                continue
            }
            if status.isLink {
                let real = FilePaths.realPath(path) ?? path
                if !isInsideRoots(real) {
                    _ = visit(folder, .linkOut(path: path, name: name, real: real, status: status))
                    continue
                }
            }
            guard status.isFolder else {
                _ = visit(folder, .file(path: path, name: name, status: status))
                continue
            }
            // Met once, whether entered or not: a second link to it is not offered again.
            guard visitedFolders.insert(status.identity).inserted else {
                _ = visit(folder, .folderAgain(path: path, name: name, real: FilePaths.realPath(path) ?? path))
                continue
            }
            guard visit(folder, .folder(path: path, name: name, status: status)) else { continue }
            switch Self.names(in: path) {
            case .success(let inner): walk(path, inner, visit)
            case .failure(let failure): _ = visit(folder, .unlisted(path: path, reason: failure.reason))
            }
        }
    }
}
