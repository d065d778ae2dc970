import ArgumentParser
import Diagnostics
import IAPTool

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every rule (catalog, lint and the tool's own): ID, default severity, rationale.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json, reference
    }

    @Option(help: "Output format: text, markdown (the README table), json, or reference (docs/rules.md).")
    var format: Format = .text

    func run() {
        let rules = RuleRegistry.all
        switch format {
        case .text: Terminal.out(RuleListing.text(rules))
        case .markdown: Terminal.out(RuleListing.markdown(rules))
        case .json: Terminal.out(RuleListing.json(rules))
        case .reference: Terminal.out(RuleListing.reference(rules))
        }
    }
}
