import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool
import PropertyList

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check catalogs: IDs, metadata, kinds, secrets. Diagnostics as path:line:col: severity: message [rule-id].")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var catalog: CatalogArguments

    @Option(help: "File of retired product IDs (one per line, # comments; or a plist) that must not be reused.")
    var retired: String?

    @Option(name: .customLong("require-locale"), help: "A locale every product must be localized in (repeatable).")
    var requiredLocales: [String] = []

    @Option(name: .customLong("display-name-limit"), help: "Maximum display-name length.")
    var displayNameLimit = 35

    @Option(name: .customLong("description-limit"), help: "Maximum description length.")
    var descriptionLimit = 55

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
    var verbose = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

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
        switch format {
        case .text:
            Terminal.out(TextReporter(useColor: Terminal.useColor).render(diagnostics))
            Terminal.err(TextReporter().summary(diagnostics, files: loaded.fileCount) + ", \(plural(loaded.productCount, "product")) in \(plural(catalogs.count, "catalog"))\n")
        case .json:
            Terminal.out(JSONReporter().render(diagnostics))
        }
        throw ExitCode(ExitStatus.of(diagnostics, strict: strict))
    }
}
