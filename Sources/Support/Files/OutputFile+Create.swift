import Foundation

/// Files iap downloads into a folder (App Store Connect's reports): each a new regular file, made
/// whole (a temporary file of its own, synced, then linked into place) where nothing stood. What
/// already stands at a name is never written through nor replaced: a regular file is kept as it
/// is, and anything else — a link, dangling or not, a FIFO, a device, a folder — is refused with
/// what to do. The folder itself must be a real folder, not a link, and the path to it may not
/// pass through a link that leads out of the repository it sits in (`OutputFolder`).
extension OutputFile {
    /// What stands at a name a download would take.
    public enum Standing: Sendable, Equatable {
        /// Nothing: the download may be made there.
        case nothing
        /// A regular file (not a link to one): already downloaded, kept.
        case regularFile
        /// Something iap neither writes through nor replaces, and what to do.
        case refused(Failure)
    }

    /// What stands at `path`, from `lstat` (a link is not followed, a FIFO never opened).
    public static func standing(_ path: String) -> Standing {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT ? .nothing : .refused(.cannotWrite(path, reason(code)))
        }
        let remove = "remove it first: \(removal(path))"
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .regularFile
        case S_IFLNK:
            let destination = OutputTarget.linkDestination(path)
            let dangling = stat(path, &info) != 0
            return .refused(.refused(path, "it is a link to '\(destination)'\(dangling ? ", which does not exist" : ""); iap writes a download "
                                     + "as a new file, never through a link or in its place: \(remove)"))
        case S_IFDIR:
            return .refused(.refused(path, "it is a folder; move it away, or name another folder to download into"))
        default:
            let kind = FileContents.specialKind(mode: info.st_mode) ?? "not a regular file"
            return .refused(.refused(path, "it is \(kind), not a downloaded file; \(remove)"))
        }
    }

    /// Writes `data` as a new regular file at `path`, whole or not at all, where nothing stands:
    /// anything put at the name meanwhile (a link included) is refused, never replaced.
    public static func create(_ data: Data, at path: String) throws(Failure) {
        let temporary = try temporaryFile(beside: path, for: path, holding: data) { fchmod($0, 0o644) }
        defer { unlink(temporary) }
        // link(2) makes the name only where nothing stands, a dangling link included: no window
        // between a check and the write.
        if Foundation.link(temporary, path) == 0 { return }
        let code = errno
        switch code {
        case EEXIST:
            throw .refused(path, "something was put there while iap downloaded it; see what it is, then run again")
        case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK, ENOSYS:
            // A file system without hard links (some network and FUSE ones): checked, then renamed.
            var info = stat()
            guard lstat(path, &info) != 0, errno == ENOENT else {
                throw .refused(path, "something was put there while iap downloaded it; see what it is, then run again")
            }
            guard rename(temporary, path) == 0 else { throw .cannotWrite(path, reason(errno)) }
        default:
            throw .cannotWrite(path, reason(code))
        }
    }

    /// `rm PATH`, the path quoted for a shell so the hint runs as printed.
    static func removal(_ path: String) -> String {
        "rm " + (path.hasPrefix("-") ? "-- " : "") + Escape.shellArgument(path)
    }
}

/// A folder iap downloads files into: made when missing; refused when it is a link itself (a
/// committed link would choose where a CI job writes), when the path to it passes through a link
/// that leads out of the repository that link sits in, or leads to nothing, or when it is not a
/// folder. Links outside any repository (`/tmp` on macOS) are followed as usual.
public enum OutputFolder {
    public static func prepare(_ folder: String) throws(OutputFile.Failure) {
        guard !folder.isEmpty else { throw .refused(folder, "no folder named; name the folder to download into") }
        var here = folder.hasPrefix("/") ? "/" : FileManager.default.currentDirectoryPath
        let parts = folder.split(separator: "/", omittingEmptySubsequences: true)
        var walked: [Substring] = []
        var missing = false
        for (index, part) in parts.enumerated() {
            walked.append(part)
            let shown = (folder.hasPrefix("/") ? "/" : "") + walked.joined(separator: "/")
            let last = index == parts.count - 1
            if part == "." { continue }
            if part == ".." {
                here = (here as NSString).deletingLastPathComponent
                continue
            }
            let next = here == "/" ? "/\(part)" : "\(here)/\(part)"
            var info = stat()
            if missing || lstat(next, &info) != 0 {
                guard missing || errno == ENOENT else { throw .cannotWrite(shown, OutputFile.reason(errno)) }
                missing = true
                guard mkdir(next, 0o755) == 0 || (errno == EEXIST && isRealFolder(next)) else {
                    throw .cannotWrite(shown, "cannot create the folder: \(OutputFile.reason(errno))")
                }
                here = next
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                here = next
            case S_IFLNK:
                let destination = OutputTarget.linkDestination(next)
                if last {
                    throw .refused(shown, "it is a link to '\(destination)'; iap downloads into a real folder, never through a link (a "
                                   + "committed link would choose where it writes): name the folder the link leads to, or make a folder "
                                   + "in its place: \(OutputFile.removal(shown)) && mkdir \(Escape.shellArgument(shown, path: true))")
                }
                guard let real = FilePaths.realPath(next) else {
                    throw .refused(shown, "it is a link to '\(destination)', which leads to nothing; make that folder, or remove the link")
                }
                if let root = FilePaths.repositoryRoot(of: here), !FilePaths.isInside(real: real, root: root) {
                    throw .refused(shown, "it is a link to '\(destination)', outside the repository at '\(root)'; a committed link does "
                                   + "not choose where iap writes: name the folder it leads to")
                }
                guard isRealFolder(real) else { throw .refused(shown, "it is a link to '\(destination)', which is not a folder") }
                here = real
            default:
                throw .refused(shown, "it is not a folder; name the folder to download into")
            }
        }
    }

    /// Whether `path` is a folder itself, not a link to one.
    static func isRealFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
