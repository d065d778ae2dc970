import ArgumentParser
import Foundation
import IAPTool

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "One row per product: ID, kind and why, reference name, display name, price.")

    @OptionGroup var catalog: CatalogArguments

    @Flag(name: .shortAndLong, help: "Also show each file: what it is and the shape it was read as.")
    var verbose = false

    @Option(help: "Output format: text, json or csv.")
    var format: ListJob.Format = .text

    @OptionGroup var config: ConfigArguments

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load(verbose: verbose)
            let selection = CatalogSelection(catalog.paths, configuration: configuration, bundleID: catalog.bundleID)
            return ListJob(catalogs: selection, format: format, verbose: verbose).run()
        }
    }
}
