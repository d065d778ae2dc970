import CodeGeneration
import Diagnostics
import Foundation
import Support

/// The tool's name, version and home, as every report names them.
public enum IAPToolInfo {
    public static let version = "0.3.0"
    public static let tool = ToolInfo(name: "iap", version: version, informationURI: "https://github.com/iapcatalog/iap")
}

/// A report to write besides stdout: `--report FORMAT[:PATH]`.
public struct ReportTarget: Sendable, Hashable {
    public var format: String
    public var path: String

    public init(format: String, path: String) {
        self.format = format
        self.path = path
    }

    /// `sarif`, `sarif:out/iap.sarif`. An unknown format is a usage error listing the known ones.
    public init(parsing text: String) throws(ToolFailure) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let reporter = FindingsFormat.reporter(parts[0]) else {
            throw .usage("unknown report format '\(parts[0])'; formats: \(Reporters.identifiers.joined(separator: ", "))")
        }
        let path = parts.count > 1 ? parts[1] : reporter.defaultFileName
        guard !path.isEmpty else { throw .usage("--report \(text): give a path after ':' or none at all") }
        let fitting = FindingsFormat.fitting(path)
        guard fitting.isEmpty || fitting.contains(reporter.identifier) else {
            throw .usage("--report \(text): \(FindingsFormat.mismatch(path, format: reporter.identifier, fitting: fitting)); "
                         + "write \(fitting.map { "\($0):\(path)" }.joined(separator: " or ")), or name the file for \(reporter.identifier)")
        }
        self.init(format: reporter.identifier, path: path)
    }
}

/// How a run reports: what goes to stdout, which reports are written, the baseline, the
/// severities `iap.yml` sets, and when the run fails.
public struct ReportPlan: Sendable {
    public var stdoutFormat: String = TextReporter.identifier
    /// The file the report in `stdoutFormat` is written to instead of stdout (`-o FILE`): written
    /// like every report (atomically, after the run), stdout left empty and the summary line said
    /// on stderr whatever the format. nil: stdout.
    public var output: String?
    public var reports: [ReportTarget] = []
    public var baseline: String?
    public var writeBaseline: String?
    public var failOnFixedBaseline = false
    public var strict = false
    /// Rule ID → severity, or nil for `off` (`iap.yml`'s `rules:`).
    public var severities: [String: Severity?] = [:]
    /// The folder finding paths are made relative to for fingerprints (the folder of `iap.yml`,
    /// or the working folder).
    public var root = "."
    /// Whether the text on stdout may be coloured (the CLI decides: a terminal, `NO_COLOR` unset).
    public var useColor = false
    /// The GitHub job summary file a run with the `github` format appends to (the CLI reads
    /// `GITHUB_STEP_SUMMARY`); nil or empty: none.
    public var stepSummaryPath: String?

    public init() {}
}

/// A run's findings rendered: stdout, the report files and the baseline file to write, notes for
/// stderr, and the exit status from the one table; `ReportPlan.deliver` writes them.
public struct RenderedRun: Sendable {
    public var result: RunResult
    public var stdout: String
    public var files: [OutputContent]
    /// Lines for stderr (baseline counts), without trailing newlines.
    public var notes: [String]
    public var status: ExitStatus
}

extension RenderedRun {
    /// The report in the plan's own format replaced by a command's own text of it (`plist lint`'s
    /// plutil lines), wherever the plan sends that report: stdout, or the `-o` file.
    public mutating func replaceReport(with text: String, plan: ReportPlan) {
        if let output = plan.output, let index = files.firstIndex(where: { $0.path == output }) {
            files[index].content = text
        } else {
            stdout = text
        }
    }
}

