import AppStoreConnect
import CatalogJoins
import CodeGeneration
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint
import Support

/// What a job found: findings, the files it checked, and lines for stderr (which catalog lint
/// used, and the like).
public struct JobResult: Sendable {
    public var findings: [Diagnostic] = []
    public var files: [String] = []
    public var notes: [String] = []
    /// Files a catalog walk passed over, with why (`--verbose`).
    public var passedOver: [PassedOverFile] = []
    public var rules: [RuleDescription] = []
    /// Source files that could not be read at all (their `unreadable-source` findings, also among
    /// `findings`): the run reports the rest and then exits with status 2.
    public var unreadable: [Diagnostic] = []
    /// The product IDs the linted code asks for (readiness reads them).
    public var requested: [RequestedProductID] = []
}

/// `validate`: every catalog rule over the catalogs under the paths.
public struct ValidateJob: Sendable {
    /// The catalogs validated, and the bundle ID they are checked with.
    public var catalogs = CatalogSelection()
    public var retired: String?
    public var requiredLocales: [String] = []
    /// `--display-name-limit` and `--description-limit`; nil: the limit `iap.yml` sets, or the
    /// rule's own default (`DisplayNameTooLongRule.description.defaultLimit`).
    public var displayNameLimit: Int?
    public var descriptionLimit: Int?
    /// `rules.ID.limit` from `iap.yml` for every rule that takes one; the two above (which the
    /// command line may set) win for their rules.
    public var limits: [String: Int] = [:]
    /// A rule that finds more reports this many and a summary; nil (`--all-findings`) reports all.
    public var findingsPerRule: Int? = 100
    /// Rules run at once on a large catalog; nil: one per processor.
    public var jobs: Int?
    /// App Store Connect's price points (`--price-points`, `asc.price-points`): the price rules' file.
    public var pricePoints: String?

    public init() {}

    /// The job `iap.yml` describes (with none, the defaults), over the `paths` given (none: the
    /// file's catalogs), with the `bundleID` given (`--bundle-id`, which wins over the file's).
    public init(configuration config: Configuration, paths: [String] = [], bundleID: String? = nil) {
        catalogs = CatalogSelection(paths, configuration: config, bundleID: bundleID)
        retired = config.retired
        requiredLocales = config.requiredLocales
        displayNameLimit = config.displayNameLimit
        descriptionLimit = config.descriptionLimit
        limits = config.limits
        pricePoints = config.asc.pricePoints
    }

    /// The price-points rules' findings over the catalogs, with the file `pricePoints` names;
    /// none without one.
    public func pricePointFindings(_ loaded: CatalogSelection.Loaded) throws(ToolFailure) -> JobResult {
        guard let pricePoints else { return JobResult() }
        let points = try PricePlanJob.readPoints(pricePoints)
        let check = PricePointCheck(points: points, path: pricePoints)
        return JobResult(findings: loaded.catalogs.flatMap { check.check($0, limits: limits, findingsPerRule: findingsPerRule) },
                         files: [pricePoints], rules: PricePointRules.all)
    }

    /// The rules' options, the retired list read once (a missing one fails before any catalog is read).
    public func options() throws(ToolFailure) -> ValidationOptions {
        var options = ValidationOptions(requiredLocales: requiredLocales, displayNameLimit: displayNameLimit,
                                        descriptionLimit: descriptionLimit, findingsPerRule: findingsPerRule, jobs: jobs)
        options.limits.merge(limits) { set, _ in set }
        if let retired { options.retiredIDs = try RetiredList.load(retired) }
        return options
    }

    /// The findings over catalogs `load()` found and checked to hold one.
    public func run(_ loaded: CatalogSelection.Loaded, options: ValidationOptions) -> JobResult {
        let findings = CatalogValidator(options: options).validate(loaded.catalogs)
        return JobResult(findings: findings, files: loaded.catalogs.flatMap { $0.files.map(\.path) },
                         rules: CatalogRules.descriptions)
    }

