import ArgumentParser
import Foundation
import IAPTool

struct Gen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gen",
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

    @Option(help: "A Stencil template to render instead of a built-in style (see docs/commands.md#custom-templates).")
    var template: String?

    @Flag(help: "Give colliding names deterministic suffixes (_2, _3) instead of failing.")
    var disambiguate = false

    @Flag(help: "Write nothing; exit 1 with a unified diff when the file is stale or missing.")
    var check = false

    @OptionGroup var config: ConfigArguments
    @OptionGroup(title: "Reporting (with --check)") var report: ReportArguments

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let options = GenerationOptions(style: style, typeName: typeName, access: access, disambiguate: disambiguate)
            let configuration = try config.load()
            guard let output else {
                if !paths.isEmpty || typeName != nil || template != nil {
                    throw .usage("PATH, --type-name and --template need -o FILE; without -o, iap gen writes what iap.yml lists under generate:")
                }
                return try ConfiguredGeneration(configuration: configuration).deliver(storeKit: false, check: check)
            }
            let job = GenJob(catalogs: .generating(paths, configuration: configuration), output: output,
                             options: options, template: template, root: configuration.root)
            return job.run(check: check, plan: check ? try report.plan() : ReportPlan(), update: update(output))
        }
    }

    /// This command without `--check` and the report options: what a stale file's message names.
    func update(_ output: String) -> String {
        var words = ["iap", "gen"] + paths + ["-o", output]
        if let typeName { words += ["--type-name", typeName] }
        if access != .internal { words += ["--access", access.rawValue] }
        if style != .constants { words += ["--style", style.rawValue] }
        if let template { words += ["--template", template] }
        if disambiguate { words.append("--disambiguate") }
        if let path = config.path { words += ["--config", path] }
        return GenerationCheck.commandLine(words)
    }
}
extension GenerationOptions.Access: ExpressibleByArgument {}
extension GenerationOptions.Style: ExpressibleByArgument {}
