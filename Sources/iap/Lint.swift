import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lint Swift and Objective-C sources for hardcoded prices, titles and product IDs, and prices through Float.")

    @Argument(help: "Source files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "The catalog (file or folder) the sources sell: enables the title and product-ID rules.")
    var catalog: String?

    @Option(help: "Skip files matching this glob, even when named (repeatable).")
    var exclude: [String] = []

    @Flag(name: .customLong("include-tests"), help: "Also lint test files and Tests folders.")
    var includeTests = false

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    @Flag(help: "List the lint rules and exit.")
    var rules = false

    @Option(help: "Output format: text or json.")
    var format: Validate.Format = .text

    func run() throws {
        if rules {
            let width = LintRules.all.map(\.id.count).max() ?? 0
            for rule in LintRules.all {
                Terminal.out(rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + rule.rationale + "\n")
            }
            return
        }
        var context = LintContext()
        if let catalog {
            do {
                let catalogs = try CatalogLoader().load(paths: [catalog]).filter { !$0.files.isEmpty }
                guard catalogs.count == 1, let loaded = catalogs.first else {
                    throw Terminal.cannotRun("--catalog \(catalog) holds \(catalogs.count) catalogs; pass the files or folder of one")
                }
                context = LintContext(catalog: loaded)
            } catch let error as FileDiscovery.Failure {
                throw Terminal.cannotRun(error.message)
            }
        }
        let linter = SourceLinter(context: context, excludes: exclude, includeTests: includeTests)
        let diagnostics: [Diagnostic]
        let fileCount: Int
        do {
            let inputs = paths.isEmpty ? ["."] : paths
            fileCount = try linter.files(in: inputs).count
            if fileCount > 200, isatty(STDERR_FILENO) == 1 { Terminal.err("iap: linting \(fileCount) files…\n") }
            diagnostics = try linter.lint(paths: inputs)
        } catch {
            throw Terminal.cannotRun(error.description)
        }
        switch format {
        case .text:
            Terminal.out(TextReporter(useColor: Terminal.useColor).render(diagnostics))
            Terminal.err(TextReporter().summary(diagnostics, files: fileCount) + "\n")
        case .json:
            Terminal.out(JSONReporter().render(diagnostics))
        }
        let worst = diagnostics.maximumSeverity
        if worst == .error || (strict && worst == .warning) { throw ExitCode(1) }
    }
}
