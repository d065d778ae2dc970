import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check catalogs: IDs, metadata, kinds, secrets. Diagnostics as path:line:col: severity: message [rule-id].")

    @OptionGroup var catalog: CatalogArguments

    @Option(help: "File of retired product IDs (one per line, # comments; or a plist) that must not be reused.")
    var retired: String?

    @Option(name: .customLong("require-locale"), help: "A locale every product must be localized in (repeatable).")
    var requiredLocales: [String] = []

    @Option(name: .customLong("display-name-limit"), help: "Maximum display-name length (default 35).")
    var displayNameLimit: Int?

    @Option(name: .customLong("description-limit"), help: "Maximum description length (default 55).")
    var descriptionLimit: Int?

    @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
    var verbose = false

    @OptionGroup var config: ConfigArguments
    @OptionGroup var report: ReportArguments

    func validate() throws {
        guard (displayNameLimit ?? 1) > 0, (descriptionLimit ?? 1) > 0 else {
            throw ValidationError("limits must be positive numbers")
        }
    }

    func run() throws {
        let configuration = try config.load()
        var job = ValidateJob()
        job.paths = catalog.paths.isEmpty ? configuration.catalogs : catalog.paths
        job.bundleID = catalog.bundleID ?? configuration.bundleID
        job.bundleIDSource = catalog.bundleID == nil ? configuration.bundleIDSource : nil
        job.retired = retired ?? configuration.retired
        job.requiredLocales = requiredLocales.isEmpty ? configuration.requiredLocales : requiredLocales
        job.displayNameLimit = displayNameLimit ?? configuration.displayNameLimit ?? 35
        job.descriptionLimit = descriptionLimit ?? configuration.descriptionLimit ?? 55
        if let retired = job.retired { _ = try Terminal.run { () throws(ToolFailure) in try RetiredList.load(retired) } }
        let loaded = try CatalogArguments.load(CatalogPolicy(bundleID: job.bundleID, bundleIDSource: job.bundleIDSource), job.paths, verbose: verbose)
        let found = try Terminal.run { () throws(ToolFailure) in try job.run(loaded) }
        let plan = try report.plan(over: configuration.basePlan)
        let outcome = try Terminal.run { () throws(ToolFailure) in
            try plan.finish(command: "validate", findings: found.findings, rules: found.rules, files: found.files)
        }
        try Terminal.finish(outcome, plan: plan, summary: Terminal.summary(outcome.result, files: loaded.fileCount)
            + ", \(plural(loaded.productCount, "product")) in \(plural(loaded.catalogs.count, "catalog"))")
    }
}
