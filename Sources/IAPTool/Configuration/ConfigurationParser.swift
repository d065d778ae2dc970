import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import PropertyList
import SalesReports
import Support
import Yams

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
        var planNode: Node?
        defer {
            if let planNode, config.asc.plan, config.asc.snapshot == nil {
                error(planNode, "asc.plan", "iap check plans the catalog against the snapshot: name it in asc.snapshot "
                      + "(`iap asc pull --app APP --snapshot AppStoreConnect.snapshot.json` writes one)")
            }
        }
        for (key, keyNode, value) in entries(node, "asc", expecting: "a mapping with snapshot, plan, price-points, app, storefront and the key's variable names") {
            let path = "asc.\(key)"
            switch key {
            case "snapshot":
                // Read by diff and check, written by pull: confined as every path iap.yml names to write.
                if let snapshot = string(value, path), confine(snapshot, value, path, elsewhere: "--snapshot \(Escape.shellArgument(snapshot, path: true))") {
                    config.asc.snapshot = config.resolve(snapshot)
                }
            case "plan":
                // check plans the catalog against the snapshot: it needs one.
                planNode = value
                config.asc.plan = bool(value, path) ?? false
            case "price-points":
                // Written by pull --price-points, read by validate and check: confined as the snapshot is.
                if let file = string(value, path), confine(file, value, path, elsewhere: "--price-points \(Escape.shellArgument(file, path: true))") {
                    config.asc.pricePoints = config.resolve(file)
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
