import Diagnostics
import Foundation
import IAPCatalog
import Support

/// Which catalogs a command reads, with which bundle ID, and from where: one decision for every
/// command (DESIGN.md), so `validate`, `list`, `report`, `lint`, `gen`, `storekit`, `convert`,
/// `price`, `check` and the plugins' `iap-gen` agree.
///
/// - Paths: the ones given (on the command line, or as a `generate:` entry's `catalog`), else the
///   ones `iap.yml` names (its folder, walked by content, when it names none), else `./catalogs`
///   when it exists, else the catalogs found under the working folder.
/// - Bundle ID: `--bundle-id`, else `iap.yml`'s (`bundle-id`, or read from its `info-plist`), else
///   each catalog's own (its `Info.plist`, Xcode project or metadata plist), found as it is loaded.
///
/// It also says "no catalog here", "exactly one catalog", and which catalogs are test
/// configurations rather than the app's.
public struct CatalogSelection: Sendable {
    /// Where the paths come from.
    public enum Origin: Sendable, Equatable {
        /// Named by the user: on the command line, or by a `generate:` entry.
        case given
        /// Named by `iap.yml` (its `catalogs:`, else its folder).
        case configured
        /// Named by nobody: `./catalogs` when it exists, else the catalogs under `.`.
        case defaulted
    }

    /// The paths named (empty when `origin` is `defaulted`; `resolvedPaths` says what is read).
    public var paths: [String]
    public var origin: Origin
    /// The bundle ID that wins over the catalogs' own (`--bundle-id`, else `iap.yml`'s); nil: each catalog's own.
    public var bundleID: String?
    /// Where `bundleID` was given: `--bundle-id`, or the line of `iap.yml` that gave it.
    public var bundleIDSource: SourceLocation
    /// The folder read when nothing names the paths and it exists; else `.` is walked.
    public var defaultPath: String

    /// The selection from what the user and `iap.yml` say. `given`: paths named on the command
    /// line (or by a `generate:` entry); `configured`: the catalogs `iap.yml` names, nil when
    /// there is no `iap.yml`. `bundleID` (`--bundle-id`) wins over `configuredBundleID`
    /// (`iap.yml`'s, given at `configuredBundleIDSource`).
    public init(given: [String] = [], configured: [String]? = nil, bundleID: String? = nil,
                configuredBundleID: String? = nil, configuredBundleIDSource: SourceLocation? = nil, defaultPath: String = "catalogs") {
        if !given.isEmpty {
            (paths, origin) = (given, .given)
        } else if let configured, !configured.isEmpty {
            (paths, origin) = (configured, .configured)
        } else {
            (paths, origin) = ([], .defaulted)
        }
        if let bundleID {
            (self.bundleID, bundleIDSource) = (bundleID, SourceLocation(path: "--bundle-id"))
        } else {
            self.bundleID = configuredBundleID
            bundleIDSource = configuredBundleID == nil ? SourceLocation(path: "--bundle-id")
                : configuredBundleIDSource ?? SourceLocation(path: "--bundle-id")
        }
        self.defaultPath = defaultPath
    }

    /// The same bundle ID over other paths, named by the user (`lint --catalog`).
    public func naming(_ paths: [String]) -> CatalogSelection {
        var copy = self
        copy.paths = paths
        copy.origin = paths.isEmpty ? .defaulted : .given
        return copy
    }

    /// Whether someone named the catalogs (the command line or `iap.yml`), rather than the default.
    public var isNamed: Bool { origin != .defaulted }

    var loader: CatalogLoader {
        var loader = CatalogLoader(bundleIDOverride: bundleID)
        loader.bundleIDOverrideSource = bundleIDSource
        return loader
    }

    /// What a load found.
    public struct Loaded: Sendable {
        /// The paths read (the default folder when none were given).
        public var paths: [String]
        public var catalogs: [Catalog]
        /// Files a folder walk passed over, with why (`--verbose`).
        public var passedOver: [PassedOverFile]

        /// The catalogs, or a failure when the paths hold none. With `verbose` the passed-over
        /// files have been listed already, so the message does not point to `--verbose`.
        public func requireCatalogs(verbose: Bool) throws(ToolFailure) -> [Catalog] {
            guard catalogs.isEmpty else { return catalogs }
            let files = passedOver.filter { !$0.isFolder }.count
            let skipped = files == 0 ? ""
                : " (\(plural(files, "other plist")) passed over\(verbose ? "" : "; --verbose says why"))"
            throw .cannotRun("no catalog found in \(paths.joined(separator: ", ")): no product-ID list, metadata plist or .storekit file\(skipped)")
        }

        /// Files checked, over all catalogs.
        public var fileCount: Int { catalogs.reduce(0) { $0 + $1.files.count } }
        /// The catalog files among them: not the `Info.plist`s that lent a bundle ID.
        public var catalogFileCount: Int {
            catalogs.reduce(0) { count, catalog in
                count + catalog.files.filter { if case .bundleInfo = $0.content { false } else { true } }.count
            }
        }
        public var productCount: Int { catalogs.reduce(0) { $0 + $1.products.count } }
    }

    /// The paths to read: the ones named; with none, the default folder when it exists, else the
    /// working folder, walked by content (an app folder without `catalogs/`).
    public var resolvedPaths: [String] {
        if !paths.isEmpty { return paths }
        return FileManager.default.fileExists(atPath: defaultPath) ? [defaultPath] : ["."]
    }

