import CodeGeneration
import Diagnostics
import Support

/// How every command ends: the findings it reports, the files it writes, what it says on stdout
/// and stderr, and its exit status from the one table (`ExitStatus`). Every job returns one; the
/// CLI says `stderr`, writes `stdout`, has `writingFiles()` write the files, says what that
/// returns on stderr and exits with its status: the one way out of a run.
public struct CommandOutcome: Sendable {
    /// The findings the run reports (after the severities `iap.yml` sets and the baseline).
    public var findings: [Diagnostic] = []
    /// The files the run wrote, or found already up to date: outputs, reports, the baseline.
    public var written: [String] = []
    /// What the run said as it went (files a walk passed over, which catalog it used, findings
    /// as text, a failure), for stderr before its results.
    public var stderr = ""
    /// The results, for stdout.
    public var stdout = ""
    /// Files to write once the results are out (reports, the baseline, the GitHub job summary):
    /// a report can go to stdout or stderr itself (`-`, `/dev/stderr`), after what is there.
    public var files: [OutputContent] = []
    /// What the run says once its results are out (the summary line, notes), for stderr; the
    /// note of each file in `files` follows once the file is written.
    public var closing = ""
    /// Errors said last, for stderr (files that could not be read); the error of each file in
    /// `files` that could not be written follows.
    public var errors = ""
    public var status = ExitStatus.clean
    /// What the run built (catalogs, findings), held until the process exits: freeing a large
    /// catalog object by object costs a tenth of the run at 10,000 products, and exiting costs nothing.
    public var retained: [any Sendable] = []

    public init(stdout: String = "", stderr: String = "", status: ExitStatus = .clean) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }

    /// A run that failed before it said anything: `iap: error: MESSAGE` and the failure's status.
    public init(_ failure: ToolFailure) {
        self.init()
        fail(failure)
        findings = failure.findings
    }

    /// A failure after what the run already said: `iap: error: MESSAGE` on stderr, and the
    /// worse of the statuses.
    public mutating func fail(_ failure: ToolFailure) {
        stderr += "iap: error: \(failure.message)\n"
        status = status.combined(with: failure.status)
    }

    /// Another part of the run after this one: each text after this one's, its findings and
    /// files added, the worse of the statuses.
    public mutating func append(_ other: CommandOutcome) {
        findings += other.findings
        written += other.written
        stderr += other.stderr
        stdout += other.stdout
        files += other.files
        closing += other.closing
        errors += other.errors
        status = status.combined(with: other.status)
        retained += other.retained
    }

    /// The outcome once `files` are written, in order (atomically, or as a stream; see
    /// `OutputFile`): each written file's note added to `closing`, and for each file that could
    /// not be written an error added to `errors` (the others are still written) and status 2.
    public func writingFiles() -> CommandOutcome {
        var ended = self
        ended.files = []
        var failed = false
        for file in files {
            do throws(OutputFile.Failure) {
                if file.append {
                    try OutputFile.append(file.content, to: file.path)
                } else {
                    _ = try OutputFile.write(file.content, to: file.path)
                    ended.written.append(file.path)
                }
                if let note = file.note { ended.closing += note + "\n" }
            } catch {
                ended.errors += "iap: error: " + (file.label.map { "\($0): " } ?? "") + error.description + "\n"
                failed = true
            }
        }
        if failed { ended.status = ended.status.combined(with: .cannotRun) }
        return ended
    }
}

/// A file a run writes once its results are out: a report, the baseline, the GitHub job summary.
public struct OutputContent: Sendable {
    public var path: String
    public var content: String
    /// For stderr once it is written ("iap: wrote the baseline …"); not said when the write fails.
    public var note: String?
    /// Added to the end of the file (the GitHub job summary) rather than replacing it.
    public var append = false
    /// What the file is, when its path does not say it, for the error when it cannot be written.
    public var label: String?

    public init(path: String, content: String, note: String? = nil, append: Bool = false, label: String? = nil) {
        self.path = path
        self.content = content
        self.note = note
        self.append = append
        self.label = label
    }
}
