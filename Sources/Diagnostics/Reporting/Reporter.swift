import Foundation

/// The name and version of the tool that made a run, as reports name it.
public struct ToolInfo: Sendable, Hashable {
    public var name: String
    public var version: String
    public var informationURI: String

    public init(name: String, version: String, informationURI: String) {
        self.name = name
        self.version = version
        self.informationURI = informationURI
    }
}

/// What a baseline did to a run: how many findings it held back, and how many of the findings it
/// holds no longer occur (fixed).
public struct BaselineOutcome: Sendable, Hashable {
    public var path: String
    public var suppressed: Int
    public var fixed: Int

    public init(path: String, suppressed: Int, fixed: Int) {
        self.path = path
        self.suppressed = suppressed
        self.fixed = fixed
    }
}

/// Everything a reporter is given: the run's findings (in output order) with their
/// fingerprints, the descriptions of the rules that ran, the files checked and the tool.
public struct RunResult: Sendable {
    /// The command that ran: `validate`, `lint`, `check`, …
    public var command: String
    /// The findings, sorted for output.
    public let findings: [Diagnostic]
    /// `fingerprints[i]` identifies `findings[i]` across edits (`Fingerprint`); computed the
    /// first time a reporter asks, so a text-only run does not pay for them.
    public var fingerprints: [String] { fingerprintCache.hashes(findings, root: fingerprintRoot) }
    /// The folder fingerprint paths are relative to.
    public let fingerprintRoot: String
    private let fingerprintCache = FingerprintCache()
    /// The rules that ran, in the order `iap rules` lists them.
    public var rules: [RuleDescription]
    /// The files checked, as the user named them.
    public var files: [String]
    public var tool: ToolInfo
    public var baseline: BaselineOutcome?

    public init(command: String, findings: [Diagnostic], fingerprintRoot: String = ".", rules: [RuleDescription],
                files: [String], tool: ToolInfo, baseline: BaselineOutcome? = nil) {
        self.command = command
        let sorted = findings.sortedForOutput()
        self.findings = sorted
        self.fingerprintRoot = fingerprintRoot
        self.rules = rules
        self.files = files
        self.tool = tool
        self.baseline = baseline
    }

    /// The findings with this many of each severity, "16 errors, 19 warnings, 3 infos".
    public var severityCounts: String { findings.severityCounts }

    /// The description of a rule that ran, by ID.
    public func rule(_ id: String) -> RuleDescription? { rules.first { $0.id == id } }
}

/// Options a reporter may read; only the text reporter colours.
public struct ReportOptions: Sendable {
    public var useColor: Bool

    public init(useColor: Bool = false) {
        self.useColor = useColor
    }
}

/// A report format: gets the whole run and returns the report's text. Adding a format is one new
/// file with a type conforming to this, plus its line in `Reporters.all`.
public protocol Reporter: Sendable {
    /// The name `--format` and `--report` take.
    static var identifier: String { get }
    /// What the format is for, for `--help` and the docs (docs/commands.md, docs/ci.md).
    static var summary: String { get }
    /// The file name a `--report NAME` without a path writes.
    static var defaultFileName: String { get }
    init()
    func report(_ result: RunResult, options: ReportOptions) -> String
}

/// The registry of report formats.
public enum Reporters {
    public static let all: [any Reporter.Type] = [
        TextReporter.self, JSONReporter.self, SARIFReporter.self, GitHubReporter.self,
        JUnitReporter.self, CheckstyleReporter.self, MarkdownReporter.self, GitLabReporter.self,
    ]

    public static var identifiers: [String] { all.map { $0.identifier } }

    public static func named(_ identifier: String) -> (any Reporter.Type)? {
        all.first { $0.identifier == identifier }
    }
}

/// The fingerprints of a run, computed once on first use, from any thread.
final class FingerprintCache: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [String]?

    func hashes(_ findings: [Diagnostic], root: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = Fingerprint.hashes(of: findings, root: root)
        value = made
        return made
    }
}
