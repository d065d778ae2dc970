import ArgumentParser
import Diagnostics
import IAPCatalog
import IAPTool

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run what iap.yml configures: validate, gen --check for each generated file, and lint; one report, one exit status.",
        discussion: "With no iap.yml (found from the working folder up to the repository root, or --config), validates ./catalogs, or the catalogs found under the working folder when there is no ./catalogs.")

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over iap.yml, Info.plist and the Xcode project.", transform: ArgumentCheck.bundleID)
    var bundleID: String?

    @Flag(name: .shortAndLong, help: "Also list on stderr the files the catalog walk passed over, with why.")
    var verbose = false

    @Option(help: "Rules, and source files, checked at once (default: one per processor). The output is the same for any number.")
    var jobs: Int?

    func validate() throws {
        try ArgumentCheck.jobs(jobs, of: "rules or files")
    }

    @OptionGroup var config: ConfigArguments
    @OptionGroup var report: ReportArguments

    func run() throws {
        let configuration = try config.load(verbose: verbose)
        let (found, counts) = try Terminal.run { () throws(ToolFailure) in
            var job = CheckJob(configuration: configuration, bundleID: bundleID)
            job.jobs = jobs
            return try job.run()
        }
        if verbose {
            for file in found.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
        }
        for note in found.notes { Terminal.err(note + "\n") }
        let plan = try report.plan(over: configuration.checkPlan)
        let outcome = try Terminal.run { () throws(ToolFailure) in
            try plan.finish(command: "check", findings: found.findings, rules: found.rules, files: found.files)
        }
        try Terminal.finish(outcome, plan: plan, summary: "\(counts.summary): \(outcome.result.severityCounts)",
                            unreadable: found.unreadable)
    }
}
