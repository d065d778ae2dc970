import AppStoreConnect
import CatalogJoins
import CatalogTool
import Diagnostics
import Foundation
import IAPCatalog
import Support

/// `iap asc …`: App Store Connect through its API, with a key from the environment.
public enum ASCJob {
    /// The variable that points the client at another server (a test server on 127.0.0.1).
    public static let urlVariable = "IAP_ASC_URL"
    /// Connections a pull keeps open at once: the default, and the range `--connections` takes.
    public static let defaultConnections = SnapshotPull.defaultConnections
    public static let connectionRange = SnapshotPull.connectionRange

    /// How to reach App Store Connect: the key's variables, the timeout, and (in tests) the transport.
    public struct Connection: Sendable {
        public var environment: [String: String]
        public var variables: APIKey.Variables
        public var timeout: Double
        public var transport: (any HTTPTransport)?
        /// The storefront whose prices and introductory offers are pulled (none: no prices).
        public var storefront: String?
        /// Connections a pull keeps open at once (`SnapshotPull.connectionRange`).
        public var connections: Int
        /// Whether each product's territories are pulled (`--availability`).
        public var availability = false
        /// Whether each product's price in every territory is pulled (`--all-storefronts`).
        public var allStorefronts = false
        /// Whether the subscriptions' promotional offers are pulled (`--promotional-offers`).
        public var promotionalOffers = false
        /// Whether the subscriptions' win-back offers are pulled (`--win-back-offers`).
        public var winBackOffers = false
        /// Whether the subscriptions' offer codes are pulled (`--offer-codes`).
        public var offerCodes = false
        /// Where App Store Connect's price points are written (`--price-points`): nil pulls none.
        public var pricePoints: String?
        /// Base prices to equalize besides the snapshot's (`--equalize USA:4.99`), for both kinds.
        public var equalize: [(territory: String, price: Decimal)] = []
        /// Sleeps between retries (the real clock; tests keep it).
        public var sleep: (@Sendable (TimeInterval) -> Void)?

        /// The connection the command line asks for, `iap.yml`'s `asc:` section giving the key's
        /// variables and the storefront where the command line gives none.
        public init(environment: [String: String], configuration: Configuration, timeout: Double, storefront: String?, connections: Int,
                    availability: Bool = false, allStorefronts: Bool = false, promotionalOffers: Bool = false, winBackOffers: Bool = false,
                    offerCodes: Bool = false) {
            self.init(environment: environment, variables: configuration.asc.variables, timeout: timeout,
                      storefront: storefront ?? configuration.asc.storefront, connections: connections)
            self.availability = availability
            self.allStorefronts = allStorefronts
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
            self.offerCodes = offerCodes
        }

        public init(environment: [String: String], variables: APIKey.Variables = APIKey.Variables(), timeout: Double = 60,
                    transport: (any HTTPTransport)? = nil, storefront: String? = nil, connections: Int = ASCJob.defaultConnections,
                    sleep: (@Sendable (TimeInterval) -> Void)? = nil) {
            self.storefront = storefront
            self.environment = environment
            self.variables = variables
            self.timeout = timeout
            self.transport = transport
            self.connections = connections
            self.sleep = sleep
        }
    }

    /// What `iap asc pull` is asked for, `iap.yml`'s `asc:` section filling what the command line
    /// leaves out: the app, and the snapshot unless only `-o` is asked for (or `--resume`, which
    /// finishes the snapshot). Nil app only with `--resume` (the partial snapshot names it).
    public struct PullRequest: Sendable, Equatable {
        public var app: String?
        public var snapshot: String?
        public var output: String?
        public var resume: Bool

        public init(app: String?, snapshot: String?, output: String?, resume: Bool, configuration: Configuration) throws(ToolFailure) {
            let app = app ?? configuration.asc.app
            guard app != nil || resume else { throw .usage("name the app: --app BUNDLE_ID (or its Apple ID), or asc: app: in iap.yml") }
            let snapshot = snapshot ?? (output == nil || resume ? configuration.asc.snapshot : nil)
            guard snapshot != nil || output != nil else {
                throw .usage("name what to write: --snapshot FILE (or asc: snapshot: in iap.yml), or -o FILE.storekit")
            }
            (self.app, self.snapshot, self.output, self.resume) = (app, snapshot, output, resume)
        }
    }

    /// The snapshot `iap asc diff` compares with: the command line's, else `iap.yml`'s `asc.snapshot`.
    public static func diffSnapshot(_ given: String?, configuration: Configuration) throws(ToolFailure) -> String {
        guard let snapshot = given ?? configuration.asc.snapshot else {
            throw .usage("name the snapshot: --snapshot FILE, or asc: snapshot: in iap.yml")
        }
        return snapshot
    }

