import ArgumentParser
import Foundation
import IAPTool

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint Swift and Objective-C sources for hardcoded prices, titles and product IDs, and prices through Float.")

    @Argument(help: "Source files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "The catalog (file or folder) the sources sell: enables the title and product-ID rules. Without it, the catalogs found under the PATHs are used, each for the sources of its app.")
    var catalog: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over the catalog's Info.plist, Xcode project and metadata plist.", transform: ArgumentCheck.bundleID)
    var bundleID: String?

    @Option(help: "Skip files matching this glob, even when named (repeatable).")
    var exclude: [String] = []

    @Flag(name: .customLong("include-tests"), help: "Also lint test files and Tests folders.")
    var includeTests = false

    @Flag(name: .shortAndLong, help: "Also list on stderr the files the walk passed over, with why.")
    var verbose = false

    @Flag(help: "List the lint rules and exit.")
    var rules = false

    @Option(help: "Files linted at once (default: one per processor). The output is the same for any number.")
    var jobs: Int?

    @OptionGroup var config: ConfigArguments
    @OptionGroup var report: ReportArguments
    @OptionGroup var output: ReportOutputArgument

    func validate() throws {
        try ArgumentCheck.jobs(jobs, of: "files")
    }

    func run() {
        if rules { Terminal.end(CommandOutcome(stdout: LintJob.ruleList)) }
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load(verbose: verbose)
            // Sources named on the command line: their own catalogs, not the file's.
            var job = LintJob(configuration: configuration, paths: paths, catalog: catalog, bundleID: bundleID)
            job.excludes = exclude + job.excludes
            job.includeTests = includeTests || job.includeTests
            job.jobs = jobs
            return job.run(plan: try report.plan(over: configuration.basePlan, output: output), verbose: verbose, progress: Terminal.progress)
        }
    }
}
