import Foundation

/// A finding's identity across edits: its rule, its path relative to the project root (the
/// folder of `iap.yml`, or the working folder) and what it is about, never its line. What it is
/// about is the finding's `subject` when the rule names one, else the first quoted text of its
/// message (the product ID, or the offending source text), else the whole message with
/// locations taken out and numbers written `#`. Baselines match on it; SARIF's
/// `partialFingerprints` and GitLab's `fingerprint` carry its hash.
public struct Fingerprint: Sendable, Hashable, Comparable {
    public var rule: String
    public var path: String
    public var subject: String

    public init(rule: String, path: String, subject: String) {
        self.rule = rule
        self.path = path
        self.subject = subject
    }

    public static func < (lhs: Fingerprint, rhs: Fingerprint) -> Bool {
        (lhs.path, lhs.rule, lhs.subject) < (rhs.path, rhs.rule, rhs.subject)
    }

    /// The fingerprint of a finding, with paths made relative to `root`.
    public static func of(_ diagnostic: Diagnostic, root: String) -> Fingerprint {
        var paths = RelativePaths(root: root)
        return of(diagnostic, paths: &paths)
    }

    static func of(_ diagnostic: Diagnostic, paths: inout RelativePaths) -> Fingerprint {
        Fingerprint(rule: diagnostic.ruleID, path: paths.relative(diagnostic.location.path),
                    subject: subject(of: diagnostic))
    }

    /// The fingerprints of many findings; paths are resolved once each.
    public static func all(_ diagnostics: [Diagnostic], root: String) -> [Fingerprint] {
        var paths = RelativePaths(root: root)
        return diagnostics.map { of($0, paths: &paths) }
    }

    /// Hex hashes of the fingerprints (FNV-1a, 64 bits): stable across runs and machines. The
    /// same value as `Fingerprint.of(d, root:).hash`, without making the subject strings.
    public static func hashes(of diagnostics: [Diagnostic], root: String) -> [String] {
        var paths = RelativePaths(root: root)
        return diagnostics.map { diagnostic in
            var h = FNV.start
            h = FNV.add(diagnostic.ruleID.utf8, to: h)
            h = FNV.add(paths.relative(diagnostic.location.path).utf8, to: h)
            h = FNV.add(subjectText(of: diagnostic).utf8, to: h)
            return FNV.hex(h)
        }
    }

    /// 16 hex digits.
    public var hash: String {
        var h = FNV.start
        for part in [rule, path, subject] { h = FNV.add(part.utf8, to: h) }
        return FNV.hex(h)
    }

    /// What a finding is about (see the type's comment).
    public static func subject(of diagnostic: Diagnostic) -> String {
        String(subjectText(of: diagnostic))
    }

    /// The subject as a slice of the finding's own text where it is one (no copy for `hashes`).
    static func subjectText(of diagnostic: Diagnostic) -> Substring {
        if let subject = diagnostic.subject { return Substring(subject) }
        let message = diagnostic.message
        let utf8 = message.utf8
        if let open = utf8.firstIndex(of: 0x27), let close = utf8[utf8.index(after: open)...].firstIndex(of: 0x27) {
            return message[utf8.index(after: open)..<close]
        }
        return Substring(withoutLocations(message))
    }

    /// The message with `:line` and `:line:col` suffixes of paths taken out and every other run
    /// of digits written `#`, so a finding that names another place, or a count ("holds 10001
    /// products"), keeps its identity when lines move or the count changes.
    static func withoutLocations(_ message: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(message.utf8)
        out.reserveCapacity(bytes.count)
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var i = 0
        while i < bytes.count {
            if isDigit(bytes[i]) {
                let locationSuffix = i > 1 && bytes[i - 1] == 0x3A && bytes[i - 2] != 0x20
                var j = i
                while j < bytes.count, isDigit(bytes[j]) { j += 1 }
                if locationSuffix { out.removeLast() } else { out.append(0x23) }
                i = j
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Paths relative to a root folder, cached per path; a path outside the root stays as given.
public struct RelativePaths: Sendable {
    public let root: String
    private var cache: [String: String] = [:]
    private let cwd: String

    public init(root: String) {
        let cwd = FileManager.default.currentDirectoryPath
        self.cwd = cwd
        self.root = Self.normalized(root.hasPrefix("/") ? root : cwd + "/" + root)
    }

    /// `/a/./b/../c` → `/a/c`, lexically (no file-system calls, so fast for many paths).
    static func normalized(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    public mutating func relative(_ path: String) -> String {
        if let known = cache[path] { return known }
        let absolute = Self.normalized(path.hasPrefix("/") ? path : cwd + "/" + path)
        let result: String
        if absolute == root { result = "." }
        else if absolute.hasPrefix(root == "/" ? "/" : root + "/") { result = String(absolute.dropFirst(root == "/" ? 1 : root.count + 1)) }
        else { result = path }
        cache[path] = result
        return result
    }
}

/// FNV-1a over the parts of a fingerprint, each part followed by a 0 byte.
enum FNV {
    static let start: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3

    static func add<C: Collection>(_ bytes: C, to hash: UInt64) -> UInt64 where C.Element == UInt8 {
        var h = hash
        for byte in bytes { h = (h ^ UInt64(byte)) &* prime }
        return (h ^ 0) &* prime
    }

    static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0x30, count: 16)
        var v = value
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = digits[Int(v & 0xF)]
            v >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
