import Foundation

/// How iap opens every input file: only a regular file, never a FIFO (opening one waits for a
/// writer forever), a socket, a device or a folder, and with the OS's reason when it cannot. The
/// reason is taken where the call failed, not from an `errno` some later call may have changed.
public enum FileContents {
    public struct Failure: Error, Sendable, Equatable {
        /// `strerror`'s text ("Permission denied"), or what the path is when it is not a regular
        /// file ("a FIFO, not a regular file", "a folder, not a file").
        public var reason: String

        public init(reason: String) { self.reason = reason }

        /// The reason as iap says it after "cannot read: ": "permission denied".
        public var phrase: String { reason.prefix(1).lowercased() + reason.dropFirst() }
    }

    /// "a FIFO", "a socket", "a device" for those file types (`st_mode & S_IFMT`); nil for the others.
    public static func specialKind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: nil
        }
    }

    /// Why a file of this type is not read, or nil for a regular file.
    static func refusal(mode: mode_t) -> Failure? {
        if let kind = specialKind(mode: mode) { return Failure(reason: "\(kind), not a regular file") }
        if mode & S_IFMT == S_IFDIR { return Failure(reason: "a folder, not a file") }
        return nil
    }

    /// A descriptor open for reading on the regular file at `path`; the caller closes it. A special
    /// file is refused from `stat` before it is opened, and checked again on the descriptor (opened
    /// without blocking), so a FIFO put in its place in between is refused too.
    public static func open(_ path: String) -> Result<Int32, Failure> {
        var info = stat()
        if stat(path, &info) == 0, let refused = refusal(mode: info.st_mode) { return .failure(refused) }
        let fd = Foundation.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        guard fstat(fd, &info) == 0 else {
            let failure = Failure(reason: String(cString: strerror(errno)))
            close(fd)
            return .failure(failure)
        }
        if let refused = refusal(mode: info.st_mode) {
            close(fd)
            return .failure(refused)
        }
        // Reads of a regular file never block; the flag only mattered for the open.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// `read(2)` of up to `count` bytes, retried on EINTR: the bytes read (0 at the end), or the reason.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, Failure> {
        while true {
            let n = Foundation.read(fd, buffer, count)
            if n >= 0 { return .success(n) }
            if errno != EINTR { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        }
    }

    /// The whole regular file at `path`; with `limit`, a file larger than that is refused before
    /// a byte is read when its size says so, and as soon as more bytes arrive when it grows.
    public static func read(_ path: String, limit: Int = .max) -> Result<Data, Failure> {
        let fd: Int32
        switch open(path) {
        case .success(let opened): fd = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { close(fd) }
        if let size = size(fd), size > limit { return .failure(tooLarge(limit)) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = buffer.withUnsafeMutableBytes { read(fd, into: $0.baseAddress!, count: $0.count) }
            switch result {
            case .success(0): return .success(data)
            case .success(let n):
                guard data.count + n <= limit else { return .failure(tooLarge(limit)) }
                data.append(contentsOf: buffer[0..<n])
            case .failure(let failure): return .failure(failure)
            }
        }
    }

    /// The first `count` bytes of the regular file at `path` (fewer when it is shorter).
    public static func head(_ path: String, count: Int) -> Result<Data, Failure> {
        let fd: Int32
        switch open(path) {
        case .success(let opened): fd = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while data.count < count {
            let result = buffer.withUnsafeMutableBytes { read(fd, into: $0.baseAddress!, count: count - data.count) }
            switch result {
            case .success(0): return .success(data)
            case .success(let n): data.append(contentsOf: buffer[0..<n])
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(data)
    }

    /// The reason `read(_:limit:)` gives for a file over its limit.
    public static func tooLarge(_ limit: Int) -> Failure { Failure(reason: "larger than \(limit) bytes") }

    /// The size `fstat` gives an open file, or nil when it gives none.
    public static func size(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The whole regular file at `path` as UTF-8 text, or nil with the reason when it cannot be
    /// read; `notText` when its bytes are not UTF-8.
    public static func text(_ path: String) -> Result<String, Failure> {
        switch read(path) {
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else { return .failure(Failure(reason: notText)) }
            return .success(text)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// The reason `text(_:)` gives for bytes that are not UTF-8.
    public static let notText = "not UTF-8 text"

    /// Whether nothing is at `path` (the reason `read` gives then), as opposed to something that
    /// cannot be read.
    public static func isMissing(_ failure: Failure) -> Bool {
        failure.reason == String(cString: strerror(ENOENT))
    }
}
