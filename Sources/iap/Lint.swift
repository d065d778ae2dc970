import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool
import SourceLint

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    func validate() throws {
        try ArgumentCheck.jobs(jobs, of: "files")
    }

    func run() throws {
        if rules {
            Terminal.out(RuleListing.text(LintRules.all))
            return
        }
        let configuration = try config.load(verbose: verbose)
        // Sources named on the command line: their own catalogs, not the file's.
        var job = LintJob(configuration: configuration, paths: paths, catalog: catalog, bundleID: bundleID)
        job.excludes = exclude + job.excludes
        job.includeTests = includeTests || job.includeTests
        job.jobs = jobs
        let prepared = try Terminal.run { () throws(ToolFailure) in try job.prepare() }
        let (linter, files) = (prepared.linter, prepared.files)
        if verbose {
            for file in prepared.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
        }
        for note in prepared.notes { Terminal.err(note + "\n") }
        if files.isEmpty {
            // "0 files checked" and exit 0 would pass a CI job pointed at the wrong folder.
            let skipped = job.includeTests ? "" : "; test files and folders are skipped without --include-tests"
            try Terminal.run { () throws(ToolFailure) in
                throw .cannotRun("no source file to lint in \(job.paths.joined(separator: ", ")): "
                                 + "iap lints .swift, .m, .mm and .h files\(skipped)")
            }
        }
        if files.count > 200, isatty(STDERR_FILENO) == 1 { Terminal.err("iap: linting \(files.count) files…\n") }
        let linted = linter.run(files: files)
        let plan = try report.plan(over: configuration.basePlan)
        let outcome = try Terminal.run { () throws(ToolFailure) in
            try plan.finish(command: "lint", findings: linted.diagnostics, rules: LintRules.all, files: files)
        }
        try Terminal.finish(outcome, plan: plan, summary: TextReporter().summary(outcome.result.findings, files: files.count),
                            unreadable: linted.unreadable)
    }
}
