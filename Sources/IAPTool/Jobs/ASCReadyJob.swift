import AppStoreConnect
import CatalogJoins
import CatalogTool
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint
import Support

/// `iap asc ready`: will each product sell? The catalog's products and the IDs the code asks for,
/// against a snapshot, one verdict per place (`Readiness`), with the causes as findings.
public struct ASCReadyJob: Sendable {
    /// The snapshot to compare with.
    public var snapshot: String
    public var catalogs: CatalogSelection
    /// Where the app's sources are (none: `iap.yml`'s lint paths, else the working folder).
    public var sources: [String]
    public var excludes: [String]
    /// The storefront that stands for every territory the snapshot names (`--storefront all`).
    public static let everyStorefront = Readiness.everyStorefront
    /// The App Store columns (none: the snapshot's storefront).
    public var storefronts: [String]
    public var configuration: Configuration

    public init(snapshot: String, catalogs: CatalogSelection, sources: [String], storefronts: [String], configuration: Configuration) {
        self.snapshot = snapshot
        self.catalogs = catalogs
        self.sources = sources
        self.storefronts = storefronts
        self.configuration = configuration
        excludes = configuration.lintExcludes
    }

    /// The verdicts as a table: text (padded columns) or Markdown.
    public static func table(_ readiness: Readiness, markdown: Bool) -> String {
        let header = ["PRODUCT", "ASKED BY"] + readiness.places.map { $0.description.uppercased() }
        // IDs from a snapshot or the code are anyone's text: control characters escaped, bounded.
        let rows = readiness.rows.map { row in
            [Quote.escaped(row.id, open: "", close: ""), row.askedBy.map(Self.shortLocation) ?? "—"] + row.verdicts.map(\.word)
        }
        guard markdown else { return ListText.table(header: header, rows: rows) }
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        let code = { (id: String) in "`" + id.replacingOccurrences(of: "`", with: "'") + "`" }
        return line(header) + line(header.map { _ in "---" }) + rows.map { line([code($0[0])] + $0.dropFirst()) }.joined()
    }

    /// `App/Store.swift:7` for a location: the path as the walk found it (two files of one name
    /// are two places) and the line.
    static func shortLocation(_ location: SourceLocation) -> String {
        let name = Quote.escaped(location.path, open: "", close: "")
        return location.line > 0 ? "\(name):\(location.line)" : name
    }

    /// The product IDs the app's code asks for (lint's product-ID flow, with the catalog's IDs
    /// known), and what the walk said.
    func requests(for catalog: Catalog, notes: inout [String]) throws(ToolFailure) -> (requests: [CodeRequest], files: [String]) {
        var lint = LintJob(configuration: configuration, paths: sources)
        lint.loadedCatalogs = [catalog]
        lint.saysNoCatalog = false
        lint.excludes = excludes
        let prepared = try lint.prepare()
        guard !prepared.files.isEmpty else {
            let looked = sources.isEmpty ? (configuration.lintPaths.isEmpty ? ["the working folder"] : configuration.lintPaths) : sources
            notes.append("iap: no Swift or Objective-C source in \(looked.joined(separator: ", ")): verdicts for the catalog's products only; "
                         + "name the app's sources with --sources")
            return ([], [])
        }
        let run = prepared.linter.run(files: prepared.files)
        // A source that could not be read may hold asks: said, never passed over in silence.
        let unread = run.diagnostics.filter { $0.ruleID == UnreadableSourceRule.description.id }
        for finding in unread.prefix(10) {
            notes.append("iap: warning: \(finding.location.path): \(finding.message); the IDs it asks for, if any, are not known")
        }
        if unread.count > 10 { notes.append("iap: warning: and \(unread.count - 10) more sources not read") }
        return (run.requested.map { CodeRequest(id: $0.id, location: $0.location) }, prepared.files)
    }

