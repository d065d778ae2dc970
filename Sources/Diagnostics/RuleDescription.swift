/// A file of a rule example. `↓` in `text` marks where the finding must be reported.
public struct ExampleFile: Sendable, Hashable {
    public var name: String
    public var text: String

    public init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }
}

/// Files that make a rule fire (or not), with the options they are checked under: a small
/// catalog for catalog rules, one source file for lint rules.
public struct RuleExample: Sendable, Hashable {
    public var files: [ExampleFile]
    public var bundleID: String?
    public var retired: [String]
    public var requiredLocales: [String]

    public init(_ files: [ExampleFile], bundleID: String? = nil, retired: [String] = [], requiredLocales: [String] = []) {
        self.files = files
        self.bundleID = bundleID
        self.retired = retired
        self.requiredLocales = requiredLocales
    }
}

/// What a rule is, for every kind of rule (catalog, load-time, lint, generation): its identifier,
/// name, default severity, why it exists, and examples that trigger it and examples that don't.
/// Every diagnostic is made from its rule's description (`finding`), so a rule's ID and severity
/// cannot drift apart; `iap rules`, the rules table of docs/commands.md, docs/rules.md and every report's rule list read these.
public struct RuleDescription: Sendable {
    public var id: String
    public var name: String
    /// The severity the rule reports at unless `iap.yml` configures another.
    public var severity: Severity
    /// For a rule that takes a limit (`rules.ID.limit` in `iap.yml`: a length, a percentage, as
    /// its rationale says), the limit it applies unless one is set; nil for a rule that takes none.
    public var defaultLimit: Int?
    public var rationale: String
    /// The examples are made when asked for (by the tests and `iap rules`), not when the rule
    /// runs: one rule's example is a catalog of 10,001 IDs, which every `iap validate` would build.
    public var triggering: [RuleExample] { makeTriggering() }
    public var nonTriggering: [RuleExample] { makeNonTriggering() }
    private let makeTriggering: @Sendable () -> [RuleExample]
    private let makeNonTriggering: @Sendable () -> [RuleExample]

    public init(id: String, name: String, severity: Severity, defaultLimit: Int? = nil, rationale: String,
                triggering: @autoclosure @escaping @Sendable () -> [RuleExample],
                nonTriggering: @autoclosure @escaping @Sendable () -> [RuleExample]) {
        self.id = id
        self.name = name
        self.severity = severity
        self.defaultLimit = defaultLimit
        self.rationale = rationale
        self.makeTriggering = triggering
        self.makeNonTriggering = nonTriggering
    }

    /// Where the rule is documented: docs/rules.md, anchored by the rule's ID.
    public var helpURI: String { "\(RuleDescription.documentationRoot)#\(id)" }

    /// The public home of the rules' documentation.
    public static let documentationRoot = "https://github.com/iapcatalog/iap/blob/main/docs/rules.md"

    /// A finding of this rule at its default severity.
    public func finding(_ message: String, at location: SourceLocation, related: [RelatedLocation] = [],
                        fix: SuggestedFix? = nil, subject: String? = nil) -> Diagnostic {
        Diagnostic(ruleID: id, severity: severity, message: message, location: location, related: related, fix: fix,
                   subject: subject)
    }
}

/// A rule as one type, in one file with its description, examples and decisions: code that needs
/// the rule's ID or makes its findings names the type (`DuplicateIDRule.id`,
/// `HardcodedPriceRule.description.finding(…)`), never the ID as a string.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
}

extension Rule {
    /// The rule's ID, as `iap.yml`, suppressions and every report name it.
    public static var id: String { description.id }
}
