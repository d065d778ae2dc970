import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One row per product: ID, kind and why, reference name, display name, price.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var catalog: CatalogArguments

    @Flag(name: .shortAndLong, help: "Also show each file: what it is and the shape it was read as.")
    var verbose = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var config: ConfigArguments

    func run() throws {
        let configuration = try config.load(verbose: verbose)
        let selection = CatalogSelection(catalog.paths, configuration: configuration, bundleID: catalog.bundleID)
        let catalogs = try CatalogArguments.load(selection, verbose: verbose).catalogs
        switch format {
        case .text: Terminal.out(ListText.render(catalogs, verbose: verbose))
        case .json: Terminal.out(ListJSON.render(catalogs))
        }
        if catalogs.contains(where: { !$0.unreadableFileFindings.isEmpty }) {
            // The same catalogs as this run: the paths given, else the same default (CatalogSelection).
            let command = (["iap", "validate"] + catalog.paths.map(ArgumentCheck.shellQuoted)).joined(separator: " ")
            Terminal.err("iap: some files could not be read as catalogs; run '\(command)' for the details\n")
            throw ExitCode(ExitStatus.findings)
        }
    }
}
