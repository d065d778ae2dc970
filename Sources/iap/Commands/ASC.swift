import ArgumentParser
import Foundation
import IAPTool

struct ASCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asc",
        abstract: "App Store Connect: pull an app's in-app purchases into a snapshot; compare the catalog with it.",
        discussion: """
        The API key comes from the environment: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID, and \
        IAP_ASC_PRIVATE_KEY (the .p8 file's text) or IAP_ASC_PRIVATE_KEY_PATH. See docs/asc.md.
        """,
        subcommands: [Pull.self, Diff.self, Ready.self, Plan.self, Apply.self])

    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Write an app's in-app purchases, subscription groups, subscriptions and localizations as a JSON snapshot.")

        @Option(help: "The app: its bundle ID, or its Apple ID (the number in its App Store Connect address). Default: iap.yml's asc.app.")
        var app: String?

        @Option(help: "The snapshot file to write (JSON, deterministic: commit it). Default: iap.yml's asc.snapshot.")
        var snapshot: String?

        @Option(name: .shortAndLong, help: "Also write the app's catalog: a .storekit file (prices in the --storefront) or, any other name, a metadata plist.")
        var output: String?

        @Flag(name: .customLong("price-points"), help: "Also write App Store Connect's price points (every territory's ladder, both kinds, and the equalizations of the snapshot's prices) beside the snapshot, or where iap.yml's asc.price-points says.")
        var pricePoints = false

        @Option(help: "With --price-points, also equalize this base price (USA:4.99; repeatable): one request each.")
        var equalize: [String] = []

        @Flag(help: "Finish the partial snapshot --snapshot names (a pull that stopped at App Store Connect's hourly request limit); a whole or missing one is pulled anew.")
        var resume = false

        @OptionGroup(title: "Pulling") var pulling: PullArguments
        @OptionGroup var config: ConfigArguments

        func run() {
            Terminal.end { () throws(ToolFailure) in
                let configuration = try config.load(verbose: false)
                let request = try ASCJob.PullRequest(app: app, snapshot: snapshot, output: output, resume: resume, configuration: configuration)
                var connection = pulling.connection(configuration)
                if pricePoints {
                    guard let file = configuration.asc.pricePoints ?? request.snapshot.map(ASCSettings.pricePointsPath(beside:)) else {
                        throw ToolFailure.usage("--price-points writes beside the snapshot: name it with --snapshot FILE (or asc: price-points: in iap.yml)")
                    }
                    connection.pricePoints = file
                    connection.equalize = try equalize.map(PricePlanJob.parseBase)
                } else if !equalize.isEmpty {
                    throw ToolFailure.usage("--equalize goes with --price-points")
                }
                return ASCJob.pull(request, connection: connection)
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare the app's catalog with an App Store Connect snapshot: missing products, states StoreKit does not serve, fields that differ.")

        @Option(help: "The snapshot `iap asc pull` wrote (with --app, where the pulled one is written). Default: iap.yml's asc.snapshot.")
        var snapshot: String?

        @Option(help: "Pull this app's snapshot first (its bundle ID or Apple ID), with the key from the environment, then compare.")
        var app: String?

        @OptionGroup(title: "Pulling, with --app") var pulling: PullArguments

        @OptionGroup var catalog: CatalogArguments

        @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
        var verbose = false

        @OptionGroup var config: ConfigArguments
        @OptionGroup var report: ReportArguments
        @OptionGroup var output: ReportOutputArgument

        func run() {
            Terminal.end { () throws(ToolFailure) in
                let configuration = try config.load(verbose: verbose)
                let snapshot = try ASCJob.diffSnapshot(snapshot, configuration: configuration)
                let selection = CatalogSelection(catalog.paths, configuration: configuration, bundleID: catalog.bundleID)
                return ASCJob.diff(snapshot: snapshot, catalogs: selection, plan: try report.plan(over: configuration.basePlan, output: output),
                                   verbose: verbose, pulling: app.map { ($0, pulling.connection(configuration)) })
            }
        }
    }
}

extension ASCCommand {
    struct Ready: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ready",
            abstract: "Will each product sell? The catalog's products and the IDs the code asks for, against a snapshot: a verdict for StoreKit testing, the sandbox and the App Store, with the causes.")

        @Option(help: "The snapshot `iap asc pull` wrote (with --storefront for prices, --availability for territories). Default: iap.yml's asc.snapshot.")
        var snapshot: String?

        @Option(help: "Where the app's Swift and Objective-C sources are (repeatable). Default: iap.yml's lint paths, else the working folder.")
        var sources: [String] = []

        @Option(help: "A storefront to give the App Store verdict for (repeatable; USA, JPN, …; all: every territory the snapshot names). Default: the snapshot's.",
                transform: { $0 == ASCReadyJob.everyStorefront ? $0 : try ArgumentCheck.storefront($0) })
        var storefront: [String] = []

        @OptionGroup var catalog: CatalogArguments

        @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
        var verbose = false

        @OptionGroup var config: ConfigArguments
        @OptionGroup var report: ReportArguments
        @OptionGroup var output: ReportOutputArgument

        func run() {
            Terminal.end { () throws(ToolFailure) in
                let configuration = try config.load(verbose: verbose)
                let snapshot = try ASCJob.diffSnapshot(snapshot, configuration: configuration)
                let selection = CatalogSelection(catalog.paths, configuration: configuration, bundleID: catalog.bundleID)
                let job = ASCReadyJob(snapshot: snapshot, catalogs: selection, sources: sources, storefronts: storefront, configuration: configuration)
                return job.run(plan: try report.plan(over: configuration.basePlan, output: output), verbose: verbose)
            }
        }
    }
}

