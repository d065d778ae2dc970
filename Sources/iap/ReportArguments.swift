import ArgumentParser
import CodeGeneration
import Diagnostics
import Foundation
import IAPTool

/// The reporting options every command that reports findings takes.
struct ReportArguments: ParsableArguments {
    @Option(help: ArgumentHelp("What goes to stdout: \(Reporters.identifiers.joined(separator: ", ")).", valueName: "format"))
    var format: String?

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Also write a report: FORMAT, or FORMAT:PATH (repeatable). Without a path each format has its file name (sarif: iap.sarif).",
        valueName: "format[:path]"))
    var reports: [String] = []

    @Option(help: "Hold back the findings this baseline file holds; only new ones count.")
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: "Write every finding of this run to a baseline file.")
    var writeBaseline: String?

    @Flag(name: .customLong("fail-on-fixed-baseline"), help: "Exit 1 when findings of the baseline are fixed, so the file shrinks.")
    var failOnFixedBaseline = false

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    func validate() throws {
        if let format, Reporters.named(format) == nil {
            throw ValidationError("unknown format '\(format)'; formats: \(Reporters.identifiers.joined(separator: ", "))")
        }
        for report in reports {
            do { _ = try ReportTarget(parsing: report) } catch { throw ValidationError(error.message) }
        }
    }

    /// The plan from these options over the configuration's (command-line options win).
    func plan(over base: ReportPlan = ReportPlan()) throws -> ReportPlan {
        var plan = base
        if let format { plan.stdoutFormat = format }
        plan.reports += try Terminal.run { () throws(ToolFailure) in try reports.map { r throws(ToolFailure) in try ReportTarget(parsing: r) } }
        if let baseline { plan.baseline = baseline }
        if let writeBaseline { plan.writeBaseline = writeBaseline }
        if failOnFixedBaseline { plan.failOnFixedBaseline = true }
        if strict { plan.strict = true }
        plan.useColor = Terminal.useColor
        return plan
    }
}

extension Terminal {
    /// Writes a run's outcome: stdout, each report file (atomically, or as a stream; see
    /// `OutputFile`), the GitHub step summary, the summary line (for text on stdout) and notes on
    /// stderr; then exits with its status. A file that cannot be written is said on stderr and
    /// the others are still written; the run then exits with status 2. `unreadable` are the
    /// findings of files that could not be read at all: each is said again on stderr and the run
    /// exits with status 2, after reporting what it could check.
    static func finish(_ outcome: RunOutcome, plan: ReportPlan, summary: String?, unreadable: [Diagnostic] = []) throws -> Never {
        out(outcome.stdout)
        var failures: [String] = []
        var notes: [String] = []
        for file in outcome.files {
            do {
                _ = try OutputFile.write(file.content, to: file.path)
                if let note = file.note { notes.append(note) }
            } catch {
                failures.append("iap: error: \(error.description)")
            }
        }
        let usesGitHub = plan.stdoutFormat == GitHubReporter.identifier || plan.reports.contains { $0.format == GitHubReporter.identifier }
        if usesGitHub, let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            // Opened like any output: a full disk, a FIFO with no reader or a folder is an error, never a crash or a wait.
            do {
                try OutputFile.append(GitHubStepSummary.markdown(outcome.result), to: path)
            } catch {
                failures.append("iap: error: the job summary (GITHUB_STEP_SUMMARY): \(error.description)")
            }
        }
        if let summary, plan.stdoutFormat == TextReporter.identifier { err(summary + "\n") }
        for note in outcome.notes + notes { err(note + "\n") }
        for finding in unreadable { err("iap: error: \(finding.location.path): \(finding.message)\n") }
        for failure in failures { err(failure + "\n") }
        let status = unreadable.isEmpty && failures.isEmpty ? outcome.status : outcome.status.combined(with: .cannotRun)
        // Exit here, not by unwinding: a million products' catalog is not freed piece by piece
        // on the way out (output is written unbuffered above, so nothing is lost).
        Foundation.exit(status.rawValue)
    }
}
