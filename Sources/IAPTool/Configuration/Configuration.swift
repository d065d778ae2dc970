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
    /// The refund rate, in percent, from which a product is reported.
    public var refundRateLimit: Int? { limits[HighRefundRateRule.id] }
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

/// Walks the YAML tree, collecting values, errors and warnings.
struct ConfigurationParser {
    let file: String
    let environment: [String: String]
    /// The file's folder, resolved, for the paths that must stay inside it; nil when it cannot be
    /// resolved (then only the spelling of a path is checked).
    let confined: ConfinedPath?
    /// The repository holding the file, for the paths it names to read; nil outside one.
    let repository: ConfinedPath?
    var errors: [String] = []
    var warnings: [String] = []

    init(file: String, environment: [String: String], confined: ConfinedPath? = nil, repository: ConfinedPath? = nil) {
        self.file = file
        self.environment = environment
        self.confined = confined
        self.repository = repository
    }

    func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            "\(file):\(mark.line):\(mark.column): not valid YAML: \(problem)"
        case .reader(let problem, _, _, _): "\(file): not valid YAML: \(problem)"
        default: "\(file): not valid YAML: \(error)"
        }
    }

    mutating func error(_ node: Node, _ key: String, _ message: String) {
        errors.append("\(position(node)): \(key): \(message)")
    }

    /// `iap.yml:LINE:COL`, where the node starts.
    func position(_ node: Node) -> String {
        "\(file):\(node.mark?.line ?? 0):\(node.mark?.column ?? 0)"
    }

    static func found(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// The entries of a mapping, or none and an error saying what was expected there.
    private mutating func entries(_ node: Node, _ path: String, expecting what: String) -> [(key: String, keyNode: Node, value: Node)] {
        guard let mapping = node.mapping else {
            error(node, path, "expected \(what), found \(Self.found(node))")
            return []
        }
        return mapping.map { (key: $0.key.string ?? "", keyNode: $0.key, value: $0.value) }
    }

    mutating func read(_ root: Node, into config: inout Configuration) {
        for (key, keyNode, value) in entries(root, "(top level)", expecting: "a mapping of keys (bundle-id, catalogs, rules, …)") {
            switch key {
            case "bundle-id":
                config.bundleID = string(value, key)
                if let id = config.bundleID, let problem = ValueCheck.bundleIDProblem(id) {
                    error(value, key, "\(problem) (found \"\(id)\")")
                }
                config.bundleIDSource = SourceLocation(path: file, line: value.mark?.line ?? 0)
            case "info-plist":
                if let path = string(value, key), confineRead(path, value, key), config.bundleID == nil {
                    config.bundleID = bundleID(fromInfoPlist: config.resolve(path), node: value, key: key)
                    config.bundleIDSource = SourceLocation(path: file, line: value.mark?.line ?? 0)
                }
            case "catalogs": config.catalogs = readPaths(value, key).map(config.resolve)
            case "retired": config.retired = string(value, key).flatMap { confineRead($0, value, key) ? $0 : nil }.map(config.resolve)
            case "required-locales":
                config.requiredLocales = strings(value, key)
                for locale in config.requiredLocales {
                    if let problem = ValueCheck.localeProblem(locale) { error(value, key, "\(problem) (found \"\(locale)\")") }
                }
            case "rules": readRules(value, into: &config)
            case "lint": readLint(value, into: &config)
            case "asc": readASC(value, into: &config)
            case "generate": readGenerate(value, into: &config)
            case "format":
                if let (format, shown) = expanded(value, key) {
                    if !FindingsFormat.isKnown(format) { error(value, key, "unknown format \(shown); formats: \(Reporters.identifiers.joined(separator: ", "))") }
                    else { config.format = FormatName.canonical(format) }
                }
            case "reports":
                for (index, item) in list(value, key).enumerated() {
                    let itemKey = "reports[\(index)]"
                    guard let text = string(item, itemKey) else { continue }
                    do {
                        var target = try ReportTarget(parsing: text)
                        guard confine(target.path, item, itemKey, elsewhere: "--report \(Escape.shellArgument("\(target.format):\(target.path)"))") else { continue }
                        target.path = config.resolve(target.path)
                        config.reports.append(target)
                    } catch { self.error(item, itemKey, failure(error)) }
                }
            case "baseline":
                if let path = string(value, key), confine(path, value, key, elsewhere: "--baseline \(Escape.shellArgument(path, path: true))") {
                    config.baseline = config.resolve(path)
                }
            case "strict": config.strict = bool(value, key) ?? false
            case "fail-on-fixed-baseline": config.failOnFixedBaseline = bool(value, key) ?? false
            default: unknown(keyNode, key, in: "")
            }
        }
    }

    private func failure(_ error: ToolFailure) -> String { error.message }

    private mutating func unknown(_ node: Node, _ key: String, in section: String) {
        let known = Configuration.knownKeys[section] ?? []
        let path = section.isEmpty ? key : "\(section.replacingOccurrences(of: "[]", with: "[]")).\(key)"
        let nearest = known.min { EditDistance.between($0, key) < EditDistance.between($1, key) }
        var message = "\(position(node)): warning: \(path): unknown key, ignored"
        if let nearest, EditDistance.between(nearest, key) <= max(2, key.count / 3) { message += "; did you mean '\(nearest)'?" }
        else { message += "; known keys: \(known.joined(separator: ", "))" }
        warnings.append(message)
    }

    private mutating func readRules(_ node: Node, into config: inout Configuration) {
        for (id, keyNode, value) in entries(node, "rules", expecting: "a mapping of rule ID → severity or {severity, limit}") {
            let path = "rules.\(id)"
            guard RuleRegistry.rule(id) != nil else {
                let nearest = RuleRegistry.all.map(\.id).min { EditDistance.between($0, id) < EditDistance.between($1, id) }
                error(keyNode, path, "no such rule" + (nearest.map { "; did you mean '\($0)'?" } ?? "") + " (iap rules lists them)")
                continue
            }
            if value.scalar != nil {
                if let severity = severity(value, path) { config.severities[id] = severity }
                continue
            }
            for (option, optionKey, optionValue) in entries(value, path, expecting: "a severity (off, info, warning, error) or a mapping with severity and limit") {
                switch option {
                case "severity":
                    if let severity = severity(optionValue, "\(path).severity") { config.severities[id] = severity }
                case "limit":
                    guard Configuration.limitedRules.contains(id) else {
                        error(optionKey, "\(path).limit", "this rule takes no limit; only \(Configuration.limitedRules.joined(separator: ", ")) do")
                        continue
                    }
                    guard let limit = int(optionValue, "\(path).limit") else { continue }
                    guard limit > 0 else { error(optionValue, "\(path).limit", "expected a positive integer, found \(limit)"); continue }
                    config.limits[id] = limit
                default: unknown(optionKey, option, in: "rules.*")
                }
            }
        }
    }

    private mutating func readLint(_ node: Node, into config: inout Configuration) {
        for (key, keyNode, value) in entries(node, "lint", expecting: "a mapping with paths, exclude, include-tests, catalog") {
            switch key {
            case "paths": config.lintPaths = readPaths(value, "lint.paths").map(config.resolve)
            case "exclude": config.lintExcludes = strings(value, "lint.exclude")
            case "include-tests": config.lintIncludeTests = bool(value, "lint.include-tests") ?? false
            case "catalog": config.lintCatalog = string(value, "lint.catalog").flatMap { confineRead($0, value, "lint.catalog") ? $0 : nil }.map(config.resolve)
            default: unknown(keyNode, key, in: "lint")
            }
        }
    }

    private mutating func readASC(_ node: Node, into config: inout Configuration) {
        for (key, keyNode, value) in entries(node, "asc", expecting: "a mapping with snapshot, app and the key's variable names") {
            let path = "asc.\(key)"
            switch key {
            case "snapshot":
                // Read by diff and check, written by pull: confined as every path iap.yml names to write.
                if let snapshot = string(value, path), confine(snapshot, value, path, elsewhere: "--snapshot \(Escape.shellArgument(snapshot, path: true))") {
                    config.asc.snapshot = config.resolve(snapshot)
                }
            case "app":
                config.asc.app = string(value, path)
            case "storefront":
                if let code = string(value, path) {
                    if let storefront = try? Storefronts.find(code) { config.asc.storefront = storefront.alpha3 }
                    else { error(value, path, "unknown storefront '\(code.prefix(20))'; `iap storefronts` lists them") }
                }
            case "issuer-id-variable", "key-id-variable", "private-key-variable", "private-key-path-variable":
                guard let name = string(value, path) else { continue }
                // A variable's name, never its value: the key stays out of the repository. And only
                // iap's own variables: a pull request must not have the key read from GITHUB_TOKEN.
                // What was written is not repeated: it may be a key pasted in, or a secret's name.
                guard APIKey.Variables.isAllowedName(name) else {
                    error(value, path, "expected the name of an environment variable that starts with \(APIKey.Variables.prefix), then letters, "
                          + "digits or _ (like \(APIKey.Variables.prefix)PRIVATE_KEY_SHOP); iap.yml names only iap's own variables and never "
                          + "holds the key itself: put the key in a CI secret, give it to the job as such a variable, and name it here")
                    continue
                }
                switch key {
                case "issuer-id-variable": config.asc.variables.issuerID = name
                case "key-id-variable": config.asc.variables.keyID = name
                case "private-key-variable": config.asc.variables.privateKey = name
                default: config.asc.variables.privateKeyPath = name
                }
            default: unknown(keyNode, key, in: "asc")
            }
        }
    }

    private mutating func readGenerate(_ node: Node, into config: inout Configuration) {
        for (index, item) in list(node, "generate").enumerated() {
            let path = "generate[\(index)]"
            guard item.mapping != nil else {
                error(item, path, "expected a mapping with output (and catalog, style, type-name, access, template, disambiguate), found \(Self.found(item))")
                continue
            }
            var entry = GenerateEntry(output: "")
            var leadsOut = false
            for (key, keyNode, value) in entries(item, path, expecting: "a mapping") {
                switch key {
                case "output":
                    if let output = string(value, "\(path).output") {
                        let command = output.lowercased().hasSuffix(".storekit") ? "iap storekit" : "iap gen"
                        if confine(output, value, "\(path).output", elsewhere: "\(command) -o \(Escape.shellArgument(output, path: true))") { entry.output = config.resolve(output) }
                        else { leadsOut = true }
                    }
                case "style":
                    if let (style, shown) = expanded(value, "\(path).style") {
                        if ["constants", "enum"].contains(style) { entry.style = style }
                        else { error(value, "\(path).style", "expected constants or enum, found \(shown)") }
                    }
                case "type-name": entry.typeName = string(value, "\(path).type-name")
                case "access":
                    if let (access, shown) = expanded(value, "\(path).access") {
                        if ["internal", "public", "package"].contains(access) { entry.access = access }
                        else { error(value, "\(path).access", "expected internal, public or package, found \(shown)") }
                    }
                case "catalog": entry.catalog = string(value, "\(path).catalog").flatMap { confineRead($0, value, "\(path).catalog") ? $0 : nil }.map(config.resolve)
                case "template": entry.template = string(value, "\(path).template").flatMap { confineRead($0, value, "\(path).template") ? $0 : nil }.map(config.resolve)
                case "disambiguate": entry.disambiguate = bool(value, "\(path).disambiguate") ?? false
                case "storefront":
                    if let (code, shown) = expanded(value, "\(path).storefront") {
                        if (try? Storefronts.find(code)) != nil { entry.storefront = code }
                        else { error(value, "\(path).storefront", "not one of the App Store's 175 storefronts (iap storefronts lists them), found \(shown)") }
                    }
                case "locale":
                    entry.locale = string(value, "\(path).locale")
                    if let locale = entry.locale, let problem = ValueCheck.localeProblem(locale) {
                        error(value, "\(path).locale", "\(problem) (found \"\(locale)\")")
                    }
                default: unknown(keyNode, key, in: "generate[]")
                }
            }
            if leadsOut { continue }
            if entry.output.isEmpty { error(item, "\(path).output", "missing: the file to keep up to date") }
            else { config.generate.append(entry) }
        }
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
