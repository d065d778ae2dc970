import Foundation

/// Where `iap.yml` is looked for, and where the file a run uses came from.
///
/// The search goes from the working folder up to the repository root — the nearest folder
/// holding `.git` (a folder, or the file a worktree or submodule has) — and no further: a file
/// above the repository is not the project's, and anyone who can write there (a shared `/tmp`,
/// a home folder, a parent checkout) would otherwise choose what the run checks. Outside any
/// repository only the working folder is searched, for the same reason.
extension Configuration {
    /// How the file in use was chosen.
    public enum Source: Sendable, Equatable {
        /// `--config FILE`.
        case commandLine
        /// `iap.yml` in the working folder.
        case workingFolder
        /// `iap.yml` in a folder above the working folder, at or below the repository root.
        case ancestor
        /// None given or found.
        case none
    }

    /// The result of the search from a folder.
    public struct Search: Sendable, Equatable {
        /// The file found (absolute), or nil.
        public var found: String?
        /// Whether it is in a folder above the one searched from.
        public var isAncestor = false
        /// The repository root (absolute) the search stopped at; nil outside any repository.
        public var repositoryRoot: String?
    }

    /// `iap.yml` in `folder` or a folder above it, up to the repository root.
    public static func search(from folder: String = FileManager.default.currentDirectoryPath) -> Search {
        let start = URL(fileURLWithPath: folder).standardizedFileURL
        let root = repositoryRoot(from: start)
        var url = start
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            // One that is there but cannot be read is an error when parsed, never skipped for the
            // defaults; a link to nothing is "there" too.
            if exists(candidate) { return Search(found: candidate, isAncestor: url.path != start.path, repositoryRoot: root?.path) }
            guard let root, url.path != root.path else { return Search(found: nil, repositoryRoot: root?.path) }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return Search(found: nil, repositoryRoot: root.path) }
            url = parent
        }
    }

    /// The nearest folder at or above `start` that holds `.git`.
    static func repositoryRoot(from start: URL) -> URL? {
        var url = start
        while true {
            if exists(url.appendingPathComponent(".git").path) { return url }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Whether anything, even a link to nothing, is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The line every run prints first, on stderr, when the file came from a folder above the
    /// working folder: a file the user does not see where they stand decides what is checked.
    public var foundAboveNote: String? {
        guard source == .ancestor, let path else { return nil }
        return "iap: using \(path), found above the working folder"
    }

    /// What `--verbose` says first: the file used and how it was chosen; nil when there is none
    /// (the defaults apply, and `check` says so in its own words).
    public var verboseNote: String? {
        guard let path else { return nil }
        switch source {
        case .commandLine: return "iap: using \(path) (--config)"
        case .workingFolder: return "iap: using \(path) in the working folder"
        case .ancestor: return "iap: using \(path), found above the working folder"
        case .none: return nil
        }
    }
}
