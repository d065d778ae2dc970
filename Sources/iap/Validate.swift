import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool
import PropertyList

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check catalogs: IDs, metadata, kinds, secrets. Diagnostics as path:line:col: severity: message [rule-id].")

    @OptionGroup var catalog: CatalogArguments

    @Option(help: "File of retired product IDs (one per line, # comments; or a plist) that must not be reused.")
    var retired: String?

    @Option(name: .customLong("require-locale"), help: "A locale every product must be localized in (repeatable).")
    var requiredLocales: [String] = []

    @Option(name: .customLong("display-name-limit"), help: "Maximum display-name length.")
    var displayNameLimit = 35

    @Option(name: .customLong("description-limit"), help: "Maximum description length.")
    var descriptionLimit = 55

    @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
    var verbose = false

    @OptionGroup var report: ReportArguments

    func validate() throws {
        guard displayNameLimit > 0, descriptionLimit > 0 else {
            throw ValidationError("limits must be positive numbers")
        }
    }

    func run() throws {
        var options = ValidationOptions(requiredLocales: requiredLocales, displayNameLimit: displayNameLimit,
                                        descriptionLimit: descriptionLimit)
        if let retired { options.retiredIDs = try Terminal.run { () throws(ToolFailure) in try RetiredList.load(retired) } }
        let loaded = try catalog.loadCatalogs(verbose: verbose)
        let catalogs = loaded.catalogs
        let diagnostics = CatalogValidator(options: options).validate(catalogs)
        let plan = try report.plan()
        let outcome = try Terminal.run { () throws(ToolFailure) in
            try plan.finish(command: "validate", findings: diagnostics, rules: CatalogRules.descriptions,
                            files: catalogs.flatMap { $0.files.map(\.path) })
        }
        try Terminal.finish(outcome, plan: plan, summary: Terminal.summary(outcome.result, files: loaded.fileCount)
            + ", \(plural(loaded.productCount, "product")) in \(plural(catalogs.count, "catalog"))")
    }
}
