import ArgumentParser
import CodeGeneration
import Foundation
import Diagnostics
import IAPCatalog
import IAPTool

/// Everything the CLI writes goes through here: stdout for results, stderr for progress and errors.
enum Terminal {
    static func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    static func err(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// A write error on stdout or stderr (a full disk, a closed descriptor) ends the run with
    /// status 2 and says so on the other stream, if it still works. A reader that stopped reading
    /// (`iap rules | head -1`: EPIPE, SIGPIPE being ignored) is not an error: it has what it
    /// wanted, the rest is dropped, and the run ends with the status it would have had, the same
    /// whether or not the output happened to fit in the pipe before the reader left.
    private static func write(_ text: String, to fd: Int32) {
        guard let code = Descriptor.write(text, to: fd), code != EPIPE else { return }
        let (stream, other) = fd == STDOUT_FILENO ? ("standard output", STDERR_FILENO) : ("standard error", STDOUT_FILENO)
        _ = Descriptor.write("iap: error: cannot write to \(stream): \(String(cString: strerror(code)))\n", to: other)
        Foundation.exit(ExitStatus.cannotRun.rawValue)
    }

    /// Before anything runs: SIGPIPE ignored, so a closed pipe is an EPIPE to handle, not a death
    /// by signal; and a standard descriptor the parent closed (`iap … >&-`) taken by /dev/null
    /// opened read-only, so no file iap opens later gets its number (what iap prints would land
    /// in that file) and writes to it fail with EBADF, reported as above.
    static func prepareStandardStreams() {
        signal(SIGPIPE, SIG_IGN)
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 {
            _ = open("/dev/null", O_RDONLY)
        }
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

    /// Loads the catalogs selected (`CatalogSelection`). With `verbose`, the files a walk
    /// passed over are listed on stderr with the reason.
    static func load(_ selection: CatalogSelection, verbose: Bool) throws -> CatalogSelection.Loaded {
        try Terminal.run { () throws(ToolFailure) in
            let loaded = try selection.load()
            if verbose {
                for file in loaded.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
            }
            _ = try loaded.requireCatalogs(verbose: verbose)
            return loaded
        }
    }
}

/// `--config FILE`: the `iap.yml` to read instead of the one found from the working folder up to the repository root.
struct ConfigArguments: ParsableArguments {
    @Option(name: .customLong("config"), help: "The iap.yml to read (default: the nearest iap.yml from the working folder up to the repository root).")
    var path: String?

    /// The configuration, its warnings printed on stderr. A file found above the working folder
    /// is named first, always; with `verbose`, the file used is, wherever it is.
    func load(verbose: Bool = false) throws -> Configuration {
        let configuration = try Terminal.run { () throws(ToolFailure) in try Configuration.load(explicit: path) }
        if let note = verbose ? configuration.verboseNote : configuration.foundAboveNote { Terminal.err(note + "\n") }
        for warning in configuration.warnings { Terminal.err(warning + "\n") }
        return configuration
    }
}

extension ExitCode {
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}