    /// `iap asc pull` as `PullRequest` resolved it.
    public static func pull(_ request: PullRequest, connection: Connection) -> CommandOutcome {
        pull(app: request.app, snapshot: request.snapshot, output: request.output, resume: request.resume, connection: connection)
    }

    /// `iap asc pull --app APP --snapshot FILE`: the app's in-app purchases and subscriptions,
    /// written as a snapshot later commands read offline.
    /// With `output`, the snapshot is also written as a catalog: a `.storekit` file (what Xcode's
    /// sync holds: prices in the snapshot's storefront) or, any other name, a metadata plist.
    /// With `resume`, a partial snapshot at `path` is finished (a whole or missing one is pulled anew).
    /// A pull that stops at the hour's request limit writes a partial snapshot and exits 75.
    /// `PullRequest` has made sure there is something to write.
    static func pull(app: String?, snapshot path: String?, output: String?, resume: Bool, connection: Connection) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            var existing: ASCSnapshot?
            if resume {
                guard let path else { throw .usage("--resume finishes the partial snapshot --snapshot FILE names: name it") }
                existing = try resumable(path, app: app, storefront: connection.storefront, saying: &outcome.stderr)
            }
            let partial = existing.flatMap { $0.isPartial ? $0 : nil }
            guard let app = app ?? existing.map({ $0.app.bundleId ?? $0.app.id }) else {
                throw .usage("name the app: --app BUNDLE_ID (or its Apple ID), or asc: app: in iap.yml")
            }
            var connection = connection
            // A partial pull goes on in its storefront; a whole one pulled anew keeps it unless told.
            if let existing, partial != nil || connection.storefront == nil { connection.storefront = existing.storefront }
            var points: PricePointPull.Outcome?
            let pulled = try pulled(app, connection, resuming: partial, pricePoints: &points, saying: &outcome.stderr)
            let snapshot = pulled.snapshot
            let text = snapshot.encoded()
            if let stop = pulled.stoppedBy {
                guard let path else {
                    throw .cannotRun("\(stop.description) — nothing written: with --snapshot FILE the pull keeps what it has, and `--resume` finishes it")
                }
                outcome.files.append(OutputContent(path: path, content: text, note: "iap: wrote \(path) (partial)", label: "the partial snapshot"))
                outcome.stderr += "iap: stopped before the pull was done: \(stop.description)\n"
                    + "iap: \(plural(snapshot.pending?.count ?? 0, "request")) left; finish it with `\(resumeCommand(app, path, output))`\n"
                outcome.status = .partial
                return outcome
            }
            if let path {
                outcome.files.append(OutputContent(path: path, content: text, note: "iap: wrote \(path)", label: "the snapshot"))
            }
            if let points, let file = connection.pricePoints {
                let ladders = points.pricePoints.ladders.values.reduce(0) { $0 + $1.count }
                let equalized = points.pricePoints.equalizations.values.reduce(0) { $0 + $1.count }
                outcome.files.append(OutputContent(path: file, content: points.pricePoints.encoded(),
                                                   note: "iap: wrote \(file) (\(plural(ladders, "ladder")), \(plural(equalized, "equalized base price")))",
                                                   label: "the price points"))
                for base in points.notPoints {
                    outcome.stderr += "iap: warning: \(base.price) in \(base.territory) is not an App Store Connect price point there: not equalized\n"
                }
            }
            if let output { try write(snapshot, text: text, path: path, to: output, into: &outcome) }
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// The command that finishes a partial pull, as it can be pasted.
    static func resumeCommand(_ app: String, _ path: String, _ output: String?) -> String {
        let word = { (text: String) in Escape.shellArgument(text, path: true) }
        return "iap asc pull --resume --snapshot \(word(path))" + (output.map { " -o \(word($0))" } ?? "")
    }

    /// The snapshot at `path` a `--resume` goes on from: partial (to finish, in its app and
    /// storefront) or whole (pulled anew, said so); nil when there is none.
    static func resumable(_ path: String, app: String?, storefront: String?, saying stderr: inout String) throws(ToolFailure) -> ASCSnapshot? {
        guard FileStatus(path) != nil || FileIdentity.isLink(path) else {
            stderr += "iap: \(path) does not exist: nothing to resume; pulling anew\n"
            return nil
        }
        let (snapshot, _) = try readSnapshot(path, partial: true)
        guard snapshot.isPartial else {
            stderr += "iap: \(path) is a whole snapshot: nothing to resume; pulling anew\n"
            return snapshot
        }
        if let app, app != snapshot.app.id, app != snapshot.app.bundleId {
            throw .usage("\(path) is a partial pull of \(Quote.escaped(snapshot.app.bundleId ?? snapshot.app.id)), not of \(Quote.bounded(app)): "
                         + "resume it without --app, or pull \(Quote.bounded(app)) into another file")
        }
        if let storefront, storefront != snapshot.storefront {
            throw .usage("\(path) is a partial pull \(snapshot.storefront.map { "with prices in \($0)" } ?? "without prices"), not in \(storefront): "
                         + "resume it without --storefront")
        }
        return snapshot
    }

