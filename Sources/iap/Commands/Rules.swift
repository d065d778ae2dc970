import ArgumentParser
import IAPTool

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule (catalog, lint and the tool's own): ID, default severity, rationale.")

    @Option(help: "Output format: text, markdown (the table in docs/commands.md), json, or reference (docs/rules.md).")
    var format: RuleListing.Format = .text

    func run() {
        Terminal.end(RuleListing.run(format: format))
    }
}
