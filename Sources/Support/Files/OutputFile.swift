import Foundation

/// Writes generated files the way builds need them: only when the content changed (so the
/// modification time, and the build's up-to-date check, are kept otherwise) and atomically
/// (a temporary file of its own in the same folder, synced and renamed into place, so a run
/// killed at any point leaves the old file or the new one, never part of one).
///
/// Only a regular file is ever replaced, and it keeps its mode (and, where the OS allows, its
/// owner). A link to a regular file is written through: the link stays and the file it leads to
/// is replaced in its own folder. `-`, `/dev/stdout` and `/dev/stderr` are the process's own
/// streams; a character device (`/dev/null`) or a FIFO is written in place as a stream, and a FIFO
/// no process reads from is refused at once, not waited on. A folder, a socket, a block device, a
/// link to nothing or to a folder are refused with what to do (`OutputTarget`).
public enum OutputFile {
    public enum Outcome: Sendable, Equatable {
        case written
        case unchanged
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case folderMissing(String)
        /// The OS's reason (`strerror`).
        case cannotWrite(String, String)
        /// What stands at the path is not written to, and what to do instead.
        case refused(String, String)

        public var description: String {
            switch self {
            case .folderMissing(let folder): "output folder '\(folder)' does not exist; create it first (it is not created silently)"
            case .cannotWrite(let path, let why): "cannot write '\(path)': \(why)"
            case .refused(let path, let why): "cannot write '\(path)': \(why)"
            }
        }
    }

    public static func write(_ content: String, to path: String) throws(Failure) -> Outcome {
        let data = Data(content.utf8)
        let target: String
        var existing: stat?
        switch try OutputTarget.of(path) {
        case .standard(let fd):
            try standard(data, to: fd, path: path)
            return .written
        case .stream(let fifo):
            try stream(data, to: path, fifo: fifo)
            return .written
        case .file(let real, let info):
            if case .success(let old) = FileContents.read(real), old == data { return .unchanged }
            target = real
            existing = info
        case .new:
            target = path
        }
        let temporary = try temporaryFile(beside: target, for: path, holding: data) { fd in
            if let existing {
                // The replaced file's owner where the OS lets us (root), then its mode: chown clears set-ID bits.
                if existing.st_uid != geteuid() || existing.st_gid != getegid() { _ = fchown(fd, existing.st_uid, existing.st_gid) }
                fchmod(fd, existing.st_mode & 0o7777)
            } else {
                fchmod(fd, 0o644)
            }
        }
        // Checked again just before the rename: what was put at the path since is not replaced
        // unless it is a regular file.
        var now = stat()
        if lstat(target, &now) == 0, now.st_mode & S_IFMT != S_IFREG {
            unlink(temporary)
            throw .refused(path, "it was replaced by something that is not a regular file while iap wrote; run again")
        }
        guard rename(temporary, target) == 0 else {
            let why = reason(errno)
            unlink(temporary)
            throw .cannotWrite(path, why)
        }
        return .written
    }
}

extension OutputFile {
    /// A new temporary file in `target`'s folder holding `data`, written and synced, its mode set
    /// by `prepare`; its path. A name of its own for every write (mkstemp), so two runs, or two
    /// threads, writing the same output at once never share one. `path` is the output as given,
    /// for errors.
    static func temporaryFile(beside target: String, for path: String, holding data: Data,
                              prepare: (Int32) -> Void) throws(Failure) -> String {
        let folder = folder(of: target)
        guard isFolder(folder) else { throw .folderMissing(folder) }
        let name = (target as NSString).lastPathComponent
        removeAbandonedTemporaries(of: name, in: folder)
        var template = Array("\(folder)/.\(name).iap-\(getpid()).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path, reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        prepare(fd)
        var failed = Descriptor.write(data, to: fd)
        if failed == nil, fsync(fd) != 0 { failed = errno }
        close(fd)
        if let failed {
            unlink(temporary)
            throw .cannotWrite(path, reason(failed))
        }
        return temporary
    }

    /// Temporary files a killed run of iap left beside `name` (`.NAME.iap-PID.XXXXXX`, whose
    /// process no longer exists) are removed by the next write.
    static func removeAbandonedTemporaries(of name: String, in folder: String) {
        let prefix = ".\(name).iap-"
        guard case .success(let entries) = FolderWalk.names(in: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), let pid = Int32(rest[..<dot]), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(folder)/\(entry)") }
        }
    }
}

