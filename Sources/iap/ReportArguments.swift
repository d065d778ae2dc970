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

    /// The plan from these options over the configuration's (command-line options win).
    func plan(over base: ReportPlan = ReportPlan()) throws(ToolFailure) -> ReportPlan {
        var plan = base
        if let format { plan.stdoutFormat = FormatName.canonical(format) }
        plan.reports += try reports.map { r throws(ToolFailure) in try ReportTarget(parsing: r) }
        if let baseline { plan.baseline = baseline }
        if let writeBaseline { plan.writeBaseline = writeBaseline }
        if failOnFixedBaseline { plan.failOnFixedBaseline = true }
        if strict { plan.strict = true }
        plan.useColor = Terminal.useColor
        plan.stepSummaryPath = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"]
        return plan
    }
}