extension ReportPlan {
    /// Applies configured severities and the baseline to the findings, renders every report and
    /// decides the exit status.
    public func render(command: String, findings: [Diagnostic], rules: [RuleDescription], files: [String])
        throws(ToolFailure) -> RenderedRun {
        let configured = Self.applySeverities(severities, to: findings)
        var kept = configured
        var outcome: BaselineOutcome?
        var notes: [String] = []
        if let baseline {
            let applied = try Baseline.load(baseline).apply(to: configured, root: root)
            kept = applied.new
            outcome = BaselineOutcome(path: baseline, suppressed: applied.suppressed, fixed: applied.fixed)
            notes.append("iap: baseline \(baseline): \(plural(applied.suppressed, "finding")) held back, \(plural(kept.count, "new finding")), \(applied.fixed) baselined \(applied.fixed == 1 ? "finding" : "findings") fixed")
            if applied.fixed > 0 {
                notes.append(failOnFixedBaseline
                    ? "iap: error: \(applied.fixed) baselined \(applied.fixed == 1 ? "finding is" : "findings are") fixed; rewrite the baseline with --write-baseline \(Escape.shellArgument(baseline, path: true)) so it cannot come back"
                    : "iap: \(applied.fixed) baselined \(applied.fixed == 1 ? "finding is" : "findings are") fixed; shrink the baseline with --write-baseline \(Escape.shellArgument(baseline, path: true))")
            }
        }
        let result = RunResult(command: command, findings: kept, fingerprintRoot: root, rules: rules, files: files,
                               tool: IAPToolInfo.tool, baseline: outcome)
        guard let stdoutReporter = FindingsFormat.reporter(stdoutFormat) else {
            throw .usage("unknown format '\(stdoutFormat)'; formats: \(Reporters.identifiers.joined(separator: ", "))")
        }
        // Colour is for a terminal: never in a file.
        var stdout = stdoutReporter.init().report(result, options: ReportOptions(useColor: useColor && output == nil))
        var written: [OutputContent] = []
        if let output {
            written.append(OutputContent(path: output, content: stdout))
            stdout = ""
        }
        for target in reports {
            guard let reporter = FindingsFormat.reporter(target.format) else {
                throw .usage("unknown report format '\(target.format)'; formats: \(Reporters.identifiers.joined(separator: ", "))")
            }
            written.append(OutputContent(path: target.path, content: reporter.init().report(result, options: ReportOptions())))
        }
        if let writeBaseline {
            // The baseline of everything found, before any baseline held findings back.
            written.append(OutputContent(path: writeBaseline, content: Baseline(findings: configured, root: root).rendered(),
                                         note: "iap: wrote the baseline \(writeBaseline) (\(plural(configured.count, "finding")))"))
        }
        var status = ExitStatus.of(kept, strict: strict)
        if failOnFixedBaseline, let outcome, outcome.fixed > 0 { status = status.combined(with: .findings) }
        return RenderedRun(result: result, stdout: stdout, files: written, notes: notes, status: status)
    }

    /// A rendered run as the command's outcome: its stdout; the report files, the baseline and
    /// the GitHub job summary to write once stdout is out; on stderr the summary line (for text
    /// on stdout) and the notes. `unreadable` are the findings of files that could not be read at
    /// all: each is said again as an error and the run ends with status 2, after reporting what
    /// it could check.
    public func deliver(_ run: RenderedRun, summary: String?, unreadable: [Diagnostic] = []) -> CommandOutcome {
        var outcome = CommandOutcome(stdout: run.stdout)
        outcome.findings = run.result.findings
        outcome.files = run.files
        let usesGitHub = stdoutFormat == GitHubReporter.identifier || reports.contains { $0.format == GitHubReporter.identifier }
        if usesGitHub, let path = stepSummaryPath, !path.isEmpty {
            // Opened like any output: a full disk, a FIFO with no reader or a folder is an error, never a crash or a wait.
            outcome.files.append(OutputContent(path: path, content: GitHubStepSummary.markdown(run.result), append: true,
                                               label: "the job summary (GITHUB_STEP_SUMMARY)"))
        }
        // With the report in a file (-o), the console has room for the summary whatever the format.
        if let summary, stdoutFormat == TextReporter.identifier || output != nil { outcome.closing += summary + "\n" }
        for note in run.notes { outcome.closing += note + "\n" }
        for finding in unreadable { outcome.errors += "iap: error: \(finding.location.path): \(finding.message)\n" }
        outcome.status = unreadable.isEmpty ? run.status : run.status.combined(with: .cannotRun)
        outcome.retained = [run]
        return outcome
    }

