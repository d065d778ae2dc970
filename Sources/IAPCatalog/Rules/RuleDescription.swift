import Diagnostics

/// A file of a rule example. `↓` in `text` marks where the finding must be reported.
public struct ExampleFile: Sendable, Hashable {
    public var name: String
    public var text: String

    public init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }
}

/// A small catalog that makes a rule fire (or not), with the options it runs under.
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

    /// An `IAP_ProductIDs.plist` holding these IDs; `↓` before an ID marks its `<string>`.
    public static func ids(_ ids: String..., bundleID: String? = nil, retired: [String] = []) -> RuleExample {
        RuleExample([ExampleFile("IAP_ProductIDs.plist", idList(ids))], bundleID: bundleID, retired: retired)
    }

    /// A metadata plist whose `products` dict holds `body` (keys and dicts, plist XML).
    public static func metadata(_ body: String, bundleID: String? = nil, requiredLocales: [String] = []) -> RuleExample {
        RuleExample([ExampleFile("Metadata.plist", metadataPlist(body))], bundleID: bundleID, requiredLocales: requiredLocales)
    }

    public static func idList(_ ids: [String]) -> String {
        let items = ids.map { id in
            id.hasPrefix("↓") ? "\t↓<string>\(id.dropFirst())</string>" : "\t<string>\(id)</string>"
        }
        return plist("<array>\n" + items.joined(separator: "\n") + "\n</array>")
    }

    public static func metadataPlist(_ body: String) -> String {
        plist("<dict>\n\t<key>IAPCatalogMetadata</key>\n\t<integer>1</integer>\n\t<key>products</key>\n\t<dict>\n\(body)\n\t</dict>\n</dict>")
    }

    public static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }
}

/// What a rule is: its ID, default severity, why it exists, and examples that trigger it and
/// examples that don't. `iap rules`, the README table and the rule tests all read these.
public struct RuleDescription: Sendable {
    public var id: String
    public var name: String
    public var severity: Severity
    public var rationale: String
    public var triggering: [RuleExample]
    public var nonTriggering: [RuleExample]

    public init(id: String, name: String, severity: Severity, rationale: String,
                triggering: [RuleExample], nonTriggering: [RuleExample]) {
        self.id = id
        self.name = name
        self.severity = severity
        self.rationale = rationale
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// Options that rules read.
public struct ValidationOptions: Sendable {
    /// Retired product IDs (`--retired FILE`) with where each was listed.
    public var retiredIDs: [String: SourceLocation]
    /// Locales every product must be localized in (`--require-locale`).
    public var requiredLocales: [String]
    public var displayNameLimit: Int
    public var descriptionLimit: Int
    public var maxProducts: Int

    public init(retiredIDs: [String: SourceLocation] = [:], requiredLocales: [String] = [], displayNameLimit: Int = 35,
                descriptionLimit: Int = 55, maxProducts: Int = 10_000) {
        self.retiredIDs = retiredIDs
        self.requiredLocales = requiredLocales
        self.displayNameLimit = displayNameLimit
        self.descriptionLimit = descriptionLimit
        self.maxProducts = maxProducts
    }
}

/// A check over a whole catalog.
public protocol CatalogRule: Sendable {
    var description: RuleDescription { get }
    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic]
}

extension CatalogRule {
    /// A diagnostic of this rule at its default severity.
    func finding(_ message: String, at location: SourceLocation, related: [RelatedLocation] = [],
                 fix: SuggestedFix? = nil) -> Diagnostic {
        Diagnostic(ruleID: description.id, severity: description.severity, message: message, location: location,
                   related: related, fix: fix)
    }
}

/// A finding made while loading files (the loader emits it); the rule carries its description.
struct LoadTimeRule: CatalogRule {
    let description: RuleDescription

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.loadDiagnostics.filter { $0.ruleID == description.id }
    }
}

extension RuleExample {
    /// One product's entry in a metadata plist's `products` dict.
    public static func product(_ id: String, _ fields: String...) -> String {
        "\t\t<key>\(id)</key>\n\t\t<dict>\n" + fields.map { "\t\t\t" + $0 }.joined(separator: "\n") + "\n\t\t</dict>"
    }
}
