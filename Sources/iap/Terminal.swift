import ArgumentParser
import Foundation
import Diagnostics
import IAPCatalog

/// Everything the CLI writes goes through here: stdout for results, stderr for progress and errors.
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Colour only on a terminal, and never when NO_COLOR is set or TERM is dumb.
    static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        if env["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    /// Prints `iap: error: …` on stderr and exits with status 2: the check could not run.
    static func cannotRun(_ message: String) -> ExitCode {
        err("iap: error: \(message)\n")
        return ExitCode(2)
    }
}

/// The catalog arguments shared by `validate` and `list`.
struct CatalogArguments: ParsableArguments {
    @Argument(help: "Catalog files or folders (default: ./catalogs).")
    var paths: [String] = []

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over Info.plist and the metadata plist.")
    var bundleID: String?

    /// Loads the catalogs under the paths; a path that does not exist, or paths holding no catalog
    /// at all, end the command with status 2 rather than a silently empty result. With `verbose`,
    /// the files a walk passed over are listed on stderr with the reason.
    func loadCatalogs(verbose: Bool = false) throws -> [Catalog] {
        let paths = try resolvedPaths()
        let result: CatalogLoader.Result
        do {
            result = try CatalogLoader(bundleIDOverride: bundleID).loadAll(paths: paths)
        } catch {
            throw Terminal.cannotRun(error.message)
        }
        if verbose {
            for file in result.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
        }
        guard !result.catalogs.isEmpty else {
            let skipped = result.passedOver.isEmpty ? ""
                : " (\(plural(result.passedOver.count, "other plist")) passed over\(verbose ? "" : "; --verbose says why"))"
            throw Terminal.cannotRun("no catalog found in \(paths.joined(separator: ", ")): no product-ID list, metadata plist or .storekit file\(skipped)")
        }
        return result.catalogs
    }

    /// The paths to read; ./catalogs when none are given.
    func resolvedPaths() throws -> [String] {
        if !paths.isEmpty { return paths }
        guard FileManager.default.fileExists(atPath: "catalogs") else {
            throw Terminal.cannotRun("no PATH given and ./catalogs does not exist; pass the files or folders to check")
        }
        return ["catalogs"]
    }
}