    public func run(plan: ReportPlan, verbose: Bool) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let (snapshot, text) = try ASCJob.readSnapshot(self.snapshot)
            let loaded = try catalogs.loadRequired(verbose: verbose, into: &outcome)
            let catalog = try ASCJob.catalogOf(snapshot, in: loaded.catalogs)
            // A snapshot of another app would make every product a missing one: one clear error instead.
            if let ours = catalog.bundleID?.value, let theirs = snapshot.app.bundleId, ours != theirs {
                throw .cannotRun("\(self.snapshot) is App Store Connect's \(Quote.escaped(theirs)), but the catalog \(catalog.name) is for \(Quote.escaped(ours)): "
                                 + "pull the app's own snapshot (`iap asc pull --app \(Escape.shellArgument(ours, path: false)) --snapshot \(Escape.shellArgument(self.snapshot, path: true))`), "
                                 + "or name its catalog")
            }
            if storefronts.contains(Readiness.everyStorefront), Readiness.storefronts([Readiness.everyStorefront], in: snapshot).isEmpty {
                throw .cannotRun("--storefront all: \(self.snapshot) names no territory; pull it with the territories and prices "
                                 + "(`iap asc pull --availability --all-storefronts --snapshot \(Escape.shellArgument(self.snapshot, path: true))`)")
            }
            var notes: [String] = []
            let (requests, sourceFiles) = try requests(for: catalog, notes: &notes)
            let drift = DriftCheck(snapshot: snapshot, path: self.snapshot, text: text)
            let elsewhere = Set(loaded.catalogs.filter { $0.name != catalog.name }.flatMap { $0.products.map(\.id) })
            let readiness = Readiness(catalog: catalog, drift: drift, requests: requests, storefronts: storefronts, elsewhere: elsewhere)
            let files = catalog.files.map(\.path) + [self.snapshot] + sourceFiles
            let found = readiness.findings()
            var rendered = try plan.render(command: "asc ready", findings: found, rules: ReadinessRules.all + ASCRules.all, files: files)
            // The table leads the report a person reads: text and Markdown, on stdout or in -o.
            if plan.stdoutFormat == TextReporter.identifier || plan.stdoutFormat == MarkdownReporter.identifier {
                let markdown = plan.stdoutFormat == MarkdownReporter.identifier
                let report = plan.output.flatMap { path in rendered.files.first { $0.path == path }?.content } ?? rendered.stdout
                let table = Self.table(readiness, markdown: markdown)
                rendered.replaceReport(with: table + (report.isEmpty ? "" : "\n" + report), plan: plan)
            }
            // What a "?" stands for, once each, with the columns it is in.
            var unknown: [String: Set<Readiness.Place>] = [:]
            var order: [String] = []
            for row in readiness.rows {
                for (place, verdict) in zip(readiness.places, row.verdicts) {
                    guard case .unknown(let why) = verdict else { continue }
                    if unknown[why] == nil { order.append(why) }
                    unknown[why, default: []].insert(place)
                }
            }
            for why in order {
                let places = readiness.places.filter { unknown[why]?.contains($0) == true }.map(\.description)
                let shown = places.count <= 3 ? places.joined(separator: ", ") : "\(places[0]) and \(places.count - 1) more columns"
                notes.append("iap: ? in \(shown): the snapshot cannot tell; \(why)")
            }
            // A "no" that no finding explains (a product App Store Connect holds that only the code
            // asks for, one the StoreKit configuration lacks) says its cause here.
            // What the findings name: every quoted text of their messages (at most 100 a rule).
            var named: Set<Substring> = []
            for finding in found {
                for (index, part) in finding.message.split(separator: "'", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                    named.insert(part)
                }
            }
            var unexplained: [String] = []
            for row in readiness.rows where !named.contains(Substring(Quote.bounded(row.id).dropFirst().dropLast())) {
                for (place, verdict) in zip(readiness.places, row.verdicts) {
                    if case .notServed(let why) = verdict { unexplained.append("\(Quote.escaped(row.id)) is not served in \(place): \(why)") }
                }
            }
            for line in unexplained.prefix(20) { notes.append("iap: \(line)") }
            if unexplained.count > 20 { notes.append("iap: and \(unexplained.count - 20) more not served without a finding (--format markdown shows the table)") }
            let notServed = readiness.askedForAndNotServed
            let asked = Set(requests.map(\.id)).count
            let lists = catalog.files.contains { if case .productList = $0.content { true } else { false } }
            let whatAsks = asked > 0 ? "\(plural(asked, "ID")) asked for in code"
                : "no ID found asked for in code" + (lists ? ", so its product lists stand for what it asks" : ": nothing is known to be asked for")
            let summary = "\(plural(readiness.rows.count, "product")) (\(whatAsks)): "
                + (notServed.isEmpty ? "none of those the app asks for is refused by the App Store"
                    : "\(notServed.count) the app asks for \(notServed.count == 1 ? "is" : "are") not served in the App Store")
            var delivered = plan.deliver(rendered, summary: summary)
            if !notServed.isEmpty { delivered.status = delivered.status.combined(with: .findings) }
            for note in notes { outcome.stderr += note + "\n" }
            outcome.append(delivered)
            outcome.retained += [loaded]
        } catch {
            outcome.fail(error)
        }
        return outcome
    }
}
