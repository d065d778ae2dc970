// iap-gen: the build plugins' tool. It does what `iap gen` and `iap storekit` do, with the same
// library code and the same output, and nothing else: no linter (so no swift-syntax), no YAML
// and no argument-parsing library, so an app that adopts the plugins compiles little of ours.
//
//   iap-gen gen PATH... --output FILE.swift [--type-name NAME] [--style constants|enum] [--access internal|public|package] [--check]
//   iap-gen storekit PATH... --output FILE.storekit [--storefront USA] [--locale en_US] [--check]
//
// With --check, `--update-command LINE` is the command a stale file's message names: the plugins
// pass the one that fits where they run (the command plugin's `swift package … iap-gen --target
// App`, or `iap gen …` in Xcode); without it, this command line without --check.
import CatalogTool
import CodeGeneration
import Support
import Foundation

let usage = """
    usage: iap-gen gen PATH... --output FILE.swift [--type-name NAME] [--style constants|enum] [--access internal|public|package] [--check [--update-command LINE]]
           iap-gen storekit PATH... --output FILE.storekit [--storefront CODE] [--locale LOCALE] [--check [--update-command LINE]]
    """

func fail(_ message: String, _ status: ExitStatus) -> Never {
    _ = Descriptor.write("iap-gen: error: \(message)\n", to: STDERR_FILENO)
    exit(status.rawValue)
}

/// Writes to stdout or stderr as `iap` does: a reader that left (EPIPE) is no error; any other
/// write error is status 2 with a message on the other stream.
func say(_ text: String, to fd: Int32) {
    guard let code = Descriptor.write(text, to: fd), code != EPIPE else { return }
    let stream = fd == STDOUT_FILENO ? "standard output" : "standard error"
    _ = Descriptor.write("iap-gen: error: cannot write to \(stream): \(String(cString: strerror(code)))\n",
                         to: fd == STDOUT_FILENO ? STDERR_FILENO : STDOUT_FILENO)
    exit(ExitStatus.cannotRun.rawValue)
}

// As in iap (Terminal.prepareStandardStreams): a closed pipe is EPIPE, not a signal; a closed
// standard descriptor is held by /dev/null read-only, so no output file takes its number.
signal(SIGPIPE, SIG_IGN)
for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 { _ = open("/dev/null", O_RDONLY) }

/// The command, its paths and its options (`--name value` each).
var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, ["gen", "storekit"].contains(command) else {
    fail("expected gen or storekit\n\(usage)", .usage)
}
arguments.removeFirst()
let known = (command == "gen" ? ["--output", "-o", "--type-name", "--style", "--access"] : ["--output", "-o", "--storefront", "--locale"])
    + ["--update-command"]
var paths: [String] = []
var options: [String: String] = [:]
var check = false
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    if argument == "--check" {
        check = true
        index += 1
    } else if argument.hasPrefix("-") {
        guard known.contains(argument) else { fail("unknown option '\(argument)' for \(command)\n\(usage)", .usage) }
        guard index + 1 < arguments.count else { fail("\(argument) needs a value", .usage) }
        options[argument == "-o" ? "--output" : argument] = arguments[index + 1]
        index += 2
    } else {
        paths.append(argument)
        index += 1
    }
}
guard let output = options["--output"] else { fail("--output is required\n\(usage)", .usage) }
// What a stale file's message asks to run: as given, else this command line without --check.
var rerun = [String(CommandLine.arguments[0].split(separator: "/").last ?? "iap-gen"), command] + paths
for (name, value) in options.sorted(by: { $0.key < $1.key }) where name != "--update-command" { rerun += [name, value] }
let update = options["--update-command"] ?? GenerationCheck.commandLine(rerun)

let outcome: CommandOutcome
do throws(ToolFailure) {
    if command == "gen" {
        var style = GenerationOptions.Style.constants
        if let text = options["--style"] {
            guard let chosen = GenerationOptions.Style(rawValue: text) else { fail("--style must be constants or enum", .usage) }
            style = chosen
        }
        var access = GenerationOptions.Access.internal
        if let text = options["--access"] {
            guard let chosen = GenerationOptions.Access(rawValue: text) else { fail("--access must be internal, public or package", .usage) }
            access = chosen
        }
        let generation = GenerationOptions(style: style, typeName: options["--type-name"], access: access)
        outcome = try GenJob(catalogs: CatalogSelection(given: paths), output: output, options: generation).deliver(check: check, update: update)
    } else {
        let job = ConvertJob(catalogs: CatalogSelection(given: paths), format: .storekit, storefront: options["--storefront"], locale: options["--locale"])
        outcome = try job.run().deliver(to: output, check: check, command: "storekit", update: update)
    }
} catch {
    fail(error.message, error.status)
}
// As `iap` ends (Terminal.end): what the run said as it went, the results, the files, the rest.
say(outcome.stderr, to: STDERR_FILENO)
say(outcome.stdout, to: STDOUT_FILENO)
let ended = outcome.writingFiles()
say(ended.closing + ended.errors, to: STDERR_FILENO)
exit(ended.status.rawValue)
