import ArgumentParser
import Foundation
import IAPTool

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Price matrices of a catalog, and App Store Connect sales and finance reports totalled, in Markdown, CSV, JSON or HTML.",
        discussion: """
        iap report catalogs/FakeGame --storefronts USA,JPN,DEU     every product × storefront, as customers see it
        iap report --sales S_D_80012345_20261102.txt.gz --format html -o sales.html
        iap report --sales reports/*.txt --catalog catalogs/FakeGame   joined with the catalog
        iap report --sales reports/ --fetch sales --vendor 80012345 --from 2026-11-01 --to 2026-11-07   downloaded first
        Sales reports: Summary Sales, Subscription, Subscription Event and Financial, gzip or plain, read by header names.
        Findings (unreadable rows, totals that disagree, products sold but not in the catalog…) go to stderr as path:line:col lines.
        """)

    @Argument(help: "Catalog files or folders (default: the catalogs iap.yml names, else ./catalogs, else the catalogs found under the working folder; with --sales, only when given or named by iap.yml).")
    var paths: [String] = []

    @Option(name: .customLong("catalog"), help: "A catalog to join sales with (same as a PATH).")
    var catalogPaths: [String] = []

    @Option(name: .customLong("sales"), parsing: .upToNextOption, help: "App Store Connect report files (.txt, .txt.gz) or folders of them: total them instead of the price matrix.")
    var sales: [String] = []

    @Option(help: "Storefronts of the price matrix: alpha-3 or alpha-2 codes (USA,JPN,DEU), or all (default: those the catalog prices).")
    var storefronts: String?

    @Option(help: "Output format: markdown (or md), csv, json or html.")
    var format: ReportJob.Format = .markdown

    @Option(help: "The locale amounts are written in for people (md, html): en_US, de_DE, ja_JP.")
    var locale = "en_US"

    @Option(name: .shortAndLong, help: "Write the report to FILE (atomically) instead of stdout.")
    var output: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID; wins over Info.plist and the metadata plist.", transform: ArgumentCheck.bundleID)
    var bundleID: String?

    @Option(help: "Download App Store Connect's reports into the --sales folder first, those not there yet: sales (Summary Sales) or finance (Financial, all regions). The API key comes from the environment (docs/asc.md).")
    var fetch: FetchKind?

    @Option(help: "With --fetch: the vendor number (Payments and Financial Reports shows it).")
    var vendor: String?

    @Option(help: "With --fetch: the first day (YYYY-MM-DD), or month (YYYY-MM) for monthly and finance reports.")
    var from: String?

    @Option(help: "With --fetch: the last day or month, included (default: --from).")
    var to: String?

    @Option(help: "With --fetch sales: daily, weekly (weeks ending on Sunday) or monthly.")
    var frequency: Frequency = .daily

    @Option(help: "With --fetch: seconds each request may take.")
    var timeout: Double = 60

    enum FetchKind: String, ExpressibleByArgument, CaseIterable { case sales, finance }
    enum Frequency: String, ExpressibleByArgument, CaseIterable { case daily, weekly, monthly }

    @OptionGroup var config: ConfigArguments

    func validate() throws {
        if fetch == nil {
            for (name, given) in [("--vendor", vendor != nil), ("--from", from != nil), ("--to", to != nil)] where given {
                throw ValidationError("\(name) is for --fetch")
            }
        } else {
            guard vendor != nil, from != nil else { throw ValidationError("--fetch needs --vendor and --from") }
            guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout is seconds between 1 and 3600") }
        }
    }

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load()
            let selection = CatalogSelection(paths + catalogPaths, configuration: configuration, bundleID: bundleID)
            let fetching = fetch.map { kind in
                ASCJob.Fetch(finance: kind == .finance, frequency: frequency.rawValue, vendor: vendor ?? "", from: from ?? "", to: to ?? from ?? "",
                             timeout: timeout, environment: ProcessInfo.processInfo.environment)
            }
            return ReportJob.run(catalogs: selection, sales: sales, storefronts: storefronts, format: format, locale: locale,
                                 output: output, configuration: configuration, fetch: fetching)
        }
    }
}