    /// `-o`: the snapshot as a `.storekit` file or a metadata plist.
    private static func write(_ snapshot: ASCSnapshot, text: String, path: String?, to output: String, into outcome: inout CommandOutcome) throws(ToolFailure) {
        var catalog = snapshot.catalog(path: path ?? "App Store Connect", text: text)
        guard output.lowercased().hasSuffix(".storekit") else {
            outcome.files.append(OutputContent(path: output, content: MetadataWriter().metadataPlist(catalog),
                                               note: "iap: wrote \(output) (\(plural(catalog.products.count, "product")))", label: "the metadata plist"))
            return
        }
        if let storefront = snapshot.storefront {
            // StoreKit sells nothing without a price: a product App Store Connect has no price for in
            // the storefront is left out, as it is left out of a product request there.
            let unpriced = catalog.products.filter { $0.metadata.price == nil }.map(\.id)
            if !unpriced.isEmpty {
                let shown = unpriced.prefix(10).map { Quote.escaped($0) }.joined(separator: ", ")
                outcome.stderr += "iap: warning: \(plural(unpriced.count, "product")) without a price in \(storefront) in App Store Connect left out of \(output): "
                    + shown + (unpriced.count > 10 ? " and \(unpriced.count - 10) more" : "") + "\n"
                let left = Set(unpriced)
                catalog.products.removeAll { left.contains($0.id) }
            }
        }
        let written = try StoreKitWriter(storefront: snapshot.storefront ?? "USA").write(catalog)
        outcome.findings += written.findings
        outcome.stderr += TextReporter().render(written.findings)
        if written.findings.contains(where: { $0.severity == .error }) {
            outcome.status = outcome.status.combined(with: .findings)
            outcome.stderr += "iap: \(output) not written: "
                + (snapshot.storefront == nil ? "pull with --storefront to have the prices a StoreKit configuration needs\n" : "see the errors above\n")
        } else {
            outcome.files.append(OutputContent(path: output, content: written.text,
                                               note: "iap: wrote \(output) (\(plural(written.productCount, "product")))", label: "the StoreKit configuration"))
        }
    }

    /// The app's snapshot from App Store Connect (finishing `partial` when given); what it took,
    /// said on `stderr`.
    static func pulled(_ app: String, _ connection: Connection, resuming partial: ASCSnapshot? = nil,
                       saying stderr: inout String) throws(ToolFailure) -> SnapshotPull.Outcome {
        var none: PricePointPull.Outcome?
        return try pulled(app, connection, resuming: partial, pricePoints: &none, saying: &stderr)
    }

    /// The same, and with `connection.pricePoints` set, App Store Connect's price points for the
    /// kinds the snapshot has (once the snapshot is whole).
    static func pulled(_ app: String, _ connection: Connection, resuming partial: ASCSnapshot? = nil,
                       pricePoints: inout PricePointPull.Outcome?, saying stderr: inout String) throws(ToolFailure) -> SnapshotPull.Outcome {
        let client = try makeClient(environment: connection.environment, variables: connection.variables, timeout: connection.timeout,
                                    transport: connection.transport, sleep: connection.sleep, saying: &stderr)
        let pull = SnapshotPull(storefront: connection.storefront, connections: connection.connections, availability: connection.availability,
                                allTerritories: connection.allStorefronts, promotionalOffers: connection.promotionalOffers,
                                winBackOffers: connection.winBackOffers, offerCodes: connection.offerCodes)
        let outcome: SnapshotPull.Outcome
        do {
            if let partial {
                outcome = try pull.resume(partial, client: client)
            } else {
                outcome = try pull.pull(app: app, client: client)
            }
        } catch {
            throw .cannotRun(error.description)
        }
        let snapshot = outcome.snapshot
        let subscriptions = snapshot.subscriptionGroups.reduce(0) { $0 + $1.subscriptions.count }
        let appName = [snapshot.app.name.map { Quote.escaped($0) }, snapshot.app.bundleId.map { Quote.escaped($0, open: "", close: "") },
                       "Apple ID \(snapshot.app.id)"].compactMap { $0 }.joined(separator: ", ")
        stderr += "iap: \(partial == nil ? "pulled" : "finished the pull of") \(plural(snapshot.inAppPurchases.count, "in-app purchase")) and "
            + "\(plural(subscriptions, "subscription")) in \(plural(snapshot.subscriptionGroups.count, "group")) of \(appName) "
            + "in \(plural(client.requestCount, "request"))\n"
        if connection.pricePoints != nil, outcome.stoppedBy == nil {
            let before = client.requestCount
            do {
                let bases = connection.equalize.flatMap { base in
                    PricePoints.Kind.allCases.map { PricePointPull.Base(kind: $0, territory: base.territory, price: base.price) }
                }
                pricePoints = try PricePointPull().pull(snapshot, bases: bases, client: client)
            } catch {
                throw .cannotRun(error.description)
            }
            stderr += "iap: pulled the price points in \(plural(client.requestCount - before, "request"))\n"
        }
        return outcome
    }

