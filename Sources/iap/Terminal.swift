import ArgumentParser
import Foundation
import Diagnostics
import IAPCatalog
import IAPTool

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
        fail(.cannotRun(message))
    }

    /// Prints the failure as `iap: error: …` and returns the exit code it carries.
    static func fail(_ failure: ToolFailure) -> ExitCode {
        err("iap: error: \(failure.message)\n")
        return ExitCode(failure.status)
    }

    /// Runs library code, turning a `ToolFailure` into its message and exit status.
    static func run<T>(_ body: () throws(ToolFailure) -> T) throws -> T {
        do { return try body() } catch { throw fail(error) }
    }
}

/// The catalog arguments shared by `validate` and `list`.
struct CatalogArguments: ParsableArguments {
    @Argument(help: "Catalog files or folders (default: the catalogs iap.yml names, else ./catalogs, else the catalogs found under the working folder).")
    var paths: [String] = []

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over Info.plist and the metadata plist.", transform: ArgumentCheck.bundleID)
    var bundleID: String?

    /// Loads the catalogs under the paths (`CatalogPolicy`). With `verbose`, the files a walk
    /// passed over are listed on stderr with the reason.
    static func load(_ policy: CatalogPolicy, _ paths: [String], verbose: Bool) throws -> CatalogPolicy.Loaded {
        try Terminal.run { () throws(ToolFailure) in
            let loaded = try policy.load(paths)
            if verbose {
                for file in loaded.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
            }
            _ = try loaded.requireCatalogs(verbose: verbose)
            return loaded
        }
    }
}

/// `--config FILE`: the `iap.yml` to read instead of the one found from the working folder up.
struct ConfigArguments: ParsableArguments {
    @Option(name: .customLong("config"), help: "The iap.yml to read (default: the nearest iap.yml from the working folder up).")
    var path: String?

    /// The configuration, its warnings printed on stderr.
    func load() throws -> Configuration {
        let configuration = try Terminal.run { () throws(ToolFailure) in try Configuration.load(explicit: path) }
        for warning in configuration.warnings { Terminal.err(warning + "\n") }
        return configuration
    }
}

extension ExitCode {
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}
