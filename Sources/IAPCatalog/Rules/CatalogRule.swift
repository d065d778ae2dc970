import Diagnostics

/// Options that rules read.
public struct ValidationOptions: Sendable {
    /// Retired product IDs (`--retired FILE`) with where each was listed.
    public var retiredIDs: [String: SourceLocation]
    /// Locales every product must be localized in (`--require-locale`).
    public var requiredLocales: [String]
    /// Limits set for the rules that take one (`rules.ID.limit` in `iap.yml`, `--display-name-limit`),
    /// by rule ID; a rule missing here applies its description's `defaultLimit` (`limit(of:)`).
    public var limits: [String: Int]
    public var maxProducts: Int
    /// A rule that finds more than this in one catalog reports the first this many (in output
    /// order) and one summary of the rest; nil reports every finding.
    public var findingsPerRule: Int?
    /// Threads the rules run on (nil: one per core). The findings are the same whatever the count.
    public var jobs: Int?

    public init(retiredIDs: [String: SourceLocation] = [:], requiredLocales: [String] = [], displayNameLimit: Int? = nil,
                descriptionLimit: Int? = nil, maxProducts: Int = TooManyProductsRule.appStoreConnectMaximum, findingsPerRule: Int? = 100,
                jobs: Int? = nil) {
        self.retiredIDs = retiredIDs
        self.requiredLocales = requiredLocales
        self.limits = [:]
        self.maxProducts = maxProducts
        self.findingsPerRule = findingsPerRule
        self.jobs = jobs
        if let displayNameLimit { limits[DisplayNameTooLongRule.id] = displayNameLimit }
        if let descriptionLimit { limits[DescriptionTooLongRule.id] = descriptionLimit }
    }

    /// The limit `rule` applies: the one set for it, or its default (0 for a rule that takes none).
    public func limit(of rule: RuleDescription) -> Int {
        limits[rule.id] ?? rule.defaultLimit ?? 0
    }

    public var displayNameLimit: Int {
        get { limit(of: DisplayNameTooLongRule.description) }
        set { limits[DisplayNameTooLongRule.id] = newValue }
    }

    public var descriptionLimit: Int {
        get { limit(of: DescriptionTooLongRule.description) }
        set { limits[DescriptionTooLongRule.id] = newValue }
    }
}

/// A check over a whole catalog. Each is one type in `Rules/<Family>/<Name>.swift`, with its
/// description (a static `description`, so others name it as `DuplicateIDRule.id`), examples,
/// implementation and settings; `CatalogRules.all` registers it.
public protocol CatalogRule: Sendable {
    var description: RuleDescription { get }
    /// Where the validator starts this rule when it runs the rules of a large catalog on several
    /// threads: the slowest first (0, then 1, …), so the threads end together; nil for a rule
    /// quick enough to take in registry order after those.
    var schedulingRank: Int? { get }
    /// Whether the rule predicts App Store Connect refusing a value when it is saved there: in a
    /// `.storekit` file synced from App Store Connect, its findings are info (`CatalogValidator`).
    var isAppStoreConnectLimit: Bool { get }
    /// Offers each finding to `found`, by its location first (`FindingCollector.add(at:_:)`), so
    /// that one past what the collector keeps is counted and never built.
    func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector)
}

extension CatalogRule {
    public var schedulingRank: Int? { nil }
    public var isAppStoreConnectLimit: Bool { false }

    /// Every finding of this rule, uncapped, in the order it offers them.
    public func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        var found = FindingCollector(limit: nil)
        check(catalog, options: options, into: &found)
        return found.findings(of: description)
    }

    /// A diagnostic of this rule at its default severity.
    func finding(_ message: String, at location: SourceLocation, related: [RelatedLocation] = [],
                 fix: SuggestedFix? = nil) -> Diagnostic {
        description.finding(message, at: location, related: related, fix: fix)
    }
}

extension CatalogRule where Self: Rule {
    public var description: RuleDescription { Self.description }
}

/// A rule whose findings the loader makes while reading files (`Rules/Files/`): in the catalog's
/// rule list, it hands those findings on.
struct LoadTimeRule: CatalogRule {
    let description: RuleDescription

    init(_ rule: any Rule.Type) {
        description = rule.description
    }

    func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        found.add(contentsOf: catalog.loadDiagnostics.lazy.filter { $0.ruleID == description.id })
    }
}
