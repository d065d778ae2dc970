import Diagnostics

/// Runs every catalog rule and returns the findings in stable order.
public struct CatalogValidator: Sendable {
    public var options: ValidationOptions
    public var rules: [any CatalogRule]

    public init(options: ValidationOptions = ValidationOptions(), rules: [any CatalogRule] = CatalogRules.all) {
        self.options = options
        self.rules = rules
    }

    public func validate(_ catalog: Catalog) -> [Diagnostic] {
        unsorted(catalog).sortedForOutput()
    }

    public func validate(_ catalogs: [Catalog]) -> [Diagnostic] {
        catalogs.flatMap(unsorted).sortedForOutput()
    }

    private func unsorted(_ catalog: Catalog) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for rule in rules { found += rule.check(catalog, options: options) }
        return found
    }
}

/// The registry of catalog rules, in the order `iap rules` lists them.
public enum CatalogRules {
    public static let all: [any CatalogRule] = fileRules + idRules + metadataRules + localizationRules + [UndeclaredKindRule()]

    public static func rule(_ id: String) -> (any CatalogRule)? { all.first { $0.description.id == id } }

    public static var descriptions: [RuleDescription] { all.map(\.description) }
}
