import IAPCatalog
import Diagnostics

extension GenJob {
    /// `iap gen -o FILE`: the constants written (atomically, only when changed), or with `check`
    /// compared with the file there and reported as `plan` says: with text on stdout, the diff
    /// there and the state on stderr, as a reviewer reads it. A catalog with unreadable files is
    /// refused with the first one's finding.
    /// `update` is the command line a stale file's message names (`GenerationCheck.update`).
    public func run(check: Bool, plan: ReportPlan, update: String? = nil) -> CommandOutcome {
        do throws(ToolFailure) {
            let catalog: Catalog
            do throws(ToolFailure) {
                catalog = try loadCatalog()
            } catch where !error.findings.isEmpty {
                let problem = error.findings[0]
                var outcome = CommandOutcome(stderr: "\(problem.location): error: \(problem.message) [\(problem.ruleID)]\n"
                                             + "iap: error: the catalog has unreadable files; fix them before generating\n", status: .findings)
                outcome.findings = error.findings
                return outcome
            }
            let content = try generate(catalog)
            guard check else {
                return ConvertJob.Result(text: content, findings: [], losses: [], productCount: catalog.products.count)
                    .deliver(to: output, check: false, command: "gen", update: update)
            }
            let state = GenerationCheck(output: output, generated: content, update: update)
            var rendered = try plan.render(command: "gen", findings: state.findings, rules: ToolRules.all, files: [output])
            var outcome = CommandOutcome()
            if plan.stdoutFormat == TextReporter.identifier {
                // Text: the diff on stdout and one line on stderr, as a reviewer reads it.
                rendered.stdout = state.diff ?? ""
                outcome.stderr = "iap: \(state.statusLine)\n"
            }
            outcome.append(plan.deliver(rendered, summary: nil))
            return outcome
        } catch {
            return CommandOutcome(error)
        }
    }
}
