import ArgumentParser
import Foundation
import IAPTool

/// The reporting options every command that reports findings takes.
struct ReportArguments: ParsableArguments {
    @Option(help: ArgumentHelp("What goes to stdout: \(FindingsFormat.names.joined(separator: ", ")).", valueName: "format"))
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
        if let format, !FindingsFormat.isKnown(format) {
            throw ValidationError("unknown format '\(format)'; formats: \(FindingsFormat.names.joined(separator: ", "))")
        }
        for report in reports {
            do { _ = try ReportTarget(parsing: report) } catch { throw ValidationError(error.message) }
        }
    }

    /// The plan from these options over the configuration's (command-line options win); with
    /// `output` (`-o`), the report in the chosen format goes to that file instead of stdout.
    func plan(over base: ReportPlan = ReportPlan(), output: ReportOutputArgument? = nil) throws(ToolFailure) -> ReportPlan {
        var plan = base
        if let format { plan.stdoutFormat = FormatName.canonical(format) }
        plan.reports += try reports.map { r throws(ToolFailure) in try ReportTarget(parsing: r) }
        if let path = output?.path {
            try FindingsFormat.checkOutput(path, format: plan.stdoutFormat)
            if let twice = plan.reports.first(where: { $0.path == path }) {
                throw .usage("-o \(path): --report \(twice.format):\(path) writes the same file; give one of them another path")
            }
            plan.output = path
        }
        if let baseline { plan.baseline = baseline }
        if let writeBaseline { plan.writeBaseline = writeBaseline }
        if failOnFixedBaseline { plan.failOnFixedBaseline = true }
        if strict { plan.strict = true }
        plan.useColor = Terminal.useColor
        plan.stepSummaryPath = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"]
        return plan
    }
}

/// `-o/--output FILE`: the report a command would print, in its `--format` (or, for `check`,
/// `iap.yml`'s `format:`; else text), written to FILE instead, atomically, like `--report FORMAT:FILE`; stdout
/// stays empty and the summary line goes to stderr. The same option as `iap report -o`. Apart from
/// `ReportArguments` because `gen` has an `-o` of its own (the generated file).
struct ReportOutputArgument: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "Write the report (in --format) to FILE instead of stdout, atomically; the summary line stays on stderr.",
        valueName: "file"))
    var path: String?

    func validate() throws {
        if let path, path.isEmpty { throw ValidationError("-o needs a file name") }
    }
}
