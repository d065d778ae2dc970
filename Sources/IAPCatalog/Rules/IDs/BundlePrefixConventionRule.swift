import Diagnostics
import Support

public struct BundlePrefixConventionRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "bundle-prefix-convention", name: "IDs follow another prefix", severity: .info,
        rationale: "When every product ID of a catalog starts with the bundle ID spelled another way (another case, '_' or '-' within a segment), or none starts with it (a single product included: it has no sibling to slip from), that is the team's convention, not a slip: said once, not once per product.",
        triggering: [.ids("↓com.acme.App.coins", "com.acme.App.gems", bundleID: "com.acme.app"),
                     .ids("↓co.acme.words_testing.full_game", bundleID: "co.acme.WordsTesting"),
                     .ids("↓com.acme.coins", "com.acme.gems", bundleID: "com.acme.app"), .ids("↓pro", bundleID: "com.acme.app")],
        nonTriggering: [.ids("com.acme.app.coins", "com.acme.app.gems", bundleID: "com.acme.app"),
                        .ids("com.acme.app.coins", "com.acme.gems", bundleID: "com.acme.app")])

    enum Convention { case otherSpelling, otherPrefix }

    /// The catalog's convention, when every product follows one: all its IDs start with the
    /// bundle ID spelled another way, or none starts with it at all.
    static func convention(of catalog: Catalog, bundle: String) -> Convention? {
        let prefix = bundle + "."
        // One ID with the bundle ID as written settles it, before any other work.
        guard !catalog.products.contains(where: { $0.id.hasPrefix(prefix) }) else { return nil }
        let products = catalog.products.filter {
            !MissingBundlePrefixRule.equalIgnoringASCIICase($0.id, bundle) && !PlaceholderPrefixRule.isPlaceholder($0.id)
        }
        guard !products.isEmpty else { return nil }
        let spelled = products.map { MissingBundlePrefixRule.bundlePrefix(of: $0.id, bundle: bundle) != nil }
        if spelled.allSatisfy({ $0 }) { return .otherSpelling }
        // One product with another prefix has no sibling it could have slipped from: a convention too.
        if !spelled.contains(true) { return .otherPrefix }
        return nil
    }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        guard let bundle = catalog.bundleID?.value, !bundle.isEmpty, let convention = Self.convention(of: catalog, bundle: bundle),
              let first = catalog.products.first(where: { !PlaceholderPrefixRule.isPlaceholder($0.id) }) else { return }
        let count = catalog.products.filter { !PlaceholderPrefixRule.isPlaceholder($0.id) }.count
        switch convention {
        case .otherSpelling:
            let example = String(MissingBundlePrefixRule.bundlePrefix(of: first.id, bundle: bundle) ?? Substring(first.id))
            let how = example.lowercased() == bundle.lowercased() + "."
                ? "in another case; bundle IDs are case-insensitive, so" : "written with other separators;"
            found.add(finding("\(plural(count, "product ID")) \(count == 1 ? "starts" : "start") with \(Quote.bounded(example)), the bundle ID \(Quote.bounded(bundle)) \(how) the prefix is accepted",
                              at: first.location))
        case .otherPrefix:
            let suggestion = bundle + "." + MissingBundlePrefixRule.ownSegments(of: first.id, bundle: bundle)
            let what = count == 1 ? "the only product ID, \(Quote.bounded(first.id)), does not start with the bundle ID '\(bundle).'"
                : "none of the \(count) product IDs starts with the bundle ID '\(bundle).' (the first is \(Quote.bounded(first.id)))"
            found.add(finding("\(what); existing IDs cannot be renamed, but new ones are safest under the bundle ID, e.g. \(Quote.bounded(suggestion))",
                              at: first.location, related: [RelatedLocation(catalog.bundleID!.location, "bundle ID from here")]))
        }
    }
}
