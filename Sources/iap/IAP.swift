import ArgumentParser
import Foundation
import IAPTool

@main
struct IAP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iap",
        abstract: "Validate, list and inspect in-app purchase catalogs (product-ID plists, metadata plists, .storekit files).",
        discussion: "With no PATH, commands work on the catalogs iap.yml names, else ./catalogs, else the catalogs found under the working folder.\n\nExit status:\n"
            + ExitStatus.allCases.map { "  \($0.rawValue)  \($0.meaning.replacingOccurrences(of: "`", with: ""))" }.joined(separator: "\n"),
        version: IAPToolInfo.version,
        subcommands: [Check.self, Init.self, Validate.self, List.self, Rules.self, Lint.self, Gen.self, StoreKitCommand.self, ConvertCommand.self, Price.self, Report.self, StorefrontsCommand.self, PlistCommand.self, ASCCommand.self]
    )

    /// `iap price -4.99 …`: a negative amount would read as an option, so it is moved behind `--`.
    /// Help, usage errors and `--version` are written through `Terminal` like everything else,
    /// so a write error there is a status 2 with a message, not a silent loss.
    static func main() {
        Terminal.prepareStandardStreams()
        var arguments = ArgumentCheck.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        if arguments.first == "price", !arguments.contains("--"),
           let index = arguments.firstIndex(where: { $0.count > 1 && $0.hasPrefix("-") && $0.dropFirst().allSatisfy { $0.isNumber || $0 == "." } }) {
            let amount = arguments.remove(at: index)
            arguments += ["--", amount]
        }
        // `iap price plan …`: a command of its own, since `iap price` takes an amount where a
        // subcommand's name would go.
        if arguments.count >= 2, arguments[0] == "price", arguments[1] == "plan" {
            do {
                var command = try PricePlanCommand.parseAsRoot(Array(arguments.dropFirst(2)))
                try command.run()
                Terminal.end(CommandOutcome())
            } catch {
                let code = PricePlanCommand.exitCode(for: error)
                let text = PricePlanCommand.fullMessage(for: error)
                let said = text.isEmpty ? "" : text + "\n"
                Terminal.end(code == .success ? CommandOutcome(stdout: said)
                             : CommandOutcome(stderr: said, status: ExitStatus(rawValue: code.rawValue) ?? .findings))
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Terminal.end(CommandOutcome())
        } catch {
            // Help, --version and usage errors, as ArgumentParser words them, with its status
            // (0 or 64; any other error it maps to 1) from the one table.
            let code = exitCode(for: error)
            let status = ExitStatus(rawValue: code.rawValue) ?? .findings
            var text = fullMessage(for: error)
            if status == .usage, let (typo, nearest) = CommandSuggestion.typo(in: arguments, root: IAP.self) {
                text = CommandSuggestion.message(text, typo: typo, nearest: nearest)
            }
            let said = text.isEmpty ? "" : text + "\n"
            Terminal.end(code == .success ? CommandOutcome(stdout: said) : CommandOutcome(stderr: said, status: status))
        }
    }
}
