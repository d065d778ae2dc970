import AppStoreConnect
import CatalogJoins
import CodeGeneration
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint
import Support

/// `iap check`: validate, `gen --check` for each configured output, lint, and the drift from
/// App Store Connect's snapshot (`asc: snapshot:`) and the plan against it (`asc: plan: true`), as `iap.yml` says; one list of findings for one report and one exit status. With no `iap.yml` it
/// validates `catalogs/`.
public struct CheckJob: Sendable {
    public var configuration: Configuration
    /// `--bundle-id` from the command line; wins over the file's.
    public var bundleID: String?
    /// Rules, and source files, checked at once; nil: one per processor.
    public var jobs: Int?

    public init(configuration: Configuration, bundleID: String? = nil) {
        self.configuration = configuration
        self.bundleID = bundleID
    }

    /// What each part checked, for the summary line.
    public struct Counts: Sendable {
        public var catalogFiles = 0
        public var products = 0
        public var catalogs = 0
        public var generated = 0
        public var sources = 0
    }

    /// `iap check`: validation, the generated files and lint, as `iap.yml` says; one report as
    /// `plan` says and one exit status. With `verbose`, the files the walks passed over are said on stderr.
    public func run(plan: ReportPlan, verbose: Bool) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let (found, counts) = try findings()
            if verbose { outcome.stderr += PassedOverFile.lines(found.passedOver) }
            for note in found.notes { outcome.stderr += note + "\n" }
            let rendered = try plan.render(command: "check", findings: found.findings, rules: found.rules, files: found.files)
            outcome.append(plan.deliver(rendered, summary: "\(counts.summary): \(rendered.result.severityCounts)", unreadable: found.unreadable))
            outcome.retained.append(found)
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// What each part found, and what each checked.
    public func findings() throws(ToolFailure) -> (result: JobResult, counts: Counts) {
        var result = JobResult()
        var counts = Counts()
        let config = configuration

        var validate = ValidateJob(configuration: config, bundleID: bundleID)
        validate.jobs = jobs
        if validate.catalogs.origin == .defaulted {
            // No iap.yml: the default every command reads (CatalogSelection).
            result.notes.append("iap: no iap.yml here or above; validating \(validate.catalogs.defaultDescription) (iap init writes one)")
        }
        let options = try validate.options()
        let loaded = try validate.load()
        result.passedOver = loaded.passedOver
        if loaded.catalogs.isEmpty, config.path != nil, !config.catalogsNamed, !config.lintPaths.isEmpty {
            // iap.yml names no catalogs and its folder holds none: the sources are still linted.
            result.notes.append("iap: no catalog found under \(config.root): only lint runs, and product titles and IDs in the sources are not "
                                + "checked against a catalog (name the catalogs in \(config.path!) if there are some)")
        } else {
            _ = try loaded.requireCatalogs(verbose: false)
            let validated = validate.run(loaded, options: options)
            result.findings += validated.findings
            result.files += validated.files
            result.rules += validated.rules
            let priced = try validate.pricePointFindings(loaded)
            result.findings += priced.findings
            result.files += priced.files
            result.rules += priced.rules
        }
        counts.catalogFiles = loaded.catalogFileCount
        counts.products = loaded.productCount
        counts.catalogs = loaded.catalogs.count

        if !config.generate.isEmpty { result.rules.append(StaleGeneratedFileRule.description) }
        if config.generate.contains(where: { $0.output.lowercased().hasSuffix(".storekit") }) {
            result.rules += ToolRules.storeKit
        }
        let generation = ConfiguredGeneration(configuration: config)
        for (index, entry) in config.generate.enumerated() {
            // Made as iap gen / iap storekit without -o make it, so their hint does what this compared.
            let made = try generation.make(index, entry)
            if made.command == "storekit" { result.findings += made.findings }
            guard let text = made.text else {
                result.notes.append(made.note ?? "")
                continue
            }
            let check = GenerationCheck(output: entry.output, generated: text, command: made.command,
                                        update: generation.updateCommand(made.command))
            result.findings += check.findings
            result.files.append(entry.output)
            counts.generated += 1
        }

        if !config.lintPaths.isEmpty {
            var lint = LintJob(configuration: config, bundleID: bundleID)
            lint.jobs = jobs
            // The catalogs validation loaded, not walked for a second time.
            lint.catalogs = validate.catalogs
            lint.loadedCatalogs = loaded.catalogs
            // "No catalog found" is said once, above, with what it means for lint.
            lint.saysNoCatalog = false
            let linted = try lint.findings()
            result.findings += linted.findings
            result.files += linted.files
            result.notes += linted.notes
            // Both walks may meet one folder of junk: said once.
            result.passedOver = Array(Set(result.passedOver + linted.passedOver)).sorted { ($0.path, $0.reason) < ($1.path, $1.reason) }
            result.rules += linted.rules
            result.unreadable += linted.unreadable
            result.requested = linted.requested
            counts.sources = linted.files.count
        }
        // `asc: snapshot:` — the catalog against what App Store Connect holds, offline: the drift,
        // and whether each product (and each ID the linted code asks for) will be served.
        if let snapshotPath = config.asc.snapshot, !loaded.catalogs.isEmpty {
            let (snapshot, text) = try ASCJob.readSnapshot(snapshotPath)
            let catalog = try ASCJob.catalogOf(snapshot, in: loaded.catalogs)
            let drift = DriftCheck(snapshot: snapshot, path: snapshotPath, text: text)
            result.findings += drift.check(catalog, findingsPerRule: validate.findingsPerRule)
            let requests = result.requested.map { CodeRequest(id: $0.id, location: $0.location) }
            result.findings += Readiness(catalog: catalog, drift: drift, requests: requests).ruleFindings(inCheck: true, findingsPerRule: validate.findingsPerRule)
            result.files.append(snapshotPath)
            result.rules += ASCRules.all + ReadinessRules.all
            // `asc: plan: true` — what `iap asc apply` would write, and what it cannot.
            if config.asc.plan {
                let plan = Planner(snapshot: snapshot, path: snapshotPath, text: text).plan(catalog)
                result.findings += PlanRules.findings(plan, snapshotPath: snapshotPath)
                result.rules += PlanRules.all
            }
        }
        return (result, counts)
    }
}

extension CheckJob.Counts {
    /// "13 catalog files (10029 products in 4 catalogs), 1 generated file, 2 source files checked".
    public var summary: String {
        var parts: [String] = []
        if catalogs > 0 { parts.append("\(plural(catalogFiles, "catalog file")) (\(plural(products, "product")) in \(plural(catalogs, "catalog")))") }
        if generated > 0 { parts.append(plural(generated, "generated file")) }
        if sources > 0 { parts.append(plural(sources, "source file")) }
        return parts.isEmpty ? "nothing checked" : parts.joined(separator: ", ") + " checked"
    }
}
