import ArgumentParser
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool
import SourceLint

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lint Swift and Objective-C sources for hardcoded prices, titles and product IDs, and prices through Float.")

    @Argument(help: "Source files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "The catalog (file or folder) the sources sell: enables the title and product-ID rules. Without it, the catalogs found under the PATHs are used, each for the sources of its app.")
    var catalog: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over the catalog's Info.plist, Xcode project and metadata plist.")
    var bundleID: String?

    @Option(help: "Skip files matching this glob, even when named (repeatable).")
    var exclude: [String] = []

    @Flag(name: .customLong("include-tests"), help: "Also lint test files and Tests folders.")
    var includeTests = false

    @Flag(help: "List the lint rules and exit.")
    var rules = false

    @OptionGroup var report: ReportArguments

    func run() throws {
        if rules {
            Terminal.out(RuleListing.text(LintRules.all))
            return
        }
        let inputs = paths.isEmpty ? ["."] : paths
        var linter = SourceLinter(excludes: exclude, includeTests: includeTests)
        let policy = CatalogPolicy(bundleID: bundleID)
        if let catalog {
            linter.context = LintContext(catalog: try Terminal.run { () throws(ToolFailure) in
                try policy.loadOne([catalog], subject: "--catalog \(catalog)")
            })
        } else {
            // The catalogs beside the sources, each for the files of its own app.
            let (folders, found) = policy.loadBeside(inputs)
            for catalog in found {
                Terminal.err("iap: using the catalog in \(catalog.name) (\(plural(catalog.products.count, "product"))\(catalog.bundleID.map { ", bundle ID \($0.value)" } ?? ""))\n")
                linter.scopedContexts.append((catalog.name, LintContext(catalog: catalog)))
            }
            // One app: its catalog serves the sources outside its folder too (shared packages).
            if found.count == 1 { linter.context = linter.scopedContexts[0].context }
            if found.isEmpty, !folders.isEmpty {
                Terminal.err("iap: no catalog found in \(folders.joined(separator: ", ")): product titles and IDs are not checked (pass --catalog)\n")
            }
        }
        let diagnostics: [Diagnostic]
        let files: [String]
        do {
            files = try linter.files(in: inputs)
            let fileCount = files.count
            if fileCount > 200, isatty(STDERR_FILENO) == 1 { Terminal.err("iap: linting \(fileCount) files…\n") }
            diagnostics = try linter.lint(paths: inputs)
        } catch {
            throw Terminal.cannotRun(error.description)
        }
        let plan = try report.plan()
        let outcome = try Terminal.run { () throws(ToolFailure) in
            try plan.finish(command: "lint", findings: diagnostics, rules: LintRules.all, files: files)
        }
        try Terminal.finish(outcome, plan: plan, summary: Terminal.summary(outcome.result, files: files.count))
    }
}
