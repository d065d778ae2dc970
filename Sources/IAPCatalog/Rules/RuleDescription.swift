import Diagnostics

/// Catalog examples: product lists and metadata plists.
extension RuleExample {
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

/// Options that rules read.
public struct ValidationOptions: Sendable {
    /// Retired product IDs (`--retired FILE`) with where each was listed.
    public var retiredIDs: [String: SourceLocation]
    /// Locales every product must be localized in (`--require-locale`).
    public var requiredLocales: [String]
    public var displayNameLimit: Int
    public var descriptionLimit: Int
    public var maxProducts: Int
    /// A rule that finds more than this in one catalog reports the first this many (in output
    /// order) and one summary of the rest; nil reports every finding.
    public var findingsPerRule: Int?
    /// Threads the rules run on (nil: one per core). The findings are the same whatever the count.
    public var jobs: Int?

    public init(retiredIDs: [String: SourceLocation] = [:], requiredLocales: [String] = [], displayNameLimit: Int = 35,
                descriptionLimit: Int = 55, maxProducts: Int = 10_000, findingsPerRule: Int? = 100, jobs: Int? = nil) {
        self.retiredIDs = retiredIDs
        self.requiredLocales = requiredLocales
        self.displayNameLimit = displayNameLimit
        self.descriptionLimit = descriptionLimit
        self.maxProducts = maxProducts
        self.findingsPerRule = findingsPerRule
        self.jobs = jobs
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
        description.finding(message, at: location, related: related, fix: fix)
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
