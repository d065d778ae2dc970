import AppStoreConnect
import CatalogJoins
import CatalogTool
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import Support

/// `iap asc plan` and `iap asc apply`: the declared catalog made true in App Store Connect.
public enum ASCPlanJob {
    /// The largest plan file read (a plan of 10,000 products in 175 territories is some 60 MB).
    static let maxPlanBytes = 128 << 20

    /// `iap asc plan`: the plan for the app's catalog against the snapshot (pulled first with
    /// `pulling`), written to `output` as JSON and to `markdown`, and reported as findings.
    public static func plan(snapshot path: String, catalogs: CatalogSelection, report: ReportPlan, output: String?, markdown: String?,
                            verbose: Bool, pulling: (app: String, connection: ASCJob.Connection)? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let (snapshot, text) = try ASCJob.comparedSnapshot(path, pulling: pulling, saying: &outcome.stderr) { (_, stop, _) throws(ToolFailure) -> Never in
                throw ToolFailure("\(stop.description) — nothing planned; run again later", status: .partial)
            }
            let loaded = try catalogs.loadRequired(verbose: verbose, into: &outcome)
            let catalog = try ASCJob.catalogOf(snapshot, in: loaded.catalogs)
            let plan = Planner(snapshot: snapshot, path: path, text: text).plan(catalog)
            if let output {
                outcome.files.append(OutputContent(path: output, content: plan.encoded(),
                                                   note: "iap: wrote \(output) (\(plural(plan.steps.count, "step")))", label: "the plan"))
            }
            if let markdown {
                outcome.files.append(OutputContent(path: markdown, content: Self.markdown(plan, snapshot: path, planFile: output),
                                                   note: "iap: wrote \(markdown)", label: "the plan's Markdown"))
            }
            let findings = PlanRules.findings(plan, snapshotPath: path)
            let files = catalog.files.map(\.path) + [path]
            let rendered = try report.render(command: "asc plan", findings: findings, rules: PlanRules.all, files: files)
            let errors = plan.blocked.filter { $0.level == .error }.count
            let summary = "plan: \(plural(plan.steps.count, "step")) to apply, \(plural(errors, "change")) App Store Connect cannot make, "
                + "\(plural(plan.blocked.count - errors, "difference")) left as it is (\(catalog.products.count) products against "
                + "\(snapshot.productCount) in App Store Connect)"
            outcome.append(report.deliver(rendered, summary: summary))
            outcome.retained += [loaded]
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// The plan as a pull request's comment: a table of the steps, then what is not done.
    static func markdown(_ plan: CatalogPlan, snapshot: String, planFile: String?) -> String {
        func cell(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
                .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "`", with: "'")
        }
        let app = plan.app.name ?? plan.app.bundleId ?? "Apple ID \(plan.app.id)"
        var out = "### App Store Connect plan for \(cell(app))\n\n"
        let errors = plan.blocked.filter { $0.level == .error }
        out += "\(plural(plan.steps.count, "step")) to apply, \(plural(errors.count, "change")) App Store Connect cannot make, "
            + "\(plural(plan.blocked.count - errors.count, "difference")) left as it is; against `\(cell(snapshot))`.\n\n"
        if !plan.steps.isEmpty {
            out += "| # | change | to | now |\n|---:|---|---|---|\n"
            let shown = plan.steps.prefix(500)
            for step in shown {
                let to = step.set.keys.sorted().map { "\($0): \(step.set[$0]!)" }.joined(separator: "; ")
                let now = step.before.map { $0.isEmpty ? "—" : $0.keys.sorted().map { "\($0): \(step.before![$0]!)" }.joined(separator: "; ") } ?? "new"
                out += "| \(step.number) | \(cell(PlanApply.describe(step))) | \(cell(String(to.prefix(300)))) | \(cell(String(now.prefix(300)))) |\n"
            }
            if plan.steps.count > shown.count { out += "\n… and \(plan.steps.count - shown.count) steps more (the plan file has them all).\n" }
            out += "\n"
        }
        if !errors.isEmpty {
            out += "**Cannot be made** (change the catalog):\n\n"
            for entry in errors { out += "- \(cell(entry.product ?? entry.group ?? "")): \(cell(entry.what)) — \(cell(entry.reason))\n" }
            out += "\n"
        }
        let left = plan.blocked.filter { $0.level == .info }
        if !left.isEmpty {
            out += "**Left as it is:**\n\n"
            for entry in left.prefix(200) { out += "- \(cell(entry.product ?? entry.group ?? "")): \(cell(entry.what)) — \(cell(entry.reason))\n" }
            if left.count > 200 { out += "- … and \(left.count - 200) more\n" }
            out += "\n"
        }
        if let planFile { out += "Apply it on the main branch: `iap asc apply \(cell(planFile)) --confirm`\n" }
        return out
    }

