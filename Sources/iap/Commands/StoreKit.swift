import ArgumentParser
import Foundation
import IAPTool

/// `iap storekit`: the catalog as a local Xcode StoreKit configuration file.
struct StoreKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekit",
        abstract: "Write a local Xcode StoreKit configuration (.storekit) from a catalog: deterministic, written only when changed; --check for CI.")

    @Argument(help: "The catalog's files or folder (default: the catalogs iap.yml names, else ./catalogs, else the catalog found under the working folder).")
    var paths: [String] = []

    @Option(name: [.short, .long], help: "The .storekit file to write (its folder must exist). Without it, each .storekit file iap.yml lists under generate:.")
    var output: String?

    @Option(help: "The storefront whose prices the file holds (alpha-3 or alpha-2 code; default: the one the catalog's prices are for, else USA).")
    var storefront: String?

    @Option(help: "The locale StoreKit Testing shows prices in, e.g. en_US (default: the storefront's).", transform: ArgumentCheck.locale)
    var locale: String?

    @Flag(help: "Write nothing; exit 1 with a unified diff when the file is stale or missing.")
    var check = false

    @OptionGroup var config: ConfigArguments

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load()
            guard let output else {
                if !paths.isEmpty { throw .usage("PATH needs -o FILE; without -o, iap storekit writes what iap.yml lists under generate:") }
                return try ConfiguredGeneration(configuration: configuration).deliver(storeKit: true, check: check)
            }
            let job = ConvertJob(catalogs: .generating(paths, configuration: configuration), format: .storekit, storefront: storefront, locale: locale)
            var words = ["iap", "storekit"] + paths + ["-o", output]
            if let storefront { words += ["--storefront", storefront] }
            if let locale { words += ["--locale", locale] }
            if let path = config.path { words += ["--config", path] }
            return try job.run().deliver(to: output, check: check, command: "storekit", update: GenerationCheck.commandLine(words))
        }
    }
}

/// `iap convert`: the catalog in another of the formats iap reads.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a catalog between formats: .storekit ⇄ metadata plist, or a plain product-ID list; lists what the target cannot hold.")

    @Argument(help: "The catalog's files or folder (a .storekit file, a metadata plist, or a folder of one catalog).")
    var paths: [String] = []

    @Option(name: [.short, .long], help: "The file to write: .storekit writes a StoreKit configuration, .plist a metadata plist.")
    var output: String

    @Option(help: "storekit, metadata or ids (default: from the output's extension).")
    var to: CatalogFormat?

    @Option(help: "With --to storekit: the storefront whose prices the file holds (default: the one the catalog's prices are for, else USA).")
    var storefront: String?

    @Option(help: "With --to storekit: the locale prices are shown in (default: the storefront's).", transform: ArgumentCheck.locale)
    var locale: String?

    @Flag(help: "Write nothing; exit 1 with a unified diff when the file is stale or missing.")
    var check = false

    func run() {
        let format = to ?? CatalogFormat.implied(by: output)
        Terminal.end { () throws(ToolFailure) in
            var words = ["iap", "convert"] + paths + ["-o", output]
            if let to { words += ["--to", to.rawValue] }
            if let storefront { words += ["--storefront", storefront] }
            if let locale { words += ["--locale", locale] }
            return try ConvertJob(catalogs: CatalogSelection(given: paths), format: format, storefront: storefront, locale: locale).run()
                .deliver(to: output, check: check, command: "convert", update: GenerationCheck.commandLine(words))
        }
    }
}

extension CatalogFormat: ExpressibleByArgument {}
