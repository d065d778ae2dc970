import Foundation
import PropertyList

/// Writes generated files the way builds need them: only when the content changed (so the
/// modification time, and the build's up-to-date check, are kept otherwise) and atomically
/// (a temporary file of its own in the same folder, synced and renamed into place, so a run
/// killed at any point leaves the old file or the new one, never part of one).
public enum OutputFile {
    public enum Outcome: Sendable, Equatable {
        case written
        case unchanged
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case folderMissing(String)
        case cannotWrite(String, String)

        public var description: String {
            switch self {
            case .folderMissing(let folder): "output folder '\(folder)' does not exist; create it first (it is not created silently)"
            case .cannotWrite(let path, let why): "cannot write '\(path)': \(why)"
            }
        }
    }

    public static func write(_ content: String, to path: String) throws(Failure) -> Outcome {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .folderMissing(folder)
        }
        let data = Data(content.utf8)
        if case .success(let existing) = FileContents.read(path), existing == data { return .unchanged }
        let name = (path as NSString).lastPathComponent
        removeAbandonedTemporaries(of: name, in: folder)
        // A name of its own for every write (mkstemp), so two runs, or two threads, writing the
        // same output at once never share a temporary file; the last rename wins, whole.
        var template = Array("\(folder)/.\(name).iap-\(getpid()).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        let temporary = String(cString: template)
        var existing = stat()
        fchmod(fd, stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return fsync(fd) == 0
        }
        let why = String(cString: strerror(errno))
        close(fd)
        guard written else {
            unlink(temporary)
            throw .cannotWrite(path, why)
        }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path, why)
        }
        return .written
    }
}

extension OutputFile {
    /// Temporary files a killed run of iap left beside `name` (`.NAME.iap-PID.XXXXXX`, whose
    /// process no longer exists) are removed by the next write.
    static func removeAbandonedTemporaries(of name: String, in folder: String) {
        let prefix = ".\(name).iap-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), let pid = Int32(rest[..<dot]), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(folder)/\(entry)") }
        }
    }
}

/// A unified diff (`--- a`, `+++ b`, `@@` hunks with 3 lines of context) for `iap gen --check`.
public enum UnifiedDiff {
    public static func make(old: String, new: String, oldName: String, newName: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table (files are a few thousand lines at most).
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(String), remove(String), add(String) }
        var ops: [Op] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { ops.append(.same(a[i])); i += 1; j += 1 }
            else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] { ops.append(.remove(a[i])); i += 1 }
            else { ops.append(.add(b[j])); j += 1 }
        }
        let changed = ops.indices.filter { if case .same = ops[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var k = 0
        while k < changed.count {
            var start = max(changed[k] - 3, 0)
            var end = min(changed[k] + 3, ops.count - 1)
            while k + 1 < changed.count && changed[k + 1] - 3 <= end + 1 {
                k += 1
                end = min(changed[k] + 3, ops.count - 1)
            }
            start = max(start, 0)
            var oldStart = 1, newStart = 1
            for op in ops[0..<start] {
                switch op { case .same: oldStart += 1; newStart += 1; case .remove: oldStart += 1; case .add: newStart += 1 }
            }
            var oldCount = 0, newCount = 0
            var body = ""
            for op in ops[start...end] {
                switch op {
                case .same(let line): body += " \(line)\n"; oldCount += 1; newCount += 1
                case .remove(let line): body += "-\(line)\n"; oldCount += 1
                case .add(let line): body += "+\(line)\n"; newCount += 1
                }
            }
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n" + body
            k += 1
        }
        return out
    }
}
