import ArgumentParser
import Foundation
import PropertyList
import Diagnostics
import IAPTool

struct PlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist", abstract: "Check and print XML property lists (the plutil that Linux lacks).",
        subcommands: [Lint.self, Print.self])

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that each FILE is a valid XML plist: 'FILE: OK' or the positioned error.")

        @Argument(help: "Property-list files.")
        var files: [String]

        @OptionGroup(title: "Reporting") var report: ReportArguments

        func run() throws {
            let plan = try report.plan()
            var text = ""
            var findings: [Diagnostic] = []
            var cannotRead = false
            for file in files {
                guard FileManager.default.fileExists(atPath: file) else {
                    Terminal.err("iap: error: \(file): no such file\n")
                    cannotRead = true
                    continue
                }
                do {
                    _ = try PlistReader().read(path: file)
                    text += "\(file): OK\n"
                } catch where error.kind == .io {
                    // Not a verdict on the file: the run could not look at it.
                    Terminal.err("iap: error: \(file): cannot read: \(error.osReason)\n")
                    cannotRead = true
                } catch {
                    text += PlistErrorText.render(error, file: file)
                    findings.append(ToolRules.invalidPlist.finding(error.message, at: SourceLocation(path: file, line: error.line, column: error.column)))
                }
            }
            if cannotRead { throw ExitCode(ExitStatus.cannotRun) }
            var outcome = try Terminal.run { () throws(ToolFailure) in
                try plan.finish(command: "plist lint", findings: findings, rules: [ToolRules.invalidPlist], files: files)
            }
            // Text: plutil's form, a line per file.
            if plan.stdoutFormat == TextReporter.identifier { outcome.stdout = text }
            try Terminal.finish(outcome, plan: plan, summary: nil)
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a plist as JSON (file order kept) or canonical XML.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case json, xml
        }

        @Argument(help: "A property-list file.")
        var file: String

        @Option(help: "json (default) or xml (Apple's canonical form).")
        var format: Format = .json

        func run() throws {
            guard FileManager.default.fileExists(atPath: file) else { throw Terminal.cannotRun("\(file): no such file") }
            do {
                let document = try PlistReader().read(path: file)
                switch format {
                case .json: Terminal.out(PlistJSONWriter().write(document.root.value))
                case .xml: Terminal.out(PlistWriter().write(document.root))
                }
            } catch where error.kind == .io {
                throw Terminal.cannotRun("\(file): cannot read: \(error.osReason)")
            } catch {
                Terminal.err(PlistErrorText.render(error, file: file))
                throw ExitCode(1)
            }
        }
    }
}
