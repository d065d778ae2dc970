import ArgumentParser
import Foundation
import IAPTool

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check catalogs: IDs, metadata, kinds, secrets. Diagnostics as path:line:col: severity: message [rule-id].")

    @OptionGroup var catalog: CatalogArguments

    @Option(help: "File of retired product IDs (one per line, # comments; or a plist) that must not be reused.")
    var retired: String?

    @Option(name: .customLong("price-points"), help: "App Store Connect's price points (iap asc pull --price-points writes them): check every declared price against them. Default: iap.yml's asc.price-points.")
    var pricePoints: String?

    @Option(name: .customLong("require-locale"), help: "A locale every product must be localized in (repeatable).", transform: ArgumentCheck.locale)
    var requiredLocales: [String] = []

    @Option(name: .customLong("display-name-limit"), help: "Maximum display-name length (default 35).")
    var displayNameLimit: Int?

    @Option(name: .customLong("description-limit"), help: "Maximum description length (default 55).")
    var descriptionLimit: Int?

    @Flag(name: .customLong("all-findings"), help: "Report every finding of a rule that finds more than 100 (by default the first 100 and a summary).")
    var allFindings = false

    @Option(help: "Rules run at once on a catalog of 2,000 products or more (default: one per processor). The output is the same for any number.")
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
    var verbose = false

    @OptionGroup var config: ConfigArguments
    @OptionGroup var report: ReportArguments
    @OptionGroup var output: ReportOutputArgument

    func validate() throws {
        try ArgumentCheck.jobs(jobs, of: "rules")
        for (name, limit) in [("--display-name-limit", displayNameLimit), ("--description-limit", descriptionLimit)] {
            guard let limit, limit <= 0 else { continue }
            throw ValidationError("\(name) must be a positive number of characters (found \(limit))")
        }
    }

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load(verbose: verbose)
            var job = ValidateJob(configuration: configuration, paths: catalog.paths, bundleID: catalog.bundleID)
            if let retired { job.retired = retired }
            if let pricePoints { job.pricePoints = pricePoints }
            if !requiredLocales.isEmpty { job.requiredLocales = requiredLocales }
            if let displayNameLimit { job.displayNameLimit = displayNameLimit }
            if let descriptionLimit { job.descriptionLimit = descriptionLimit }
            if allFindings { job.findingsPerRule = nil }
            job.jobs = jobs
            return job.run(plan: try report.plan(over: configuration.basePlan, output: output), verbose: verbose)
        }
    }
}
