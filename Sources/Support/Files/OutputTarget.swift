import Foundation

/// What stands at an output path, and so how iap writes there (docs/robustness.md, "Writes and
/// configuration"). A regular file, or the regular file a link leads to, is replaced atomically;
/// with nothing there, a new file is made the same way; the standard streams, character devices
/// and FIFOs are written to in place, as streams; anything else is refused, never replaced.
enum OutputTarget {
    /// `-`, `/dev/stdout`, `/dev/stderr` (and `/dev/fd/1`, `/dev/fd/2`): the process's own descriptor.
    case standard(Int32)
    /// A character device, or a FIFO (`fifo`), or a link to one: opened and written in place.
    case stream(fifo: Bool)
    /// A regular file: `real` is the path itself, or the file a link at the path leads to.
    case file(real: String, info: stat)
    /// Nothing at the path: a new file beside it.
    case new

    /// The names that mean the process's own stdout and stderr, whatever those are.
    static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": STDOUT_FILENO
        case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": STDERR_FILENO
        default: nil
        }
    }

    /// Decides from `lstat`, and `stat` through a link, never by opening (opening a FIFO waits).
    static func of(_ path: String) throws(OutputFile.Failure) -> OutputTarget {
        if let fd = standardDescriptor(path) { return .standard(fd) }
        guard !path.isEmpty else { throw .refused(path, "no file named; name the file to write") }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw .cannotWrite(path, OutputFile.reason(code)) }
            if path.hasSuffix("/") { throw .refused(path, "it ends in '/', a folder's name; name a file") }
            return .new
        }
        var link: String?
        if info.st_mode & S_IFMT == S_IFLNK {
            let destination = linkDestination(path)
            link = destination
            guard stat(path, &info) == 0 else {
                let code = errno
                switch code {
                case ENOENT: throw .refused(path, "it is a link to '\(destination)', which does not exist; create that file first, or remove the link")
                case ELOOP: throw .refused(path, "it is a link that loops, or a chain of too many links; remove the link")
                default: throw .cannotWrite(path, OutputFile.reason(code))
                }
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard link != nil else { return .file(real: path, info: info) }
            guard let real = realpath(path, nil) else { throw .cannotWrite(path, OutputFile.reason(errno)) }
            defer { free(real) }
            let target = String(cString: real)
            // A link in a repository is content a pull request can commit: it may not aim a write
            // outside the repository (`iap.sarif -> ~/.bashrc`). Naming the file itself may.
            if let root = FilePaths.repositoryRoot(of: OutputFile.folder(of: path)), !FilePaths.isInside(real: target, root: root) {
                throw .refused(path, "it is a link to '\(link ?? target)', outside the repository at '\(root)'; "
                    + "a committed link does not choose what iap overwrites: remove the link, or name the file itself")
            }
            return .file(real: target, info: info)
        case S_IFCHR: return .stream(fifo: false)
        case S_IFIFO: return .stream(fifo: true)
        case S_IFDIR:
            throw .refused(path, link.map { "it is a link to the folder '\($0)'; name a file inside it" } ?? "it is a folder; name a file inside it")
        case S_IFSOCK: throw .refused(path, "it is \(link.map { "a link to a socket ('\($0)')" } ?? "a socket"), not a file; name a regular file")
        case S_IFBLK: throw .refused(path, "it is \(link.map { "a link to a block device ('\($0)')" } ?? "a block device"); iap writes no disks; name a regular file")
        default: throw .refused(path, "it is not a regular file; name a regular file")
        }
    }

    /// The text of the link at `path`, for messages.
    static func linkDestination(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "?" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Writes to an open descriptor: every byte, retried after a partial write or a signal, waiting
/// (poll) while a non-blocking descriptor is full. The CLI writes stdout and stderr through it too,
/// so a write error is an `errno` to report, never a trap.
public enum Descriptor {
    /// nil once all of `bytes` are written, else the `errno` of the write that failed.
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n >= 0 {
                offset += n
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            default: return code
            }
        }
        return nil
    }

    public static func write(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { write($0, to: fd) }
    }

    public static func write(_ text: String, to fd: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: fd) }
    }
}