    public func load() throws(ToolFailure) -> CatalogSelection.Loaded {
        try catalogs.load()
    }

    /// `iap validate`: the catalogs loaded (with `verbose`, the files the walk passed over said
    /// on stderr), every rule run over them, and the findings reported as `plan` says.
    public func run(plan: ReportPlan, verbose: Bool) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let options = try options()
            let loaded = try catalogs.loadRequired(verbose: verbose, into: &outcome)
            var found = run(loaded, options: options)
            let priced = try pricePointFindings(loaded)
            found.findings += priced.findings
            found.files += priced.files
            found.rules += priced.rules
            let rendered = try plan.render(command: "validate", findings: found.findings, rules: found.rules, files: found.files)
            let summary = TextReporter().summary(rendered.result.findings, files: loaded.fileCount)
                + ", \(plural(loaded.productCount, "product")) in \(plural(loaded.catalogs.count, "catalog"))"
            outcome.append(plan.deliver(rendered, summary: summary))
            outcome.retained += [loaded, found]
        } catch {
            outcome.fail(error)
        }
        return outcome
    }
}

/// `lint`: the sources under the paths, each file with the catalog of its app.
public struct LintJob: Sendable {
    /// The sources (none: the working folder).
    public var paths: [String] = []
    /// `--catalog`: the one catalog the sources sell; without it, the catalogs `catalogs` selects
    /// (`iap.yml`'s catalogs, else those found beside the sources), each for the sources of its app.
    public var catalog: String?
    /// Where the catalogs are looked for, and the bundle ID they are read with.
    public var catalogs = CatalogSelection()
    /// Catalogs already loaded from `catalogs` (by `check`'s validation), so they are not walked twice.
    public var loadedCatalogs: [Catalog]?
    public var excludes: [String] = []
    public var includeTests = false
    /// Whether a note says when no catalog is found for the sources (`check` says it itself).
    public var saysNoCatalog = true
    /// Files linted at once; nil: one per processor.
    public var jobs: Int?

    public init() {}

    /// The job `iap.yml` describes: its lint paths and options, and its catalogs for the titles
    /// and IDs when the file names any (with no file, the catalogs beside the sources). Sources
    /// named in `paths` replace the file's, with the catalogs beside them; `catalog` (`--catalog`)
    /// and `bundleID` (`--bundle-id`) win over the file's.
    public init(configuration config: Configuration, paths: [String] = [], catalog: String? = nil, bundleID: String? = nil) {
        self.paths = paths.isEmpty ? config.lintPaths : paths
        self.catalog = catalog ?? config.lintCatalog
        catalogs = CatalogSelection(paths, configuration: config, bundleID: bundleID)
        excludes = config.lintExcludes
        includeTests = config.lintIncludeTests
    }

    /// What `prepare` set up: the linter with its catalogs, the files it will read, notes on which
    /// catalog it uses, and what the source walk passed over (`--verbose`).
    public struct Prepared: Sendable {
        public var linter: SourceLinter
        public var files: [String]
        public var notes: [String]
        public var passedOver: [PassedOverFile]
    }

