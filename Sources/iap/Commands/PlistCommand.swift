import ArgumentParser
import Foundation
import IAPTool

struct PlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist", abstract: "Check and print XML property lists (the plutil that Linux lacks).",
        subcommands: [Lint.self, Print.self])

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check that each FILE is a valid XML plist: 'FILE: OK' or the positioned error.")

        @Argument(help: "Property-list files.")
        var files: [String]

        @OptionGroup(title: "Reporting") var report: ReportArguments
        @OptionGroup(title: "Reporting") var output: ReportOutputArgument

        func run() {
            Terminal.end { () throws(ToolFailure) in PlistJob.lint(files, plan: try report.plan(output: output)) }
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "print", abstract: "Print a plist as JSON (file order kept) or canonical XML.")

        @Argument(help: "A property-list file.")
        var file: String

        @Option(help: "json (default) or xml (Apple's canonical form).")
        var format: PlistJob.PrintFormat = .json

        func run() {
            Terminal.end(PlistJob.print(file, format: format))
        }
    }
}
