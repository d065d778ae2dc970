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

    @OptionGroup var config: ConfigArguments

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load()
            let selection = CatalogSelection(paths + catalogPaths, configuration: configuration, bundleID: bundleID)
            return ReportJob.run(catalogs: selection, sales: sales, storefronts: storefronts, format: format, locale: locale,
                                 output: output, configuration: configuration)
        }
    }
}
