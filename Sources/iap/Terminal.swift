import ArgumentParser
import Foundation
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
    /// file at all, end the command with status 2 rather than a silently empty result.
    func loadCatalogs() throws -> [Catalog] {
        let paths = try resolvedPaths()
        let catalogs: [Catalog]
        do {
            catalogs = try CatalogLoader(bundleIDOverride: bundleID).load(paths: paths)
        } catch {
            throw Terminal.cannotRun(error.message)
        }
        guard catalogs.contains(where: { !$0.files.isEmpty }) else {
            throw Terminal.cannotRun("no catalog files (product-ID or metadata .plist, .storekit) found in \(paths.joined(separator: ", "))")
        }
        return catalogs.filter { !$0.files.isEmpty }
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