    /// `iap asc diff --snapshot FILE [PATHS]`: the app's catalog compared with the snapshot, the
    /// drift rules' findings reported as `plan` says (severities, baseline and formats apply).
    /// With `pulling`, the snapshot is pulled first and written to `path` (the findings point into it).
    public static func diff(snapshot path: String, catalogs: CatalogSelection, plan: ReportPlan, verbose: Bool,
                            pulling: (app: String, connection: Connection)? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let (snapshot, text) = try comparedSnapshot(path, pulling: pulling, saying: &outcome.stderr) { (app, stop, text) throws(ToolFailure) -> Never in
                do throws(OutputFile.Failure) {
                    _ = try OutputFile.write(text, to: path)
                } catch {
                    throw .cannotRun("the partial snapshot: \(error.description)")
                }
                throw ToolFailure("\(stop.description) — wrote the partial snapshot \(path); nothing compared. Finish it with "
                                  + "`\(resumeCommand(app, path, nil))`, then run `iap asc diff` again", status: .partial)
            }
            let loaded = try catalogs.loadRequired(verbose: verbose, into: &outcome)
            let catalog = try catalogOf(snapshot, in: loaded.catalogs)
            let findings = DriftCheck(snapshot: snapshot, path: path, text: text).check(catalog)
            let files = catalog.files.map(\.path) + [path]
            let rendered = try plan.render(command: "asc diff", findings: findings, rules: ASCRules.all, files: files)
            let summary = TextReporter().summary(rendered.result.findings, files: files.count)
                + ", \(plural(catalog.products.count, "product")) against \(plural(snapshot.productCount, "product")) in App Store Connect"
            outcome.append(plan.deliver(rendered, summary: summary))
            outcome.retained += [loaded]
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// The snapshot a command compares the catalog with: with `pulling`, pulled and written to
    /// `path` first (the findings point into the file); else read from `path`. A pull that stops
    /// before it is done is `stopped`'s to end (the app, why, the partial snapshot's text).
    static func comparedSnapshot(_ path: String, pulling: (app: String, connection: Connection)?, saying stderr: inout String,
                                 stopped: (String, ASCError, String) throws(ToolFailure) -> Never) throws(ToolFailure) -> (ASCSnapshot, String) {
        guard let (app, connection) = pulling else { return try readSnapshot(path) }
        let pull = try pulled(app, connection, saying: &stderr)
        let text = pull.snapshot.encoded()
        if let stop = pull.stoppedBy { try stopped(app, stop, text) }
        do {
            _ = try OutputFile.write(text, to: path)
        } catch {
            throw .cannotRun("the snapshot: \(error.description)")
        }
        stderr += "iap: wrote \(path)\n"
        return (pull.snapshot, text)
    }

    static func readSnapshot(_ path: String, partial: Bool = false) throws(ToolFailure) -> (ASCSnapshot, String) {
        let data: Data
        switch FileContents.read(path, limit: 256 << 20) {
        case .success(let bytes): data = bytes
        case .failure(let failure): throw .cannotRun("cannot read the snapshot \(path): \(failure.phrase)")
        }
        do {
            return (try ASCSnapshot.decode(data, path: path, partial: partial), String(decoding: data, as: UTF8.self))
        } catch {
            throw .cannotRun(error.description)
        }
    }

    /// The catalog of the snapshot's app: the only one, or the one with its bundle ID.
    static func catalogOf(_ snapshot: ASCSnapshot, in catalogs: [Catalog]) throws(ToolFailure) -> Catalog {
        if catalogs.count == 1 { return catalogs[0] }
        if let bundleID = snapshot.app.bundleId, let match = catalogs.first(where: { $0.bundleID?.value == bundleID }) {
            return match
        }
        let known = catalogs.compactMap { c in c.bundleID.map { "\(c.name) (\($0.value))" } }
        throw .cannotRun("the snapshot is for \(snapshot.app.bundleId ?? "Apple ID \(snapshot.app.id)") and none of the "
                         + "\(catalogs.count) catalogs found is: \(known.isEmpty ? "none has a bundle ID" : known.joined(separator: ", ")); "
                         + "name the app's catalog folder")
    }

    /// `iap report --sales FOLDER --fetch …`: what to download.
    public struct Fetch: Sendable {
        public var kind: ReportFetch.Kind
        public var vendor: String
        public var from: String
        public var to: String
        public var timeout: Double
        public var environment: [String: String]
        /// In tests, answers instead of App Store Connect.
        public var transport: (any HTTPTransport)?

        /// `frequency`: `daily`, `weekly` or `monthly` (for sales; finance reports are monthly).
        public init(finance: Bool, frequency: String, vendor: String, from: String, to: String, timeout: Double, environment: [String: String],
                    transport: (any HTTPTransport)? = nil) {
            self.kind = finance ? .finance : .sales(ReportFetch.Frequency(rawValue: frequency) ?? .daily)
            self.vendor = vendor
            self.from = from
            self.to = to
            self.timeout = timeout
            self.environment = environment
            self.transport = transport
        }
    }

    /// Downloads the reports `fetch` names that `folder` lacks; what it did, said on `stderr`.
    @discardableResult
    static func fetchReports(_ fetch: Fetch, into folder: String, configuration: Configuration,
                             saying stderr: inout String) throws(ToolFailure) -> ReportFetch.Outcome {
        let plan: ReportFetch
        do {
            plan = try ReportFetch(vendor: fetch.vendor, kind: fetch.kind, from: fetch.from, to: fetch.to)
        } catch {
            throw .usage(error.description)
        }
        var client = try makeClient(environment: fetch.environment, variables: configuration.asc.variables, timeout: fetch.timeout,
                                    transport: fetch.transport, saying: &stderr)
        let done: ReportFetch.Outcome
        do {
            done = try plan.run(into: folder, client: &client)
        } catch {
            if case .api(let failure) = error { throw .cannotRun(failure.description) }
            throw .cannotRun(error.description)
        }
        stderr += "iap: fetched \(plural(done.downloaded.count, "report")) into \(folder)"
        if !done.alreadyThere.isEmpty { stderr += " (\(done.alreadyThere.count) already there)" }
        stderr += "\n"
        if !done.absent.isEmpty {
            // A year of empty days is one line, not 365 dates.
            let dates = done.absent.count <= 7 ? done.absent.joined(separator: ", ")
                : "\(done.absent.count) dates between \(done.absent[0]) and \(done.absent[done.absent.count - 1])"
            stderr += "iap: App Store Connect has no report for \(dates) (no sales, or not published yet)\n"
        }
        return done
    }

    /// A client with the key from the environment; warnings about the key (a file others may
    /// read) are said on `stderr` even when the client cannot be made.
    static func makeClient(environment: [String: String], variables: APIKey.Variables, timeout: Double,
                           transport: (any HTTPTransport)?, sleep: (@Sendable (TimeInterval) -> Void)? = nil,
                           saying stderr: inout String) throws(ToolFailure) -> ASCClient {
        let loaded: APIKey.Loaded
        do {
            loaded = try APIKey.load(from: environment, variables: variables)
        } catch {
            throw .cannotRun(error.description)
        }
        for warning in loaded.warnings { stderr += "iap: warning: \(warning)\n" }
        // The variable is named, never its value: no message carries a value of the environment.
        let notAServer = ToolFailure.cannotRun("\(urlVariable) does not hold an https:// URL (or http:// on 127.0.0.1, a test server): "
                                               + "unset it to reach App Store Connect (`unset \(urlVariable)`), or set it to such a URL")
        var baseURL = ASCClient.productionURL
        if let text = environment[urlVariable], !text.isEmpty {
            guard let url = URL(string: text), url.host?.isEmpty == false else { throw notAServer }
            baseURL = url
        }
        do {
            return try ASCClient(key: loaded.key, baseURL: baseURL, transport: transport ?? SystemTransport(timeout: timeout),
                                 sleep: sleep ?? { Thread.sleep(forTimeInterval: $0) })
        } catch {
            throw notAServer
        }
    }

}
