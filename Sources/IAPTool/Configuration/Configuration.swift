import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import PropertyList
import SalesReports
import Support
import Yams

/// One output `iap check` keeps up to date (`generate:` in `iap.yml`): Swift constants, or a
/// StoreKit configuration when `output` ends in `.storekit`.
public struct GenerateEntry: Sendable, Equatable {
    public var output: String
    /// For a `.storekit` output: the storefront whose prices it holds, and its price locale.
    public var storefront: String?
    public var locale: String?
    /// The catalog to generate from (default: the file's `catalogs`).
    public var catalog: String?
    public var style: String?
    public var typeName: String?
    public var access: String?
    public var template: String?
    public var disambiguate = false
}

/// `iap.yml`: what a project checks and how. Every path in it is relative to the file's folder,
/// and what it names for iap to write, and its baseline, stay inside that folder (`ConfinedPath`).
/// `${NAME}` is the environment variable only in the keys `expandingKeys` lists, whose values are
/// a choice among known names, so no variable's value can reach a report or a message. Read with
/// Yams; every error is collected with its line, column and key path before the run gives up,
/// and an unknown key is a warning naming the nearest known one.
public struct Configuration: Sendable {
    public static let fileName = "iap.yml"

    /// The file read, as given or found; nil when there is none.
    public var path: String?
    /// How the file was chosen (`none` without one).
    public var source = Source.none
    /// The file's folder, relative to the working folder when it is below or above it.
    public var root = "."
    public var bundleID: String?
    /// The line of `bundle-id` (or `info-plist`), for the "bundle ID from here" note.
    public var bundleIDSource: SourceLocation?
    public var catalogs: [String] = []
    /// Whether the file names its catalogs (else the walk of its folder stands in).
    public var catalogsNamed = false
    public var retired: String?
    public var requiredLocales: [String] = []
    public var severities: [String: Severity?] = [:]
    /// `rules.ID.limit` by rule ID, for the rules that take a limit (`limitedRules`).
    public var limits: [String: Int] = [:]
    public var displayNameLimit: Int? { limits[DisplayNameTooLongRule.id] }
    public var descriptionLimit: Int? { limits[DescriptionTooLongRule.id] }
    public var lintPaths: [String] = []
    public var lintExcludes: [String] = []
    public var lintIncludeTests = false
    public var lintCatalog: String?
    public var generate: [GenerateEntry] = []
    public var format: String?
    public var reports: [ReportTarget] = []
    public var baseline: String?
    public var strict = false
    public var failOnFixedBaseline = false
    /// `asc:`: App Store Connect — the snapshot `iap check` compares the catalog with, the app
    /// `iap asc pull` reads, and the names of the variables that hold the key (never the key).
    public var asc = ASCSettings()
    /// Unknown keys and other things worth saying that do not stop the run.
    public var warnings: [String] = []

    public init() {}

    /// The keys the file knows, by the path of the mapping they are in.
    static let knownKeys: [String: [String]] = [
        "": ["bundle-id", "info-plist", "catalogs", "retired", "required-locales", "rules", "lint", "generate",
             "format", "reports", "baseline", "strict", "fail-on-fixed-baseline", "asc"],
        "lint": ["paths", "exclude", "include-tests", "catalog"],
        "asc": ["snapshot", "app", "storefront", "issuer-id-variable", "key-id-variable", "private-key-variable", "private-key-path-variable"],
        "generate[]": ["output", "catalog", "style", "type-name", "access", "template", "disambiguate", "storefront", "locale"],
        "rules.*": ["severity", "limit"],
    ]

    /// The keys where `${NAME}` is the environment variable NAME (docs/ci.md). Each takes one of
    /// a few known names (a format, a style, an access level, a storefront code), so an expanded
    /// value never reaches a finding, a report, a file name or a message; elsewhere `${` is an error.
    public static let expandingKeys = ["format", "generate[].style", "generate[].access", "generate[].storefront"]

    /// Rules that take a `limit`: the ones whose description has a default limit.
    static let limitedRules = RuleRegistry.all.filter { $0.defaultLimit != nil }.map(\.id)

    /// Reads the file at `path` (`--config`), or the one found from the working folder up to the
    /// repository root (`search`); with neither, the defaults.
    public static func load(explicit path: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ToolFailure) -> Configuration {
        if let path {
            guard FileManager.default.fileExists(atPath: path) else {
                throw .cannotRun("\(path): configuration file not found")
            }
            var config = try parse(path: path, displayPath: path, environment: environment)
            config.source = .commandLine
            return config
        }
        let search = search()
        guard let found = search.found else { return Configuration() }
        var config = try parse(path: found, displayPath: relativeToWorkingFolder(found), environment: environment)
        config.source = search.isAncestor ? .ancestor : .workingFolder
        return config
    }

    /// Parses a configuration file; `displayPath` is how messages name it.
    public static func parse(path: String, displayPath: String, environment: [String: String]) throws(ToolFailure) -> Configuration {
        let text: String
        switch FileContents.text(path) {
        case .success(let read): text = read
        case .failure(let failure) where failure.reason == FileContents.notText:
            throw .cannotRun("\(displayPath): cannot read the file as UTF-8 text")
        case .failure(let failure):
            throw .cannotRun("\(displayPath): cannot read: \(failure.phrase)")
        }
        var parser = ConfigurationParser(file: displayPath, environment: environment, confined: ConfinedPath(configPath: path),
                                         repository: ConfinedPath(repositoryOf: path))
        var config = Configuration()
        config.path = displayPath
        let folder = (displayPath as NSString).deletingLastPathComponent
        config.root = folder.isEmpty ? "." : folder
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw .cannotRun(parser.describe(error))
        } catch {
            throw .cannotRun("\(displayPath): \(error)")
        }
        if let root { parser.read(root, into: &config) }
        // No catalogs named: the content-based walk of the whole project finds them.
        config.catalogsNamed = !config.catalogs.isEmpty
        if config.catalogs.isEmpty { config.catalogs = [config.root] }
        guard parser.errors.isEmpty else {
            throw .cannotRun(parser.errors.joined(separator: "\n") + "\n\(displayPath): \(plural(parser.errors.count, "error")); fix the file (see docs/ci.md)")
        }
        config.warnings = parser.warnings
        return config
    }

    /// A path of the file, made relative to the working folder by way of the file's folder.
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || root == "." { return path }
        // `.` and `./App` name the file's own folder: `Project/App`, never `Project/./App` in findings.
        if path == "." || path == "./" { return root }
        return root + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    static func relativeToWorkingFolder(_ absolute: String) -> String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents
        var common = 0
        while common < min(cwd.count, target.count), cwd[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: cwd.count - common)
        let rest = Array(target[common...])
        return (ups + rest).joined(separator: "/")
    }
}

extension Configuration {
    /// What every reporting command takes from the file: severities, the fingerprint root and
    /// the baseline. Formats, reports and `strict` are `check`'s (`checkPlan`).
    public var basePlan: ReportPlan {
        var plan = ReportPlan()
        plan.severities = severities
        plan.root = root
        plan.baseline = baseline
        plan.failOnFixedBaseline = failOnFixedBaseline
        return plan
    }

    /// `check`'s plan: the base plan, and the file's format, reports and strictness.
    public var checkPlan: ReportPlan {
        var plan = basePlan
        if let format { plan.stdoutFormat = format }
        plan.reports = reports
        plan.strict = strict
        return plan
    }
}