    /// The linter set up with its catalogs, the files it will read, and notes on which catalog it uses.
    public func prepare() throws(ToolFailure) -> Prepared {
        let inputs = paths.isEmpty ? ["."] : paths
        var linter = SourceLinter(excludes: excludes, includeTests: includeTests)
        linter.jobs = jobs
        var notes: [String] = []
        if let catalog {
            linter.context = LintContext(catalog: try catalogs.naming([catalog]).loadOne(subject: "--catalog \(catalog)",
                instead: "leave out --catalog: each app's sources are checked with the catalog of their app"))
        } else {
            // The configured catalogs, or those beside the sources (with neither, the default
            // every command reads); each for the files of its own app.
            let folders: [String], found: [Catalog]
            if let loadedCatalogs {
                (folders, found) = (catalogs.resolvedPaths, CatalogSelection.appCatalogs(loadedCatalogs))
            } else {
                (folders, found) = try catalogs.loadBeside()
            }
            for catalog in found {
                notes.append("iap: using the catalog in \(catalog.name) (\(plural(catalog.products.count, "product"))\(catalog.bundleID.map { ", bundle ID \($0.value)" } ?? ""))")
                linter.scopedContexts.append((catalog.name, LintContext(catalog: catalog)))
            }
            // One app: its catalog serves the sources outside its folder too (shared packages).
            if found.count == 1 { linter.context = linter.scopedContexts[0].context }
            if found.isEmpty, !folders.isEmpty, saysNoCatalog {
                notes.append("iap: no catalog found in \(folders.joined(separator: ", ")): product titles and IDs are not checked (pass --catalog)")
            }
        }
        do {
            let walked = try linter.walk(inputs)
            return Prepared(linter: linter, files: walked.files, notes: notes, passedOver: walked.passedOver)
        } catch {
            if case .notSource = error { throw .usage(error.description) }
            throw .cannotRun(error.description)
        }
    }

    /// What linting found, for `check` to report with the rest.
    public func findings() throws(ToolFailure) -> JobResult {
        let prepared = try prepare()
        let run = prepared.linter.run(files: prepared.files)
        return JobResult(findings: run.diagnostics, files: prepared.files, notes: prepared.notes, passedOver: prepared.passedOver,
                         rules: LintRules.all, unreadable: run.unreadable, requested: run.requested)
    }

    /// `iap lint --rules`: the lint rules, one line each.
    public static var ruleList: String { RuleListing.text(LintRules.all) }

    /// When a walk found files named like sources but passed them over for what they hold (binary
    /// data, AppleDouble copies), "no source file" names them: the user sees a source there.
    static func sourcesPassedOver(_ passedOver: [PassedOverFile]) -> String {
        let sources = passedOver.filter { !$0.isFolder && SourceLinter.extensions.contains(($0.path as NSString).pathExtension) }
        guard let first = sources.first else { return "" }
        let more = sources.count > 1 ? " and \(sources.count - 1) more (--verbose lists them)" : ""
        return "; passed over \(first.path): \(first.reason)\(more)"
    }

    /// `iap lint`: the sources linted, each with its app's catalog, and the findings reported as
    /// `plan` says. With `verbose`, the files the walk passed over are said on stderr. `progress`,
    /// when given (the CLI gives it on a terminal), is called once before a long run with what
    /// the run has said so far and a line that it is linting, so they show at once.
    public func run(plan: ReportPlan, verbose: Bool, progress: (@Sendable (String) -> Void)? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let prepared = try prepare()
            let files = prepared.files
            if verbose { outcome.stderr += PassedOverFile.lines(prepared.passedOver) }
            for note in prepared.notes { outcome.stderr += note + "\n" }
            if files.isEmpty {
                // "0 files checked" and exit 0 would pass a CI job pointed at the wrong folder.
                let skipped = includeTests ? "" : "; test files and folders are skipped without --include-tests"
                throw .cannotRun("no source file to lint in \(paths.joined(separator: ", ")): iap lints .swift, .m, .mm and .h files\(skipped)"
                                 + Self.sourcesPassedOver(prepared.passedOver))
            }
            if files.count > 200, let progress {
                progress(outcome.stderr + "iap: linting \(files.count) files…\n")
                outcome.stderr = ""
            }
            let linted = prepared.linter.run(files: files)
            let rendered = try plan.render(command: "lint", findings: linted.diagnostics, rules: LintRules.all, files: files)
            outcome.append(plan.deliver(rendered, summary: TextReporter().summary(rendered.result.findings, files: files.count),
                                        unreadable: linted.unreadable))
            outcome.retained.append(linted)
        } catch {
            outcome.fail(error)
        }
        return outcome
    }
}
