import Diagnostics
import Foundation
import IAPCatalog

/// How every command finds and loads catalogs (DESIGN.md's `CatalogSelection`): the default when
/// no path and no `iap.yml` names them (`./catalogs` when it exists, else the catalogs found under
/// `.`), bundle-ID overrides, "no catalog here", "exactly one catalog" and "is any file
/// unreadable". One place, so `validate`, `list`, `report`, `gen`, `storekit`, `lint`, `price`
/// and `check` agree.
public struct CatalogPolicy: Sendable {
    /// `--bundle-id`: wins over `Info.plist`, the Xcode project and the metadata plist.
    public var bundleID: String?
    /// Where `bundleID` was given (`--bundle-id`, or a line of `iap.yml`).
    public var bundleIDSource: SourceLocation
    /// The folder read when no path is given and it exists; else `.` is walked.
    public var defaultPath: String

    public init(bundleID: String? = nil, bundleIDSource: SourceLocation? = nil, defaultPath: String = "catalogs") {
        self.bundleID = bundleID
        self.bundleIDSource = bundleIDSource ?? SourceLocation(path: "--bundle-id")
        self.defaultPath = defaultPath
    }

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
        public var productCount: Int { catalogs.reduce(0) { $0 + $1.products.count } }
    }

    /// The paths to read: the given ones; with none, the default folder when it exists, else the
    /// working folder, walked by content (an app folder without `catalogs/`).
    public func resolvedPaths(_ paths: [String]) -> [String] {
        if !paths.isEmpty { return paths }
        return FileManager.default.fileExists(atPath: defaultPath) ? [defaultPath] : ["."]
    }

    /// What the default reads, for a note: "./catalogs", or "the catalogs found under .".
    public var defaultDescription: String {
        resolvedPaths([]) == ["."] ? "the catalogs found under ." : "./\(defaultPath)"
    }

    /// A walk's failure as the run's: a named file that is no catalog file is a usage error.
    static func failure(_ error: FileDiscovery.Failure) -> ToolFailure {
        if case .notCatalogFile = error { return .usage(error.message) }
        return .cannotRun(error.message)
    }

    /// Every catalog under the paths (the default folder when none). A missing path fails.
    public func load(_ paths: [String]) throws(ToolFailure) -> Loaded {
        let resolved = resolvedPaths(paths)
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
    public func loadOne(_ paths: [String], subject: String? = nil) throws(ToolFailure) -> Catalog {
        let subject = subject ?? resolvedPaths(paths).joined(separator: ", ")
        let catalogs = try load(paths).catalogs
        guard catalogs.count == 1, let catalog = catalogs.first else {
            if catalogs.isEmpty { throw .cannotRun("no catalog found in \(subject)") }
            throw .cannotRun("\(subject) holds \(catalogs.count) catalogs (\(catalogs.map(\.name).joined(separator: ", "))); pass the files or folder of one")
        }
        return catalog
    }

    /// The catalogs under folders among `paths`, for commands that use a catalog when one is
    /// there (`lint`): no failure when there is none. A catalog made only of test
    /// configurations (a `.storekit` under a Tests folder) is not the app's: its names are fixtures.
    /// A catalog file there that cannot be read still stops the run: "no catalog found" would be
    /// untrue, and the sources would be linted without the titles and IDs they sell.
    public func loadBeside(_ paths: [String]) throws(ToolFailure) -> (folders: [String], catalogs: [Catalog]) {
        let folders = paths.filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && d.boolValue }
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
