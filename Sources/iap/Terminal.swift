import ArgumentParser
import Foundation
import IAPTool

/// Everything the CLI writes goes through here: stdout for results, stderr for progress and
/// errors; and every run ends here, through `end`, with the status of its outcome.
enum Terminal {
    static func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    static func err(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// The one way out of a run: what it said as it went, its results, its files (a report
    /// may go to stdout or stderr, after what is there), what it says last; then the exit with
    /// its status. Exit here, not by unwinding: a million products' catalog (held by the
    /// outcome) is not freed piece by piece on the way out, and output is written unbuffered,
    /// so nothing is lost.
    static func end(_ outcome: CommandOutcome) -> Never {
        err(outcome.stderr)
        out(outcome.stdout)
        let ended = outcome.writingFiles()
        err(ended.closing + ended.errors)
        withExtendedLifetime(ended) { exit(ended.status) }
    }

    /// Runs a command's work and ends with its outcome; a failure it throws ends the run with
    /// `iap: error: MESSAGE` and the failure's status.
    static func end(_ body: () throws(ToolFailure) -> CommandOutcome) -> Never {
        let outcome: CommandOutcome
        do {
            outcome = try body()
        } catch {
            outcome = CommandOutcome(error)
        }
        end(outcome)
    }

    private static func exit(_ status: ExitStatus) -> Never {
        Foundation.exit(status.rawValue)
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
        exit(.cannotRun)
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

    /// Progress for a long run, said at once, only when stderr is a terminal.
    static var progress: (@Sendable (String) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { @Sendable text in Terminal.err(text) }
    }
}

/// The catalog arguments shared by `validate` and `list`.
struct CatalogArguments: ParsableArguments {
    @Argument(help: "Catalog files or folders (default: the catalogs iap.yml names, else ./catalogs, else the catalogs found under the working folder).")
    var paths: [String] = []

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over Info.plist and the metadata plist.", transform: ArgumentCheck.bundleID)
    var bundleID: String?
}

/// `--config FILE`: the `iap.yml` to read instead of the one found from the working folder up to the repository root.
struct ConfigArguments: ParsableArguments {
    @Option(name: .customLong("config"), help: "The iap.yml to read (default: the nearest iap.yml from the working folder up to the repository root).")
    var path: String?

    /// The configuration, its warnings said on stderr at once. A file found above the working
    /// folder is named first, always; with `verbose`, the file used is, wherever it is.
    func load(verbose: Bool = false) throws(ToolFailure) -> Configuration {
        let configuration = try Configuration.load(explicit: path)
        if let note = verbose ? configuration.verboseNote : configuration.foundAboveNote { Terminal.err(note + "\n") }
        for warning in configuration.warnings { Terminal.err(warning + "\n") }
        return configuration
    }
}
