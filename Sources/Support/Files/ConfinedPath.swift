import Foundation

/// A folder that relative paths read from or written to must stay inside. A path leaves the
/// folder when it is absolute, when `..` climbs out of it, or when a link on the way (a folder,
/// or the file itself) leads out; a path into `.git` is refused too (hooks live there). A pull
/// request can change the files that name such paths, and must not be able to aim iap at the
/// rest of the machine.
public struct ConfinedPath: Sendable {
    /// The folder paths must stay inside, with every link resolved.
    public let root: String
    /// What the root is, for messages: "the folder of iap.yml", "the repository".
    public let name: String
    /// Where relative paths start, with every link resolved: `root` or a folder inside it.
    public let start: String

    /// `root` and `start` are real paths (every link resolved); `name` says what `root` is.
    public init(root: String, name: String, start: String) {
        self.root = root
        self.name = name
        self.start = start
    }

    /// Why `path`, relative to the folder, leads out of it; nil when it stays inside.
    ///
    /// The path is followed the way the kernel follows it, a component at a time from the real
    /// folder: `..` goes to the parent of where the walk stands (so `link/..` is the parent of the
    /// link's target, not the folder), and a link is resolved where it is met.
    public func escape(_ path: String) -> String? {
        if path.hasPrefix("/") { return "is an absolute path" }
        var here = start
        var missing = false
        var walked: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part.lowercased() == ".git" { return "is inside .git" }
            walked.append(part)
            if part == ".." {
                here = (here as NSString).deletingLastPathComponent
                guard inside(here) else { return "leads out of \(name) ('..')" }
                continue
            }
            here += here.hasSuffix("/") ? String(part) : "/\(part)"
            // Below a name that does not exist there are no links to follow.
            if missing { continue }
            var info = stat()
            guard lstat(here, &info) == 0 else {
                missing = true
                continue
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { continue }
            let link = walked.joined(separator: "/")
            guard let real = realpath(here, nil) else { return "goes through the link '\(link)', which leads to nothing" }
            here = String(cString: real)
            free(real)
            guard inside(here) else { return "leads out of \(name) through the link '\(link)'" }
        }
        return nil
    }

    private func inside(_ path: String) -> Bool {
        FilePaths.isInside(real: path, root: root)
    }
}