extension ASCCommand {
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "What `iap asc apply` would change in App Store Connect to make it hold the catalog: offline against a snapshot, or live with --app.")

        @Option(help: "The snapshot `iap asc pull` wrote (with --app, where the pulled one is written). Default: iap.yml's asc.snapshot.")
        var snapshot: String?

        @Option(help: "Pull this app's snapshot first (its bundle ID or Apple ID), with the key from the environment, then plan.")
        var app: String?

        @Option(name: .customLong("plan"), help: ArgumentHelp("Write the plan (JSON, deterministic) to FILE: what `iap asc apply FILE` makes true.", valueName: "file"))
        var planFile: String?

        @Option(help: ArgumentHelp("Also write the plan as Markdown (a pull request's comment) to FILE.", valueName: "file"))
        var markdown: String?

        @OptionGroup(title: "Pulling, with --app") var pulling: PullArguments

        @OptionGroup var catalog: CatalogArguments

        @Flag(name: .shortAndLong, help: "Also list on stderr the files a folder walk passed over, with why.")
        var verbose = false

        @OptionGroup var config: ConfigArguments
        @OptionGroup var report: ReportArguments
        @OptionGroup var output: ReportOutputArgument

        func run() {
            Terminal.end { () throws(ToolFailure) in
                let configuration = try config.load(verbose: verbose)
                let snapshot = try ASCJob.diffSnapshot(snapshot, configuration: configuration)
                let selection = CatalogSelection(catalog.paths, configuration: configuration, bundleID: catalog.bundleID)
                return ASCPlanJob.plan(snapshot: snapshot, catalogs: selection, report: try report.plan(over: configuration.basePlan, output: output),
                                       output: planFile, markdown: markdown, verbose: verbose,
                                       pulling: app.map { ($0, pulling.connection(configuration)) })
            }
        }
    }

    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Make App Store Connect hold what a plan of `iap asc plan` says, and nothing else: reads it first and refuses a stale plan; writes only with --confirm; reads everything back.")

        @Argument(help: "The plan `iap asc plan --plan FILE` wrote.")
        var plan: String

        @Flag(help: "Write. Without it, apply only says what it would write.")
        var confirm = false

        @Flag(help: "A subscription's new price applies to its current subscribers too (by default they keep the price they pay).")
        var migrateExistingSubscribers = false

        @Option(help: ArgumentHelp("The journal of what was written, to resume a stopped apply. Default: the plan's path + .journal.", valueName: "file"))
        var journal: String?

        @Option(help: "Seconds each request may take.")
        var timeout: Double = 60

        @Option(help: "Requests to App Store Connect at once when reading it, 1 to \(ASCJob.connectionRange.upperBound) (writes go one at a time).")
        var connections: Int = ASCJob.defaultConnections

        @OptionGroup var config: ConfigArguments

        func validate() throws {
            guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout is seconds between 1 and 3600") }
            guard ASCJob.connectionRange.contains(connections) else {
                throw ValidationError("--connections is between \(ASCJob.connectionRange.lowerBound) and \(ASCJob.connectionRange.upperBound)")
            }
        }

        func run() {
            Terminal.end { () throws(ToolFailure) in
                let configuration = try config.load(verbose: false)
                let connection = ASCJob.Connection(environment: ProcessInfo.processInfo.environment, configuration: configuration, timeout: timeout,
                                                   storefront: nil, connections: connections)
                return ASCPlanJob.apply(ASCPlanJob.ApplyRequest(plan: plan, confirm: confirm, migrateExistingSubscribers: migrateExistingSubscribers,
                                                                journal: journal), connection: connection)
            }
        }
    }
}

/// How `asc pull` and `asc diff --app` talk to App Store Connect.
struct PullArguments: ParsableArguments {
    @Option(help: "Seconds each request may take.")
    var timeout: Double = 60

    @Option(help: "Also pull prices and introductory offers in this storefront (USA, JPN, …): about one request more per product. Default: iap.yml's asc.storefront.",
            transform: ArgumentCheck.storefront)
    var storefront: String?

    @Option(help: "Requests to App Store Connect at once, 1 to \(ASCJob.connectionRange.upperBound).")
    var connections: Int = ASCJob.defaultConnections

    @Flag(help: "Also pull the territories each product is available in: one request more per product (for iap asc ready).")
    var availability = false

    @Flag(help: "Also pull each product's price in every territory: two requests more per in-app purchase, one per subscription (the --storefront price comes with them).")
    var allStorefronts = false

    @Flag(help: "Also pull each subscription's promotional offers (with the list of subscriptions: no request more for 50 a subscription).")
    var promotionalOffers = false

    @Flag(help: "Also pull each subscription's win-back offers: one request more per subscription.")
    var winBackOffers = false

    @Flag(help: "Also pull each subscription's offer codes and their custom codes: one request more per subscription that has any.")
    var offerCodes = false

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout is seconds between 1 and 3600") }
        guard ASCJob.connectionRange.contains(connections) else {
            throw ValidationError("--connections is between \(ASCJob.connectionRange.lowerBound) and \(ASCJob.connectionRange.upperBound)")
        }
    }

    /// The connection these options ask for (`iap.yml` fills the key's variables and the storefront).
    func connection(_ configuration: Configuration) -> ASCJob.Connection {
        ASCJob.Connection(environment: ProcessInfo.processInfo.environment, configuration: configuration, timeout: timeout,
                          storefront: storefront, connections: connections, availability: availability,
                          allStorefronts: allStorefronts, promotionalOffers: promotionalOffers, winBackOffers: winBackOffers,
                          offerCodes: offerCodes)
    }
}
