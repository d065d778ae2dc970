import ArgumentParser
import Foundation
import IAPTool

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
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
    @OptionGroup var output: ReportOutputArgument

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load(verbose: verbose)
            var job = CheckJob(configuration: configuration, bundleID: bundleID)
            job.jobs = jobs
            return job.run(plan: try report.plan(over: configuration.checkPlan, output: output), verbose: verbose)
        }
    }
}