    /// Findings at the severities configured for their rules; `off` rules' findings dropped.
    public static func applySeverities(_ severities: [String: Severity?], to findings: [Diagnostic]) -> [Diagnostic] {
        guard !severities.isEmpty else { return findings }
        return findings.compactMap { finding in
            guard let configured = severities[finding.ruleID] else { return finding }
            guard let severity = configured else { return nil }
            var copy = finding
            copy.severity = severity
            return copy
        }
    }
}

/// The formats findings are reported in: `--format`, `--report FORMAT[:PATH]` and `iap.yml`'s
/// `format:` and `reports:` (`Reporters`), by the names of `FormatName`.
public enum FindingsFormat {
    public static var names: [String] { Reporters.identifiers }

    public static func isKnown(_ name: String) -> Bool {
        reporter(name) != nil
    }

    /// The reporter a name (or an alias: `md`) names.
    public static func reporter(_ name: String) -> (any Reporter.Type)? {
        Reporters.named(FormatName.canonical(name))
    }

    /// The extensions that say what a file holds, and so which reports fit in it: `.json` (JSON
    /// reports, SARIF included), `.sarif`, `.xml`, `.md` and `.markdown`. Any other name (`.txt`,
    /// `.log`, none, `-`) takes any report.
    static let typedExtensions = ["json", "sarif", "xml", "md", "markdown"]

    /// The formats a report at `path` may be in, by its extension (those whose own file name has
    /// that extension; SARIF is JSON too); empty when the name does not say (any format fits).
    /// A SARIF upload or a JUnit parser reading a text report fails far from the run that wrote
    /// it: `-o report.sarif` without `--format sarif` is refused instead.
    public static func fitting(_ path: String) -> [String] {
        let ext = (path as NSString).pathExtension.lowercased()
        guard typedExtensions.contains(ext) else { return [] }
        return Reporters.all.filter { reporter in
            let own = (reporter.defaultFileName as NSString).pathExtension.lowercased()
            return own == ext || (ext == "markdown" && own == "md") || (ext == "json" && reporter.identifier == SARIFReporter.identifier)
        }.map { $0.identifier }
    }

    /// What is wrong with a `format` report at `path` when its extension asks for one of `fitting`.
    static func mismatch(_ path: String, format: String, fitting: [String]) -> String {
        "'\(path)' is named for \(fitting.joined(separator: " or ")), but the report is \(format)"
    }

    /// `-o PATH` for a report in `format`: a usage error when the name asks for another format.
    public static func checkOutput(_ path: String, format: String) throws(ToolFailure) {
        let fitting = fitting(path)
        guard fitting.isEmpty || fitting.contains(format) else {
            throw .usage("-o \(path): \(mismatch(path, format: format, fitting: fitting)); "
                         + "add \(fitting.map { "--format \($0)" }.joined(separator: " or ")), or name the file for \(format)")
        }
    }
}

/// The one vocabulary of `--format` names across commands: a name means the same form wherever
/// a command takes it (`markdown` is Markdown in `validate`, `rules` and `report`), and the names
/// an earlier release took are still read. Each command takes the forms that make sense for it.
public enum FormatName {
    /// Every canonical name: the findings reporters' (`Reporters`), and the forms of documents
    /// and tables: `csv`, `html`, `xml` (`plist print`), `reference` (`rules`).
    public static var all: [String] { Reporters.identifiers + ["csv", "html", "xml", "reference"] }

    /// Other spellings, read as the canonical name: `md` (what `iap report` took) is `markdown`.
    public static let aliases = ["md": "markdown"]

    /// The canonical name of a name or alias; any other text as it is (for the caller to refuse).
    public static func canonical(_ name: String) -> String {
        aliases[name] ?? name
    }
}
