import ArgumentParser
import IAPTool

/// A mistyped subcommand (`iap valdate`, `iap plist lnt`) is named with the nearest one, as
/// ArgumentParser names the nearest option for a mistyped one: "Unknown subcommand 'valdate'.
/// Did you mean 'validate'?", above its usage lines. (A mistyped option is ArgumentParser's own.)
enum CommandSuggestion {
    /// The first argument that stands where a subcommand must and names none, with the nearest
    /// subcommand there; nil when the command line names its commands, or nothing is near.
    static func typo(in arguments: [String], root: any ParsableCommand.Type) -> (typo: String, nearest: String)? {
        var command = root
        for argument in arguments {
            if argument == "--" { return nil }
            if argument.hasPrefix("-") { continue }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { $0._commandName == argument }) {
                command = next
                continue
            }
            // `iap help COMMAND` is ArgumentParser's.
            if argument == "help" { return nil }
            return NearestName.to(argument, among: subcommands.map { $0._commandName }).map { (argument, $0) }
        }
        return nil
    }

    /// ArgumentParser's message for a usage error with its first line (the unexpected argument)
    /// naming the typo and the nearest subcommand instead; its usage lines kept.
    static func message(_ full: String, typo: String, nearest: String) -> String {
        let usage = full.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst()
        return (["Error: Unknown subcommand '\(typo)'. Did you mean '\(nearest)'?"] + usage.map(String.init)).joined(separator: "\n")
    }
}