    /// What the default reads, for a note: "./catalogs", or "the catalogs found under .".
    public var defaultDescription: String {
        naming([]).resolvedPaths == ["."] ? "the catalogs found under ." : "./\(defaultPath)"
    }

    /// A walk's failure as the run's: a named file that is no catalog file is a usage error.
    static func failure(_ error: FileDiscovery.Failure) -> ToolFailure {
        if case .notCatalogFile = error { return .usage(error.message) }
        return .cannotRun(error.message)
    }

    /// Every catalog under the paths (the default folder when none). A missing path fails.
    public func load() throws(ToolFailure) -> Loaded {
        let resolved = resolvedPaths
        do {
            let result = try loader.loadAll(paths: resolved)
            let (catalogs, fixtures) = Self.withoutTestConfigurations(result.catalogs, named: resolved)
            return Loaded(paths: resolved, catalogs: catalogs, passedOver: (result.passedOver + fixtures).sorted { $0.path < $1.path })
        } catch {
            throw Self.failure(error)
        }
    }

    /// A walk that finds an app's catalog leaves out the test configurations beside it (catalogs
    /// whose every file is under a Tests folder and was found by the walk, not named): their names
    /// and prices are fixtures, and findings there are not the app's. When they are all a walk
    /// finds, they are checked.
    static func withoutTestConfigurations(_ catalogs: [Catalog], named: [String]) -> (kept: [Catalog], passedOver: [PassedOverFile]) {
        guard catalogs.contains(where: { !isTestConfiguration($0) }) else { return (catalogs, []) }
        let namedFiles = Set(named.map(WalkPolicy.normalized))
        var kept: [Catalog] = []
        var passedOver: [PassedOverFile] = []
        for catalog in catalogs {
            if !isTestConfiguration(catalog) || catalog.files.contains(where: { namedFiles.contains(WalkPolicy.normalized($0.path)) }) {
                kept.append(catalog)
            } else {
                passedOver += catalog.files.map {
                    PassedOverFile(path: $0.path, reason: "a test configuration (under a Tests folder): fixtures, not the app's catalog; name it to check it")
                }
            }
        }
        return (kept, passedOver)
    }

    /// The one catalog a command needs (`gen`, `lint --catalog`). `subject` names the input in
    /// messages (`--catalog App`); nil: the paths read.
    /// `instead`: another way out the message offers when the paths hold several catalogs.
    public func loadOne(subject: String? = nil, instead: String? = nil) throws(ToolFailure) -> Catalog {
        let subject = subject ?? resolvedPaths.joined(separator: ", ")
        let catalogs = try load().catalogs
        guard catalogs.count == 1, let catalog = catalogs.first else {
            if catalogs.isEmpty { throw .cannotRun("no catalog found in \(subject)") }
            throw .cannotRun("\(subject) holds \(catalogs.count) catalogs (\(catalogs.map(\.name).joined(separator: ", "))); "
                             + "name one by \(Self.namingForms(catalogs))" + (instead.map { "; or \($0)" } ?? ""))
        }
        return catalog
    }

    /// The most catalogs `namingForms` spells out.
    static let namedForms = 3

    /// How to name each catalog alone, as shell words: its folder when no other catalog has a
    /// file inside it, else its files (naming a folder that holds another catalog's files would
    /// read that one too). "its folder `Mahjong` (Mahjong), the files `A/x.plist A/y.storekit` (.)".
    static func namingForms(_ catalogs: [Catalog]) -> String {
        let forms = catalogs.prefix(namedForms).map { catalog -> String in
            let own = catalog.files.filter { if case .bundleInfo = $0.content { false } else { true } }.map(\.path)
            let folder = catalog.name
            let alone = !catalogs.contains { other in
                other.name != catalog.name && other.files.contains { FileDiscovery.isInside(($0.path as NSString).deletingLastPathComponent, folder) }
            } && own.allSatisfy { FileDiscovery.isInside(($0 as NSString).deletingLastPathComponent, folder) }
            if alone || own.isEmpty { return "the folder `\(Escape.shellArgument(folder, path: true))` (\(catalog.name))" }
            return "\(own.count == 1 ? "the file" : "the files") `\(Escape.shellArguments(own))` (\(catalog.name))"
        }
        let more = catalogs.count > namedForms ? ", …" : ""
        return forms.joined(separator: ", ") + more
    }

    /// The catalogs under the folders among the paths, for commands that use a catalog when one
    /// is there (`lint`): no failure when there is none. A catalog made only of test
    /// configurations (a `.storekit` under a Tests folder) is not the app's: its names are fixtures.
    /// A catalog file there that cannot be read still stops the run: "no catalog found" would be
    /// untrue, and the sources would be linted without the titles and IDs they sell.
    public func loadBeside() throws(ToolFailure) -> (folders: [String], catalogs: [Catalog]) {
        let folders = resolvedPaths.filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && d.boolValue }
        do {
            return (folders, Self.appCatalogs(try loader.load(paths: folders)))
        } catch {
            throw Self.failure(error)
        }
    }

    /// The catalogs that are an app's, not test configurations.
    public static func appCatalogs(_ catalogs: [Catalog]) -> [Catalog] {
        catalogs.filter { !isTestConfiguration($0) }
    }

    /// A catalog whose every file sits under a Tests folder: a test configuration.
    static func isTestConfiguration(_ catalog: Catalog) -> Bool {
        catalog.files.allSatisfy { file in file.path.split(separator: "/").dropLast().contains { WalkPolicy.isTestFolder(String($0)) } }
    }
}
