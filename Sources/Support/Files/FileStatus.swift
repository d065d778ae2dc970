import Foundation

/// A file's device and inode, to recognise one file or folder met twice (through links).
public struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// Whether `path` itself is a symbolic link.
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// "a FIFO", "a socket", "a device" when `path` leads to one; nil for files and folders.
    public static func specialKind(_ path: String) -> String? {
        FileStatus(path)?.specialKind
    }
}

/// What a path leads to, from one `stat` (links followed) and one `lstat`: its identity, whether
/// it is a folder or a file that must never be opened, and whether the path is itself a link.
public struct FileStatus {
    public var identity: FileIdentity
    public var mode: mode_t
    public var isLink: Bool

    /// nil when nothing is there (deleted, or a link to nothing).
    public init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        mode = info.st_mode & S_IFMT
        isLink = FileIdentity.isLink(path)
    }

    public var isFolder: Bool { mode == S_IFDIR }

    /// "a FIFO", "a socket", "a device"; nil for files and folders.
    public var specialKind: String? { FileContents.specialKind(mode: mode) }
}
