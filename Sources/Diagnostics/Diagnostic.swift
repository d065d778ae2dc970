import Support
/// How serious a finding is. Ordered: `info < warning < error`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A place in a file: path as given by the user, 1-based line and column (0 when unknown).
public struct SourceLocation: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:col`, `path:line` or `path`, the form editors and Xcode jump to.
    public var description: String {
        if line <= 0 { return path }
        if column <= 0 { return "\(path):\(line)" }
        return "\(path):\(line):\(column)"
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }
}

/// Another place that matters for a finding, with a word on why ("first defined here").
public struct RelatedLocation: Sendable, Hashable, Codable {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }
}

/// A change that would resolve a finding, in words and, where it is a plain replacement, as text.
public struct SuggestedFix: Sendable, Hashable, Codable {
    public var message: String
    public var replacement: String?
    /// The exact text, on the finding's line from `replacingColumn`, that `replacement`
    /// replaces. Only a fix that knows it is an edit a tool can apply has it (SARIF's `fixes`);
    /// without it the fix is advice for a person.
    public var replacing: String?
    /// The column (in characters) where `replacing` starts on the finding's line.
    public var replacingColumn: Int?

    public init(_ message: String, replacement: String? = nil, replacing: String? = nil, at column: Int? = nil) {
        self.message = message
        self.replacement = replacement
        self.replacing = replacing
        replacingColumn = column
    }

    /// Whether a tool can apply the fix: the text it replaces and the text it puts there.
    public var isEdit: Bool {
        replacement != nil && (replacingColumn ?? 0) > 0 && replacing.map { !$0.isEmpty && !$0.contains("\n") && !$0.contains("\r") } == true
    }
}

/// The one type for everything that can be wrong with a user's input, rendered by every reporter.
public struct Diagnostic: Sendable, Hashable, Codable {
    public var ruleID: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var related: [RelatedLocation]
    public var fix: SuggestedFix?
    /// What the finding is about when its message's first quoted text is not it (`Fingerprint`).
    public var subject: String?

    public init(
        ruleID: String,
        severity: Severity,
        message: String,
        location: SourceLocation,
        related: [RelatedLocation] = [],
        fix: SuggestedFix? = nil,
        subject: String? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.related = related
        self.fix = fix
        self.subject = subject
    }
}

extension Diagnostic {
    /// The order reporters print in: by location, then rule, then message, so output is stable.
    public static func stableOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
        return lhs.message < rhs.message
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics in the order every reporter prints them (`Diagnostic.stableOrder`). Sorts
    /// indices by a compact key (path rank, line, column) so a million findings are not moved
    /// around while sorting; rule and message break ties.
    public func sortedForOutput() -> [Diagnostic] {
        let paths = Set(map(\.location.path)).sorted()
        var rank: [String: Int32] = [:]
        for (i, path) in paths.enumerated() { rank[path] = Int32(i) }
        let keys = map { (rank[$0.location.path]!, $0.location.line, $0.location.column) }
        let order = indices.sorted { a, b in
            let (ka, kb) = (keys[a], keys[b])
            if ka.0 != kb.0 { return ka.0 < kb.0 }
            if ka.1 != kb.1 { return ka.1 < kb.1 }
            if ka.2 != kb.2 { return ka.2 < kb.2 }
            if self[a].ruleID != self[b].ruleID { return self[a].ruleID < self[b].ruleID }
            return self[a].message < self[b].message
        }
        return order.map { self[$0] }
    }

    /// The highest severity present, or nil when empty.
    public var maximumSeverity: Severity? { map(\.severity).max() }

    /// Counts per severity.
    public func count(of severity: Severity) -> Int { reduce(0) { $0 + ($1.severity == severity ? 1 : 0) } }

    /// "1 error, 3 warnings, 0 infos".
    public var severityCounts: String {
        "\(plural(count(of: .error), "error")), \(plural(count(of: .warning), "warning")), \(plural(count(of: .info), "info"))"
    }
}
