import Diagnostics
import Foundation
import PropertyList

/// `iap plist`: property lists checked and printed, as `plutil` does on a Mac.
public enum PlistJob {
    /// What `iap plist print` writes.
    public enum PrintFormat: String, Sendable, CaseIterable {
        /// JSON, in the file's order.
        case json
        /// Apple's canonical XML.
        case xml
    }

    /// `iap plist lint`: each file valid or its positioned error, reported as `plan` says (text:
    /// plutil's form, a line per file). A file that cannot be read at all is said on stderr and
    /// the run ends with status 2, reporting nothing.
    public static func lint(_ files: [String], plan: ReportPlan) -> CommandOutcome {
        var outcome = CommandOutcome()
        var text = ""
        var findings: [Diagnostic] = []
        var cannotRead = false
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else {
                outcome.stderr += "iap: error: \(file): no such file\n"
                cannotRead = true
                continue
            }
            do {
                _ = try PlistReader().read(path: file)
                text += "\(file): OK\n"
            } catch where error.kind == .io {
                // Not a verdict on the file: the run could not look at it.
                outcome.stderr += "iap: error: \(file): cannot read: \(error.osReason)\n"
                cannotRead = true
            } catch {
                text += PlistErrorText.render(error, file: file)
                findings.append(InvalidPlistRule.description.finding(error.message, at: SourceLocation(path: file, line: error.line, column: error.column)))
            }
        }
        if cannotRead {
            outcome.status = .cannotRun
            return outcome
        }
        do throws(ToolFailure) {
            var rendered = try plan.render(command: "plist lint", findings: findings, rules: [InvalidPlistRule.description], files: files)
            if plan.stdoutFormat == TextReporter.identifier { rendered.replaceReport(with: text, plan: plan) }
            outcome.append(plan.deliver(rendered, summary: nil))
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// `iap plist print`: the file as JSON or canonical XML; a file that is not a valid plist is
    /// its positioned error and status 1.
    public static func print(_ file: String, format: PrintFormat) -> CommandOutcome {
        guard FileManager.default.fileExists(atPath: file) else { return CommandOutcome(.cannotRun("\(file): no such file")) }
        do {
            let document = try PlistReader().read(path: file)
            switch format {
            case .json: return CommandOutcome(stdout: PlistJSONWriter().write(document.root.value))
            case .xml: return CommandOutcome(stdout: PlistWriter().write(document.root))
            }
        } catch where error.kind == .io {
            return CommandOutcome(.cannotRun("\(file): cannot read: \(error.osReason)"))
        } catch {
            return CommandOutcome(stderr: PlistErrorText.render(error, file: file), status: .findings)
        }
    }
}
