import Foundation

/// A finding's identity across edits: its rule, its path relative to the project root (the
/// folder of `iap.yml`, or the working folder) and what it is about, never its line. What it is
/// about is the finding's `subject` when the rule names one, else the first quoted text of its
/// message (the product ID, or the offending source text), else the whole message with
/// locations taken out. Baselines match on it; SARIF's `partialFingerprints` and GitLab's
/// `fingerprint` carry its hash.
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

    /// Hex hashes of the fingerprints (FNV-1a, 64 bits): stable across runs and machines.
    public static func hashes(of diagnostics: [Diagnostic], root: String) -> [String] {
        all(diagnostics, root: root).map(\.hash)
    }

    /// 16 hex digits.
    public var hash: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [rule, path, subject] {
            for byte in part.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
            h = (h ^ 0) &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// What a finding is about (see the type's comment).
    public static func subject(of diagnostic: Diagnostic) -> String {
        if let subject = diagnostic.subject { return subject }
        let message = diagnostic.message
        if let open = message.firstIndex(of: "'"),
           let close = message[message.index(after: open)...].firstIndex(of: "'") {
            return String(message[message.index(after: open)..<close])
        }
        return withoutLocations(message)
    }

    /// The message with `:line` and `:line:col` suffixes of paths taken out, so a finding that
    /// names another place keeps its identity when lines move.
    static func withoutLocations(_ message: String) -> String {
        var out = ""
        var chars = Array(message)
        var i = 0
        while i < chars.count {
            if chars[i] == ":", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isNumber, i > 0, !chars[i - 1].isWhitespace {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                i = j
                continue
            }
            out.append(chars[i])
            i += 1
        }
        chars.removeAll()
        return out
    }
}

/// Paths relative to a root folder, cached per path; a path outside the root stays as given.
public struct RelativePaths: Sendable {
    public let root: String
    private var cache: [String: String] = [:]
    private let cwd = FileManager.default.currentDirectoryPath

    public init(root: String) {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        self.root = (absolute as NSString).standardizingPath
    }

    public mutating func relative(_ path: String) -> String {
        if let known = cache[path] { return known }
        let absolute = ((path.hasPrefix("/") ? path : cwd + "/" + path) as NSString).standardizingPath
        let result: String
        if absolute == root { result = "." }
        else if absolute.hasPrefix(root == "/" ? "/" : root + "/") { result = String(absolute.dropFirst(root == "/" ? 1 : root.count + 1)) }
        else { result = path }
        cache[path] = result
        return result
    }
}
