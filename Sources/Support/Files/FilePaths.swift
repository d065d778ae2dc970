import Foundation

/// Paths as the walks and readers ask about them: with links resolved, inside a folder or not,
/// a link leading out, the repository's root, why a folder cannot be listed.
public enum FilePaths {
    /// The path with every link resolved, or nil when it cannot be.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `real` is `root` or below it, both with every link resolved.
    public static func isInside(real: String, root: String) -> Bool {
        real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The text of the link at `path` when it leads out of `root` (a real path), or to nothing;
    /// nil when `path` is not a link or stays inside. A pull request can commit a link to any
    /// file the job can read: a walk does not follow one that leads out.
    public static func linkLeadingOut(_ path: String, of root: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        guard let real = realPath(path), isInside(real: real, root: root) else { return target }
        return nil
    }

    /// The real path of the nearest folder at or above `folder` that holds `.git` (a folder, or a
    /// worktree's or submodule's file); nil outside any repository.
    public static func repositoryRoot(of folder: String) -> String? {
        guard var current = realPath(folder.isEmpty ? "." : folder) else { return nil }
        while access((current == "/" ? "" : current) + "/.git", F_OK) != 0 {
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        return current
    }

    /// Why `folder` could not be listed, in the OS's words ("Permission denied"): asked of
    /// opendir(3) again, since Foundation's error on Linux may carry only its own sentence.
    public static func listingReason(_ folder: String, _ error: Error) -> String {
        if let handle = opendir(folder) {
            closedir(handle)
        } else {
            return String(cString: strerror(errno))
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return (error as NSError).localizedDescription
    }
}
