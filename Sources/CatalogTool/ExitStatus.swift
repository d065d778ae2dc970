import Diagnostics

/// The exit status of every command, from one table (README, "Exit status").
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Nothing at error severity (nor at warning severity with `--strict`).
    case clean = 0
    /// Findings at error severity, or warnings with `--strict`; a stale generated file; a fixed
    /// baselined finding with `--fail-on-fixed-baseline`.
    case findings = 1
    /// The run could not do its job: a missing path, unreadable input, an invalid configuration.
    case cannotRun = 2
    /// The command line itself is wrong.
    case usage = 64
    /// The job stopped part-way for a reason that passes (App Store Connect's hourly request
    /// limit, a server failing) and saved where it stopped: run it again to finish (`sysexits.h`'s
    /// EX_TEMPFAIL).
    case partial = 75

    /// What the status means, as the README's table says it.
    public var meaning: String {
        switch self {
        case .clean: "clean: no finding at error severity (nor at warning severity with `--strict`)"
        case .findings: "findings at error severity — a malformed or unrecognised catalog file is one — or warnings too with `--strict`; a stale generated file (`gen --check`); fixed baselined findings with `--fail-on-fixed-baseline`; `plist lint`: a file is not a valid plist"
        case .cannotRun: "the run could not do its job: a path that does not exist, an unreadable file (named or found by a walk, with the OS's reason), no catalog under the paths, no source file to lint (or one `lint` could not read, reported after the others are linted), no price to show, an invalid `iap.yml` or baseline, a report that cannot be written"
        case .usage: "usage: an unknown option, command or format, a bad option value"
        case .partial: "partial: `iap asc pull` stopped at App Store Connect's hourly request limit (or while it kept failing) and wrote a partial snapshot; `iap asc pull --resume` finishes it"
        }
    }

    /// The status of a run that produced these findings.
    public static func of(_ findings: [Diagnostic], strict: Bool) -> ExitStatus {
        switch findings.maximumSeverity {
        case .error?: .findings
        case .warning? where strict: .findings
        default: .clean
        }
    }

    /// The worse of two statuses: the higher code (`partial` over `usage` over `cannotRun` over `findings` over `clean`).
    public func combined(with other: ExitStatus) -> ExitStatus {
        other.rawValue > rawValue ? other : self
    }
}

/// A run that could not do its job, with the message the CLI prints (`iap: error: MESSAGE`) and
/// the status it exits with.
public struct ToolFailure: Error, Sendable, Equatable {
    public var message: String
    public var status: ExitStatus
    /// The findings that stopped the run, when findings did (a catalog's unreadable files).
    public var findings: [Diagnostic]

    public init(_ message: String, status: ExitStatus = .cannotRun, findings: [Diagnostic] = []) {
        self.message = message
        self.status = status
        self.findings = findings
    }

    public static func cannotRun(_ message: String) -> ToolFailure { ToolFailure(message, status: .cannotRun) }
    public static func usage(_ message: String) -> ToolFailure { ToolFailure(message, status: .usage) }
}