extension OutputFile {
    /// Writes `data` to a character device or FIFO in place: no temporary file, no rename. It is
    /// opened without blocking, so a FIFO no process reads from is refused at once instead of
    /// waited on; what is there is checked again on the open descriptor. A reader that stops
    /// reading (EPIPE) has taken what it wanted: not an error, as for stdout.
    static func stream(_ data: Data, to path: String, fifo: Bool) throws(Failure) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENXIO, fifo { throw .refused(path, "it is a FIFO no process reads from; start its reader first, or name a regular file") }
            throw .cannotWrite(path, reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == (fifo ? S_IFIFO : S_IFCHR) else {
            throw .refused(path, "it was replaced while iap opened it; run again")
        }
        // The reader is there: from here the writes may wait for it, as a shell's `>` does.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if let code = Descriptor.write(data, to: fd), code != EPIPE { throw .cannotWrite(path, reason(code)) }
    }

    /// Writes `data` to stdout or stderr, named as a path (`--report sarif:-`).
    static func standard(_ data: Data, to fd: Int32, path: String) throws(Failure) {
        if let code = Descriptor.write(data, to: fd), code != EPIPE { throw .cannotWrite(path, reason(code)) }
    }

    /// `strerror`'s text for `code`.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Appends `content` to the file at `path`, as the GitHub job summary (`GITHUB_STEP_SUMMARY`)
    /// is written: what stands there is treated as `write` treats it (a link to a regular file is
    /// written through, a FIFO or device as a stream, a FIFO without a reader, a folder, a socket
    /// or a dangling link refused); a missing file is created.
    public static func append(_ content: String, to path: String) throws(Failure) {
        let data = Data(content.utf8)
        let target = try OutputTarget.of(path)
        switch target {
        case .standard(let standardFD): return try standard(data, to: standardFD, path: path)
        case .stream(let fifo): return try stream(data, to: path, fifo: fifo)
        case .file, .new: break
        }
        let fd = try openRegular(path, target, flags: O_APPEND, permissions: 0o644)
        defer { close(fd) }
        if let code = Descriptor.write(data, to: fd) { throw .cannotWrite(path, reason(code)) }
    }

    /// A descriptor open for writing on a regular file at `path` (emptied when `truncate`, else
    /// appended to), for a file written a line at a time and read back (`iap asc apply`'s journal).
    /// What stands there is treated as `append` treats it, except that a stream (a FIFO, a device,
    /// stdout) is refused: it cannot be read back. The caller closes the descriptor.
    public static func openRegular(_ path: String, truncate: Bool) throws(Failure) -> Int32 {
        try openRegular(path, try OutputTarget.of(path), flags: truncate ? O_TRUNC : O_APPEND, permissions: 0o600)
    }

    /// A blocking descriptor open for writing (with `flags`) on the regular file `target` says
    /// stands at `path`, or on a new one made with `permissions`; anything else is refused.
    private static func openRegular(_ path: String, _ target: OutputTarget, flags: Int32, permissions: mode_t) throws(Failure) -> Int32 {
        let fd: Int32
        switch target {
        case .standard, .stream:
            throw .refused(path, "it is not a regular file, and this file is read back; name a regular file")
        case .file(let real, _):
            fd = open(real, O_WRONLY | flags | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        case .new:
            let folder = folder(of: path)
            guard isFolder(folder) else { throw .folderMissing(folder) }
            // O_EXCL: never through a link, nor onto anything, put there since the check.
            fd = open(path, O_WRONLY | flags | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, permissions)
        }
        guard fd >= 0 else { throw .cannotWrite(path, reason(errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .refused(path, "it was replaced while iap opened it; run again")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The folder a new file at `path` goes in: "." for a bare name.
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