    /// What `iap asc apply` is asked for.
    public struct ApplyRequest: Sendable {
        public var plan: String
        public var confirm: Bool
        public var migrateExistingSubscribers: Bool
        /// The journal (default: the plan's path + `.journal`).
        public var journal: String?

        public init(plan: String, confirm: Bool, migrateExistingSubscribers: Bool, journal: String?) {
            self.plan = plan
            self.confirm = confirm
            self.migrateExistingSubscribers = migrateExistingSubscribers
            self.journal = journal
        }
    }

    /// `iap asc apply PLAN`: reads App Store Connect, refuses a stale plan, says what it would
    /// write (or, with `--confirm`, writes it, journaled), then reads everything back.
    public static func apply(_ request: ApplyRequest, connection: ASCJob.Connection) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let data: Data
            switch FileContents.read(request.plan, limit: maxPlanBytes) {
            case .success(let bytes): data = bytes
            case .failure(let failure): throw .cannotRun("cannot read the plan \(request.plan): \(failure.phrase)")
            }
            let plan: CatalogPlan
            do {
                plan = try CatalogPlan.decode(data, path: request.plan)
            } catch {
                throw .cannotRun(error.description)
            }
            let planHash = CatalogPlan.sha256(data)
            let journalPath = request.journal ?? request.plan + ".journal"
            let journal = Journal(path: journalPath)
            let resuming = journal.isOf(plan: planHash)
            var applier = PlanApply(plan: plan, allTerritories: Storefronts.all.map(\.alpha3))
            applier.migrateExistingSubscribers = request.migrateExistingSubscribers
            let client = try ASCJob.makeClient(environment: connection.environment, variables: connection.variables, timeout: connection.timeout,
                                               transport: connection.transport, sleep: connection.sleep, saying: &outcome.stderr)
            let live = try read(applier, client: client, connections: connection.connections)
            let stale = applier.staleness(live, resuming: resuming)
            if !stale.isEmpty {
                let shown = stale.prefix(20).map { "  \($0)" }.joined(separator: "\n")
                throw ToolFailure("the plan is stale: App Store Connect is not as the plan found it, so nothing was written:\n\(shown)"
                                  + (stale.count > 20 ? "\n  … and \(stale.count - 20) more" : "")
                                  + "\nmake the plan again against App Store Connect now: `iap asc plan --app \(Escape.shellArgument(plan.app.bundleId ?? plan.app.id)) --plan \(Escape.shellArgument(request.plan, path: true))`",
                                  status: .findings)
            }
            let statuses = applier.statuses(live)
            let toWrite = zip(plan.steps, statuses).filter { $0.1 == .planned }.map(\.0)
            let already = statuses.filter { $0 == .done }.count
            if resuming { outcome.stderr += "iap: resuming the apply journaled in \(journalPath)\n" }
            guard request.confirm else {
                for step in toWrite { outcome.stdout += "would \(PlanApply.describe(step)) (step \(step.number))\n" }
                outcome.stdout += "\(plural(toWrite.count, "step")) to write, \(already) already done; nothing written: run with --confirm to write "
                    + (toWrite.isEmpty ? "(nothing to do)" : "them") + "\n"
                return outcome
            }
            guard !toWrite.isEmpty else {
                outcome.stdout += "nothing to write: App Store Connect holds every step of the plan (\(plan.steps.count))\n"
                return outcome
            }
            try journal.open(plan: planHash, fresh: !resuming)
            var written = 0
            do {
                try applier.run(live: live, client: client) { event in
                    journal.record(event)
                    if case .written(let number, _) = event {
                        written += 1
                        outcome.stderr += "iap: done step \(number): \(PlanApply.describe(plan.steps[number - 1]))\n"
                    }
                }
            } catch {
                journal.close()
                let temporary = error.error?.isTemporary ?? false
                throw ToolFailure("stopped at \(error.description)\n"
                                  + "\(plural(written, "step")) written this run; run the same command again: it reads App Store Connect first and writes only what is still missing",
                                  status: temporary ? .partial : .findings)
            }
            journal.close()
            // Everything read back: each step must now be done.
            let after = try read(applier, client: client, connections: connection.connections)
            let wrong = applier.verify(after)
            if !wrong.isEmpty {
                throw ToolFailure("wrote \(plural(written, "step")), but App Store Connect does not hold all of the plan when read back:\n"
                                  + wrong.prefix(20).map { "  \($0)" }.joined(separator: "\n"), status: .findings)
            }
            outcome.stdout += "applied \(plural(written, "step")) (\(already) already done); read back: App Store Connect holds every step of the plan "
                + "(\(plural(client.requestCount, "request")))\n"
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    private static func read(_ applier: PlanApply, client: ASCClient, connections: Int) throws(ToolFailure) -> ASCSnapshot {
        let outcome: SnapshotPull.Outcome
        do {
            outcome = try applier.pull(connections: connections).pull(app: applier.plan.app.id, client: client)
        } catch {
            throw ToolFailure(error.description, status: error.isTemporary ? .partial : .cannotRun)
        }
        if let stop = outcome.stoppedBy {
            throw ToolFailure("\(stop.description) — App Store Connect could not be read whole; nothing written. Run again later", status: .partial)
        }
        return outcome.snapshot
    }

