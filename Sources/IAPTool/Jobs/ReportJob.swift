import AppStoreConnect
import CatalogJoins
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import PropertyList
import ReportRendering
import SalesReports
import Support

/// `iap report`: the price matrix of a catalog, or App Store Connect sales and finance reports
/// totalled and joined with the catalog, in Markdown, CSV, JSON or HTML.
public enum ReportJob {
    public enum Format: String, Sendable, CaseIterable {
        case markdown, csv, json, html
    }

    /// What a report run made: the document and the findings that go to stderr and the exit status.
    public struct Made: Sendable {
        public var content: String
        public var findings: [Diagnostic]
        public var summary: String
        /// Set when there is nothing to write: the findings say why, then this message.
        public var failure: ToolFailure?
        /// Report files that could not be opened (their findings, also in `findings`): the
        /// document covers the others, and the run exits with status 2.
        public var unreadable: [Diagnostic] = []
        /// The report files read (sales reports only).
        public var reportCount = 0
    }

    static var generator: String { "iap \(IAPToolInfo.version)" }

    /// `iap report`: the price matrix of the selected catalogs in `storefronts`, or with `sales`
    /// those report files totalled (joined with the catalogs when someone named them: a PATH,
    /// `--catalog` or `iap.yml`), written to `output` (atomically) or stdout; the findings on
    /// stderr. `iap.yml` gives the rules' severities and the refund-rate limit.
    public static func run(catalogs selection: CatalogSelection, sales: [String], storefronts: String?, format: Format, locale: String,
                           output: String?, configuration: Configuration, fetch: ASCJob.Fetch? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            if let fetch {
                guard sales.count == 1 else { throw .usage("--fetch downloads into one folder: name it with --sales FOLDER") }
                if storefronts != nil { throw .usage("--storefronts is for the price matrix; sales reports show the storefronts that sold") }
                try ASCJob.fetchReports(fetch, into: sales[0], configuration: configuration, saying: &outcome.stderr)
            }
            let made: Made
            if !sales.isEmpty {
                if storefronts != nil { throw .usage("--storefronts is for the price matrix; sales reports show the storefronts that sold") }
                let catalogs = selection.isNamed ? try selection.load().requireCatalogs(verbose: false) : []
                // A scheduled fetch of days without sales leaves the folder empty: that is news, not
                // a failure; the totals are empty, and said to be.
                made = try Self.sales(files: sales, catalogs: catalogs, format: format, locale: locale,
                                      severities: configuration.severities, limits: configuration.limits,
                                      emptyFolder: fetch != nil)
                if made.reportCount == 0 {
                    outcome.stderr += "iap: no sales to total: \(sales[0]) holds no report yet (App Store Connect has none for the dates asked); "
                        + "the totals are empty\n"
                }
            } else {
                let catalogs = try selection.load().requireCatalogs(verbose: false)
                made = try prices(catalogs: catalogs, storefronts: storefronts, format: format, severities: configuration.severities)
            }
            outcome.retained.append(made)
            outcome.findings = made.findings
            outcome.stderr += TextReporter().render(made.findings)
            if let failure = made.failure { throw failure }
            if let output {
                outcome.files = [OutputContent(path: output, content: made.content, note: "iap: wrote \(output): \(made.summary)")]
            } else {
                outcome.stdout = made.content
            }
            for finding in made.unreadable { outcome.errors += "iap: error: \(finding.location.path): \(finding.message)\n" }
            outcome.status = ExitStatus.of(made.findings, strict: false).combined(with: made.unreadable.isEmpty ? .clean : .cannotRun)
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// The sales report of `files` (as given; shown as given), joined with `catalogs` when any.
    /// `severities` and `limits` (by rule ID) come from `iap.yml` (`rules:`).
    /// With `emptyFolder`, a folder without reports gives empty totals (after a fetch); else it is an error.
    public static func sales(files: [String], catalogs: [Catalog], format: Format, locale: String,
                             severities: [String: Severity?] = [:], limits: [String: Int] = [:], emptyFolder: Bool = false) throws(ToolFailure) -> Made {
        guard (try? PriceLocale(parsing: locale)) != nil else { throw .usage("--locale '\(locale)' is not a locale such as en_US or de_DE") }
        var ledger = SalesLedger()
        let reports = try reportFiles(files, emptyFolder: emptyFolder)
        for file in reports { SalesReportReader.read(file, into: &ledger) }
        let totals = SalesTotals(ledger)
        let found = ledger.diagnostics + SalesJoin.findings(ledger, totals: totals, catalogs: catalogs, limits: limits)
        let findings = ReportPlan.applySeverities(severities, to: found).sortedForOutput()
        let output = SalesReportOutput(ledger: ledger, findings: findings, locale: locale)
        let content: String = switch format {
        case .markdown: MarkdownDocument.render(output.document())
        case .html: HTMLDocument.render(output.document(), generator: generator)
        case .csv: output.csv()
        case .json: output.json(generator: generator)
        }
        let summary = "\(plural(reports.count, "report")) read: \(plural(ledger.rowCount, "row")), \(ledger.badRowCount) unreadable, "
            + "\(plural(totals.products.count, "product")), \(findings.severityCounts)"
        return Made(content: content, findings: findings, summary: summary, failure: nil, unreadable: ledger.unopened, reportCount: reports.count)
    }

    /// The report files to read: files as given, and the `.txt`, `.tsv` and `.gz` files of a folder
    /// (not its subfolders), in path order (a report before its browser copies, `BrowserCopy`)
    /// whatever order they were given in, so that the first row seen of a product (its title,
    /// where findings about it point) and the copy named as a duplicate never depend on a glob.
    static func reportFiles(_ paths: [String], emptyFolder: Bool = false) throws(ToolFailure) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw .cannotRun("\(path): no such report file")
            }
            guard isFolder.boolValue else {
                if let kind = FileIdentity.specialKind(path) { throw .cannotRun("\(path): \(kind), not a report file") }
                files.append(path)
                continue
            }
            let names: [String]
            switch FolderWalk.names(in: path) {
            case .success(let listed): names = listed
            case .failure(let failure): throw .cannotRun("\(path): cannot list folder: \(failure.phrase)")
            }
            let root = FilePaths.realPath(path) ?? path
            let reports = names.filter { name in
                let full = (path as NSString).appendingPathComponent(name)
                return !name.hasPrefix(".") && [".txt", ".tsv", ".gz"].contains(where: { name.lowercased().hasSuffix($0) })
                    && FileIdentity.specialKind(full) == nil && FilePaths.linkLeadingOut(full, of: root) == nil
            }
            guard !reports.isEmpty || emptyFolder else {
                throw .cannotRun("\(path): no report files in this folder (.txt, .txt.gz or .tsv, as App Store Connect downloads them)")
            }
            files += reports.map { (path as NSString).appendingPathComponent($0) }
        }
        // A report before its browser copies (`EU.txt` before `EU (1).txt`), so the copy is the one
        // named as the same report again, whatever order a folder lists them in.
        return BrowserCopy.readingOrder(Array(Set(files)))
    }

    /// The price matrix of `catalogs` in `storefronts` (`USA,JPN`, `all`, or nil for the ones priced).
    public static func prices(catalogs: [Catalog], storefronts: String?, format: Format,
                              severities: [String: Severity?] = [:]) throws(ToolFailure) -> Made {
        let chosen: [Storefront]?
        do {
            chosen = try storefronts.map { list throws(PriceError) in try Storefronts.parseList(list) }
        } catch {
            throw .usage("--storefronts: \(error)")
        }
        let matrix: PriceMatrix
        do {
            matrix = try PriceMatrix(catalogs: catalogs, storefronts: chosen, severities: severities)
        } catch {
            throw .cannotRun("a price could not be formatted: \(error)")
        }
        if matrix.isEmpty {
            let why = matrix.findings.isEmpty ? "no product declares a price with its currency"
                : "its prices carry no currency or storefront (\(plural(matrix.findings.count, "finding")) below)"
            let failure = ToolFailure.cannotRun("no price to show in \(catalogs.map(\.name).joined(separator: ", ")): \(why); declare prices in a .storekit file (with its storefront) or the metadata plist (price + currency, or prices by storefront)")
            return Made(content: "", findings: matrix.findings, summary: "", failure: failure)
        }
        let content: String = switch format {
        case .markdown: MarkdownDocument.render(matrix.document())
        case .html: HTMLDocument.render(matrix.document(), generator: generator)
        case .csv: matrix.csv()
        case .json: matrix.json(generator: generator)
        }
        let declared = matrix.declaredCount
        let summary = "\(plural(matrix.rows.count, "product")) × \(plural(matrix.storefronts.count, "storefront")): "
            + "\(declared) price\(declared == 1 ? "" : "s") declared, \(matrix.findings.severityCounts)"
        return Made(content: content, findings: matrix.findings, summary: summary, failure: nil)
    }
}
