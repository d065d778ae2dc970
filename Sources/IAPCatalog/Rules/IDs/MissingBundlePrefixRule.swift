import Diagnostics

public struct MissingBundlePrefixRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "missing-bundle-prefix", name: "Missing bundle prefix", severity: .warning,
        rationale: "Product IDs are unique across all your apps forever; prefixing them with the bundle ID keeps them apart. An ID that lacks the prefix its siblings have is usually a slip. Bundle IDs are case-insensitive, and a catalog whose IDs all follow another convention is bundle-prefix-convention.",
        triggering: [.ids("com.acme.app.gems", "↓coins100", bundleID: "com.acme.app"), .ids("com.acme.app.coins", "↓com.acme.other.boost", bundleID: "com.acme.app"),
                     .ids("com.acme.app.coins", "↓com.acmee.app.gems", bundleID: "com.acme.app"),
                     .ids("↓com.acme.app", bundleID: "com.acme.app")],
        nonTriggering: [.ids("com.acme.app.coins", bundleID: "com.acme.app"), .ids("coins100"),
                        .ids("com.example.coins", bundleID: "com.acme.app"),
                        .ids("com.acme.coins", "com.acme.gems", bundleID: "com.acme.app")])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        guard let bundle = catalog.bundleID?.value, !bundle.isEmpty,
              BundlePrefixConventionRule.convention(of: catalog, bundle: bundle) == nil else { return }
        let prefix = bundle + "."
        for product in catalog.products where !product.id.hasPrefix(prefix) && Self.bundlePrefix(of: product.id, bundle: bundle) == nil
            && !PlaceholderPrefixRule.isPlaceholder(product.id) {
            found.add(at: product.location) {
                if Self.equalIgnoringASCIICase(product.id, bundle) {
                    return finding("product ID \(Quote.bounded(product.id)) is the app's bundle ID itself; product IDs should extend it, e.g. '\(prefix)pro'",
                                   at: product.location)
                }
                let suggestion = prefix + Self.ownSegments(of: product.id, bundle: bundle)
                return finding("product ID \(Quote.bounded(product.id)) does not start with the bundle ID \(Quote.bounded(prefix))",
                               at: product.location, related: [RelatedLocation(catalog.bundleID!.location, "bundle ID from here")],
                               fix: SuggestedFix("use \(Quote.bounded(suggestion)) for new products (existing IDs cannot be renamed)"))
            }
        }
    }

    /// The start of `id` that is the bundle ID, compared as App Store Connect and people do:
    /// case aside, and `_` or `-` aside within a segment (`co.acme.words_testing.` for the bundle
    /// `co.acme.WordsTesting`). Nil when the ID does not start with the bundle ID.
    static func bundlePrefix(of id: String, bundle: String) -> Substring? {
        // Most IDs start with the bundle ID as written, or in another ASCII case: no allocation.
        if hasPrefixIgnoringASCIICase(id, bundle), id.utf8.count > bundle.utf8.count + 1,
           id.utf8.dropFirst(bundle.utf8.count).first == UInt8(ascii: ".") {
            return id[..<id.utf8.index(id.utf8.startIndex, offsetBy: bundle.utf8.count + 1)]
        }
        guard id.utf8.contains(where: { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return nil }
        func fold(_ segment: Substring) -> String { segment.lowercased().filter { $0 != "_" && $0 != "-" } }
        let bundleSegments = bundle.split(separator: ".", omittingEmptySubsequences: false)
        let segments = id.split(separator: ".", maxSplits: bundleSegments.count, omittingEmptySubsequences: false)
        guard segments.count > bundleSegments.count, !segments[bundleSegments.count].isEmpty,
              zip(segments, bundleSegments).allSatisfy({ fold($0.0) == fold($0.1) }) else { return nil }
        return id[..<segments[bundleSegments.count].startIndex]
    }

    /// Whether `text` starts with `prefix`, ASCII letters compared without case.
    static func hasPrefixIgnoringASCIICase(_ text: String, _ prefix: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        for p in prefix.utf8 {
            guard let b = bytes.next() else { return false }
            if b != p, (b | 0x20) != (p | 0x20) || !((p | 0x20) >= 0x61 && (p | 0x20) <= 0x7A) { return false }
        }
        return true
    }

    /// Whether two strings are equal, ASCII letters compared without case.
    static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && hasPrefixIgnoringASCIICase(a, b)
    }

    /// The segments of an ID that name the product, not the company or app: after the part
    /// that lines up with the bundle ID when they share a company (`com.acme.other.boost` under
    /// `com.acme.app` → `boost`), after a reverse-DNS domain otherwise (`com.pocketcasts.plus.yearly`
    /// → `plus.yearly`), or all of them (`coins100`).
    static func ownSegments(of id: String, bundle: String) -> String {
        let segments = id.split(separator: ".", omittingEmptySubsequences: false)
        let bundleSegments = bundle.split(separator: ".", omittingEmptySubsequences: false)
        let shared = zip(segments, bundleSegments).prefix { $0.0.lowercased() == $0.1.lowercased() }.count
        // `com.newcomr.myapp.gems` under `com.newcomer.myapp`: every bundle segment is there, one
        // misspelt; the product's own segments are the rest, not `myapp.gems`.
        let typed = segments.count > bundleSegments.count && zip(segments, bundleSegments).allSatisfy { Self.sameSegment($0.0, $0.1) }
        let drop: Int
        if typed {
            drop = bundleSegments.count
        } else if shared >= 2 {
            drop = min(bundleSegments.count, segments.count - 1)
        } else if segments.count > 2, topLevelDomains.contains(segments[0].lowercased()) {
            drop = 2
        } else {
            drop = 0
        }
        return segments.dropFirst(drop).joined(separator: ".")
    }

    /// A segment of an ID that is the bundle ID's segment, or a typo of it (at most two edits,
    /// and no more than a third of its length).
    static func sameSegment(_ a: Substring, _ b: Substring) -> Bool {
        let (x, y) = (a.lowercased(), b.lowercased())
        if x == y { return true }
        let distance = EditDistance.between(x, y)
        return distance <= 2 && distance * 3 <= max(x.count, y.count)
    }

    /// First segments that start a reverse-DNS name.
    static let topLevelDomains: Set<String> = ["com", "org", "net", "io", "co", "app", "dev", "me", "de", "uk", "fr", "au", "ca",
                                               "ch", "nl", "se", "jp", "cn", "it", "es", "us", "info", "biz", "tv", "ru", "br", "in"]
}
