import Diagnostics

public struct PlaceholderPrefixRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "placeholder-prefix", name: "Placeholder or sample ID", severity: .warning,
        rationale: "IDs under com.example. or com.yourcompany., words left for the reader to replace (your_product_id, YOUR_BUNDLE_ID) and IDs copied from Apple's sample are leftovers that will never match a real product.",
        triggering: [.ids("↓com.example.app.coins"), .ids("↓com.YourCompany.app.coins"), .ids("com.acme.app.pro", "↓consumable.fuel.octane87"),
                     .ids("↓your_product_id"), .ids("↓YOUR_BUNDLE_ID.pro"), .ids("↓com.blah.coins", bundleID: "com.acme.app")],
        nonTriggering: [.ids("com.acme.app.coins"), .ids("com.mindefy.yourhour.pro"), .ids("com.acme.app.todolist")])

    static let prefixHeadHashes = Set(PlaceholderIDs.prefixes.map { IDKeys.hash(String($0.dropLast()), .lower) })

    /// Whether this rule reports the ID (then `missing-bundle-prefix` stays quiet about it).
    static func isPlaceholder(_ id: String) -> Bool {
        placeholderPrefix(id) != nil || isAppleSample(id) || PlaceholderIDs.placeholderSegment(id) != nil
    }

    static func isAppleSample(_ id: String) -> Bool {
        id.utf8.count <= 28 && PlaceholderIDs.appleSampleIDs.contains(id.lowercased())
    }

    /// The placeholder prefix the ID starts with, compared ignoring ASCII case, without allocating.
    static func placeholderPrefix(_ id: String) -> String? {
        // The first two segments, lowercased and hashed, decide for most IDs.
        let (h, dots) = IDKeys.withBytes(id) { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            var dots = 0
            for c in bytes {
                if c == 0x2E { dots += 1; if dots == 2 { break } }
                h ^= UInt64(c >= 0x41 && c <= 0x5A ? c + 32 : c)
                h &*= 0x0000_0100_0000_01B3
            }
            return (h, dots)
        }
        guard dots == 2, prefixHeadHashes.contains(h) else { return nil }
        return PlaceholderIDs.prefixes.first { prefix in
            var bytes = id.utf8.makeIterator()
            for p in prefix.utf8 {
                guard let b = bytes.next(), (b >= 0x41 && b <= 0x5A ? b + 32 : b) == p else { return false }
            }
            return true
        }
    }

    /// Among the slowest rules on a large catalog: started third (`CatalogRule.schedulingRank`).
    public var schedulingRank: Int? { 2 }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            if Self.isAppleSample(product.id) {
                found.add(at: product.location) {
                    finding("product ID \(Quote.bounded(product.id)) is from Apple's StoreKit sample app; replace it with your own product", at: product.location)
                }
            } else if let prefix = Self.placeholderPrefix(product.id) {
                found.add(at: product.location) {
                    finding("product ID \(Quote.bounded(product.id)) uses the placeholder prefix \(Quote.bounded(prefix))", at: product.location,
                            fix: SuggestedFix("use your bundle ID as the prefix"))
                }
            } else if let word = PlaceholderIDs.placeholderSegment(product.id) {
                found.add(at: product.location) {
                    finding("product ID \(Quote.bounded(product.id)) holds '\(word)', a placeholder from a template or tutorial", at: product.location,
                            fix: SuggestedFix("replace it with the ID of your product in App Store Connect"))
                }
            }
        }
    }
}
