import ArgumentParser
import CodeGeneration
import Diagnostics
import Foundation
import IAPCatalog
import IAPTool

struct Gen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate Swift constants from a catalog: deterministic, written only when changed; --check for CI.")

    @Argument(help: "The catalog's files or folder (default: the catalogs iap.yml names, else ./catalogs, else the catalog found under the working folder).")
    var paths: [String] = []

    @Option(name: [.short, .long], help: "The Swift file to write (its folder must exist). Without it, each Swift file iap.yml lists under generate:.")
    var output: String?

    @Option(name: .customLong("type-name"), help: "Name of the generated type (default ProductID, or Product with --style enum).")
    var typeName: String?

    @Option(help: "Access level: internal, public or package.")
    var access: GenerationOptions.Access = .internal

    @Option(help: "constants (enum ProductID with static lets) or enum (enum Product: String, CaseIterable).")
    var style: GenerationOptions.Style = .constants

    @Option(help: "A Stencil template to render instead of a built-in style (see README, Custom templates).")
    var template: String?

    @Flag(help: "Give colliding names deterministic suffixes (_2, _3) instead of failing.")
    var disambiguate = false

    @Flag(help: "Write nothing; exit 1 with a unified diff when the file is stale or missing.")
    var check = false

    @OptionGroup var config: ConfigArguments
    @OptionGroup(title: "Reporting (with --check)") var report: ReportArguments

    func run() throws {
        let options = GenerationOptions(style: style, typeName: typeName, access: access, disambiguate: disambiguate)
        let configuration = try config.load()
        guard let output else {
            if !paths.isEmpty || typeName != nil || template != nil {
                throw Terminal.fail(.usage("PATH, --type-name and --template need -o FILE; without -o, iap gen writes what iap.yml lists under generate:"))
            }
            try ConvertCommand.finish(try Terminal.run { () throws(ToolFailure) in
                try ConfiguredGeneration(configuration: configuration).deliver(storeKit: false, check: check)
            })
            return
        }
        let job = GenJob(catalogs: .generating(paths, configuration: configuration), output: output,
                         options: options, template: template, root: configuration.root)
        let catalog: Catalog
        do throws(ToolFailure) {
            catalog = try job.loadCatalog()
        } catch where !error.findings.isEmpty {
            let problem = error.findings[0]
            Terminal.err("\(problem.location): error: \(problem.message) [\(problem.ruleID)]\n")
            Terminal.err("iap: error: the catalog has unreadable files; fix them before generating\n")
            throw ExitCode(ExitStatus.findings)
        } catch {
            throw Terminal.fail(error)
        }
        let content = try Terminal.run { () throws(ToolFailure) in try job.generate(catalog) }
        if check {
            let plan = try report.plan()
            let check = GenerationCheck(output: output, generated: content)
            var outcome = try Terminal.run { () throws(ToolFailure) in
                try plan.finish(command: "gen", findings: check.findings, rules: ToolRules.all, files: [output])
            }
            if plan.stdoutFormat == TextReporter.identifier {
                // Text: the diff on stdout and one line on stderr, as a reviewer reads it.
                outcome.stdout = check.diff ?? ""
                Terminal.err("iap: \(check.statusLine)\n")
            }
            try Terminal.finish(outcome, plan: plan, summary: nil)
        }
        do {
            switch try OutputFile.write(content, to: output) {
            case .written: Terminal.err("iap: wrote \(output) (\(plural(catalog.products.count, "product")))\n")
            case .unchanged: Terminal.err("iap: \(output) unchanged\n")
            }
        } catch {
            throw Terminal.cannotRun(error.description)
        }
    }
}

extension GenerationOptions.Access: ExpressibleByArgument {}
extension GenerationOptions.Style: ExpressibleByArgument {}