    /// The apply's journal: one JSON line a step written (and before it), appended and flushed
    /// to the disk as it goes, so a run stopped anywhere leaves a record of what it did.
    final class Journal {
        let path: String
        private var descriptor: Int32 = -1

        init(path: String) {
            self.path = path
        }

        /// Whether the journal is of the plan with this hash (its first line names it).
        func isOf(plan hash: String) -> Bool {
            // The first line only (`{"plan":"<64 hexadecimal digits>"}`), however long the journal.
            guard case .success(let data) = FileContents.head(path, count: 128) else { return false }
            let first = data.prefix { $0 != 0x0A }
            struct Header: Decodable { var plan: String }
            return (try? JSONDecoder().decode(Header.self, from: Data(first)))?.plan == hash
        }

        func open(plan hash: String, fresh: Bool) throws(ToolFailure) {
            do {
                descriptor = try OutputFile.openRegular(path, truncate: fresh)
            } catch {
                throw .cannotRun("the journal: \(error.description) (or name another with --journal)")
            }
            if fresh { write(#"{"plan":"\#(hash)"}"#) }
        }

        func record(_ event: PlanApply.Event) {
            switch event {
            case .starting(let step): write(#"{"step":\#(step),"event":"start"}"#)
            case .written(let step, let id): write(#"{"step":\#(step),"event":"written"\#(id.map { #","id":"\#($0)""# } ?? "")}"#)
            case .alreadyDone(let step): write(#"{"step":\#(step),"event":"already-done"}"#)
            }
        }

        private func write(_ line: String) {
            guard descriptor >= 0 else { return }
            _ = Descriptor.write(line + "\n", to: descriptor)
            fsync(descriptor)
        }

        func close() {
            if descriptor >= 0 { _ = Foundation.close(descriptor) }
            descriptor = -1
        }
    }
}
