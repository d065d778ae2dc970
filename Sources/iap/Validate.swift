import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
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
        if let retired { options.retiredIDs = try RetiredList.load(retired) }
        let catalogs = try catalog.loadCatalogs(verbose: verbose)
        let diagnostics = CatalogValidator(options: options).validate(catalogs)
        switch format {
        case .text:
            Terminal.out(TextReporter(useColor: Terminal.useColor).render(diagnostics))
            let files = catalogs.reduce(0) { $0 + $1.files.count }
            let products = catalogs.reduce(0) { $0 + $1.products.count }
            Terminal.err(TextReporter().summary(diagnostics, files: files) + ", \(plural(products, "product")) in \(plural(catalogs.count, "catalog"))\n")
        case .json:
            Terminal.out(JSONReporter().render(diagnostics))
        }
        let worst = diagnostics.maximumSeverity
        if worst == .error || (strict && worst == .warning) { throw ExitCode(1) }
    }
}

/// `--retired FILE`: one ID per line (blank lines and `#` comments ignored), or any product-list plist.
enum RetiredList {
    static func load(_ path: String) throws -> [String: SourceLocation] {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Terminal.cannotRun("\(path): retired-ID file not found or not readable")
        }
        var result: [String: SourceLocation] = [:]
        if path.hasSuffix(".plist") {
            let catalog = CatalogLoader().loadCatalog(name: path, paths: [path], explicit: [path])
            if let problem = catalog.loadDiagnostics.first(where: { $0.severity == .error }) {
                throw Terminal.cannotRun("\(problem.location): \(problem.message)")
            }
            for product in catalog.products { result[product.id] = product.location }
            return result
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Terminal.cannotRun("\(path): retired-ID file is not UTF-8 text")
        }
        for (index, line) in text.components(separatedBy: .newlines).enumerated() {
            let id = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !id.isEmpty && result[id] == nil { result[id] = SourceLocation(path: path, line: index + 1, column: 1) }
        }
        return result
    }
}
