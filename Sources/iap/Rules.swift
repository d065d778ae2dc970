import ArgumentParser
import Diagnostics
import IAPCatalog

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the catalog rules: ID, default severity, rationale.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown
    }

    @Option(help: "Output format: text or markdown (the README table).")
    var format: Format = .text

    func run() {
        let rules = CatalogRules.descriptions
        switch format {
        case .text:
            let width = rules.map(\.id.count).max() ?? 0
            for rule in rules {
                let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                Terminal.out("\(id)  \(severity)  \(rule.rationale)\n")
            }
        case .markdown:
            Terminal.out("| rule | severity | why |\n|---|---|---|\n")
            for rule in rules { Terminal.out("| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.rationale) |\n") }
        }
    }
}
