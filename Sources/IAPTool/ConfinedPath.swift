import Foundation
import IAPCatalog
import Support

/// The paths `iap.yml` names for iap to write — `reports`, `generate[].output` — and its
/// `baseline` stay inside the folder holding the file: a pull request can change `iap.yml`, and
/// must not be able to aim a CI job's writes at the rest of the machine. A path leaves the folder
/// when it is absolute, when `..` climbs out of it, or when a link on the way (a folder, or the
/// file itself) leads out; a path into `.git` is refused too (hooks live there). The command line
/// is not limited: `--report`, `--baseline` and `-o` may name any path.
struct ConfinedPath {
    /// The folder holding `iap.yml` (or the repository), with every link resolved.
    let root: String
    /// What the root is, for messages: "the folder of iap.yml", "the repository".
    let name: String
    /// Where relative paths start: the folder of iap.yml.
    let start: String

    /// The folder of the configuration file at `configPath`, resolved; nil when it cannot be.
    init?(configPath: String) {
        let folder = (configPath as NSString).deletingLastPathComponent
        guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
        defer { free(real) }
        root = String(cString: real)
        start = root
        name = "the folder of iap.yml"
    }

    /// The repository holding the configuration file at `configPath` (the nearest folder at or
    /// above it with `.git`): what `iap.yml` may name to read. Nil outside a repository, where no
    /// pull request writes the file.
    init?(repositoryOf configPath: String) {
        guard let folder = ConfinedPath(configPath: configPath)?.root, let repository = FilePaths.repositoryRoot(of: folder) else { return nil }
        root = repository
        start = folder
        name = "the repository"
    }

    /// Why `path`, relative to the folder, leads out of it; nil when it stays inside.
    ///
    /// The path is followed the way the kernel follows it, a component at a time from the real
    /// folder: `..` goes to the parent of where the walk stands (so `link/..` is the parent of the
    /// link's target, not the folder), and a link is resolved where it is met.
    func escape(_ path: String) -> String? {
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
