import Diagnostics

extension CatalogRules {
    static let idRules: [any CatalogRule] = [
        DuplicateIDRule(), CaseDuplicateIDRule(), InvalidIDCharactersRule(), IDTooLongRule(), WhitespaceInIDRule(),
        EmptyIDSegmentRule(), MissingBundlePrefixRule(), BundlePrefixConventionRule(), PlaceholderPrefixRule(), SimilarIDsRule(), RetiredIDRule(),
    ]
}

/// The same ID twice in one file, or in two product-list files. (An ID in a product list and in a
/// `.storekit` file is one product described twice, not a duplicate; per-storefront `.storekit`
/// files repeat IDs by design.)
struct DuplicateIDRule: CatalogRule {
    let description = RuleDescription(
        id: "duplicate-id", name: "Duplicate product ID", severity: .error,
        rationale: "A product listed twice is requested twice and counted twice; usually one of the two was meant to be another ID.",
        triggering: [
            .ids("com.acme.app.coins", "↓com.acme.app.coins"),
            RuleExample([
                ExampleFile("A_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
                ExampleFile("B_ProductIDs.plist", RuleExample.idList(["com.acme.app.gems", "↓com.acme.app.coins"])),
            ]),
        ],
        nonTriggering: [
            .ids("com.acme.app.coins", "com.acme.app.gems"),
            RuleExample([
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
                ExampleFile("Metadata.plist", RuleExample.metadataPlist("\t\t<key>com.acme.app.coins</key>\n\t\t<dict/>")),
            ]),
        ])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for product in catalog.products where product.occurrenceCount > 1 {
            let lists = product.occurrences.filter { $0.role == .productList }
            var repeated: [ProductOccurrence] = lists.count > 1 ? lists : []
            let byFile = Dictionary(grouping: product.occurrences.filter { $0.role != .productList }, by: \.location.path)
            for path in byFile.keys.sorted() where byFile[path]!.count > 1 { repeated += byFile[path]! }
            guard repeated.count > 1 else { continue }
            let sorted = repeated.sorted { $0.location < $1.location }
            let places = sorted.map(\.location.description).joined(separator: ", ")
            found.append(finding(
                "product ID \(Quote.bounded(product.id)) is listed \(sorted.count) times: \(places)",
                at: sorted[1].location,
                related: sorted.enumerated().filter { $0.offset != 1 }.map { RelatedLocation($0.element.location, "also listed here") },
                fix: SuggestedFix("remove the repeated entry, or give it the ID it was meant to have")))
        }
        return found
    }
}

struct CaseDuplicateIDRule: CatalogRule {
    let description = RuleDescription(
        id: "case-duplicate-id", name: "IDs equal ignoring case", severity: .warning,
        rationale: "App Store Connect treats product IDs as case-sensitive, people do not: two IDs that differ only in case are a typo waiting to happen.",
        triggering: [.ids("com.acme.app.Coins", "↓com.acme.app.coins")],
        nonTriggering: [.ids("com.acme.app.coins", "com.acme.app.gems")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let products = catalog.products
        IDKeys.forEachRepeat(products.lazy.map(\.id), hashes: products.lazy.map { UInt64($0.lowerHash) << 32 }, .lower) { first, later in
            let earlier = products[first], product = products[later]
            found.append(finding(
                "product ID \(Quote.bounded(product.id)) differs from \(Quote.bounded(earlier.id)) only in case",
                at: product.location, related: [RelatedLocation(earlier.location, "\(Quote.bounded(earlier.id)) is here")],
                fix: SuggestedFix("use one spelling for both")))
        }
        return found
    }
}

struct InvalidIDCharactersRule: CatalogRule {
    let description = RuleDescription(
        id: "invalid-id-characters", name: "Invalid characters in ID", severity: .error,
        rationale: "App Store Connect accepts only letters, digits, '.', '_' and '-' in product IDs.",
        triggering: [.ids("↓com.acme.app/coins"), .ids("↓com.acme.app.café"), .ids("↓com.acme.app.100%")],
        nonTriggering: [.ids("com.acme.app.coins_100", "com.acme.app.gold-pack", "com.acme.app.Pro2")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            if product.hasPlainID || IDCharacters.allAllowed(product.id) { return nil }
            var bad: [Character] = []
            for ch in product.id where !ch.isWhitespace && !IDCharacters.isAllowed(ch) && !bad.contains(ch) { bad.append(ch) }
            guard !bad.isEmpty else { return nil }
            let list = bad.map { "'\($0)'" }.joined(separator: ", ")
            return finding("product ID \(Quote.bounded(product.id)) contains \(list): only letters A–Z, digits, '.', '_' and '-' are allowed",
                           at: product.location)
        }
    }
}

/// The characters App Store Connect allows in product IDs: letters A–Z, digits, '.', '_', '-'.
public enum IDCharacters {
    /// Whether every character of `id` is one App Store Connect allows (true for "").
    public static func allAllowed(_ id: String) -> Bool {
        for a in id.utf8 {
            let ok = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x2E || a == 0x5F || a == 0x2D
            if !ok { return false }
        }
        return true
    }

    /// Not empty, only allowed characters, and no empty segment (no leading, trailing or double
    /// '.'): what `allAllowed` passes and `mayHaveEmptySegment` and `mayHoldWhitespace` do not.
    static func isPlain(_ id: String) -> Bool {
        IDKeys.withBytes(id) { bytes in
            var previous: UInt8 = 0x2E
            for a in bytes {
                let ok = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x5F || a == 0x2D
                    || (a == 0x2E && previous != 0x2E)
                if !ok { return false }
                previous = a
            }
            return previous != 0x2E
        }
    }

    /// Text that could be a product ID: not empty, and only allowed characters (no spaces, no emoji).
    public static func hasIDSyntax(_ text: String) -> Bool {
        !text.isEmpty && allAllowed(text)
    }

    /// Whether the ID is empty, starts or ends with '.', holds '..', or may hold whitespace: one pass.
    static func mayHaveEmptySegment(_ id: String) -> Bool {
        var previous: UInt8 = 0x2E
        var any = false
        for c in id.utf8 {
            if c == 0x2E && previous == 0x2E { return true }
            if c <= 0x20 || c >= 0x80 { return true }
            previous = c
            any = true
        }
        return !any || previous == 0x2E
    }

    /// Whether any byte may be whitespace: ASCII space and controls, or any non-ASCII byte.
    static func mayHoldWhitespace(_ id: String) -> Bool {
        id.utf8.contains { $0 <= 0x20 || $0 >= 0x80 }
    }

    static func isAllowed(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x2E || a == 0x5F || a == 0x2D
    }
}

struct IDTooLongRule: CatalogRule {
    static let limit = 100
    let description = RuleDescription(
        id: "id-too-long", name: "ID too long", severity: .error,
        rationale: "App Store Connect refuses product IDs over 100 characters.",
        triggering: [.ids("↓com.acme.app." + String(repeating: "x", count: 90))],
        nonTriggering: [.ids("com.acme.app." + String(repeating: "x", count: 87))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.filter { $0.id.utf8.count > Self.limit && $0.id.count > Self.limit }.map {
            finding("product ID is \($0.id.count) characters long; App Store Connect allows at most \(Self.limit)", at: $0.location)
        }
    }
}

struct WhitespaceInIDRule: CatalogRule {
    let description = RuleDescription(
        id: "whitespace-in-id", name: "Whitespace in ID", severity: .error,
        rationale: "A space typed into a plist is invisible in Xcode and makes the ID match nothing in App Store Connect.",
        triggering: [.ids("↓com.acme.app.coins "), .ids("↓ com.acme.app.coins"), .ids("↓com.acme.app.gold pack")],
        nonTriggering: [.ids("com.acme.app.gold_pack")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            let id = product.id
            guard !product.hasPlainID, IDCharacters.mayHoldWhitespace(id), id.contains(where: \.isWhitespace) else { return nil }
            let trimmed = id.trimmingCharacters(in: .whitespacesAndNewlines)
            let what: String
            if id.first?.isWhitespace == true && id.last?.isWhitespace == true { what = "starts and ends with whitespace" }
            else if id.first?.isWhitespace == true { what = "starts with whitespace" }
            else if id.last?.isWhitespace == true { what = "ends with whitespace" }
            else { what = "contains whitespace" }
            let fix = trimmed.contains(where: \.isWhitespace) ? nil : SuggestedFix("remove the whitespace", replacement: trimmed)
            return finding("product ID \(Quote.bounded(id)) \(what)", at: product.location, fix: fix)
        }
    }
}

struct EmptyIDSegmentRule: CatalogRule {
    let description = RuleDescription(
        id: "empty-id-segment", name: "Empty ID segment", severity: .error,
        rationale: "'..', a leading or a trailing '.' leave an empty segment: a typo App Store Connect refuses; an empty string is no ID at all.",
        triggering: [.ids("↓com.acme..coins"), .ids("↓com.acme.app.coins."), .ids("↓.com.acme.app.coins"), .ids("↓")],
        nonTriggering: [.ids("com.acme.app.coins")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            guard !product.hasPlainID, IDCharacters.mayHaveEmptySegment(product.id) else { return nil }
            let id = product.id.trimmingCharacters(in: .whitespaces)
            if id.isEmpty { return finding("empty product ID", at: product.location) }
            var problems: [String] = []
            if id.hasPrefix(".") { problems.append("starts with '.'") }
            if id.hasSuffix(".") { problems.append("ends with '.'") }
            if id.contains("..") { problems.append("contains '..'") }
            guard !problems.isEmpty else { return nil }
            return finding("product ID \(Quote.bounded(product.id)) \(problems.joined(separator: " and ")): an empty segment", at: product.location)
        }
    }
}

struct PlaceholderPrefixRule: CatalogRule {
    let description = RuleDescription(
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

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            if Self.isAppleSample(product.id) {
                return finding("product ID \(Quote.bounded(product.id)) is from Apple's StoreKit sample app; replace it with your own product", at: product.location)
            }
            if let prefix = Self.placeholderPrefix(product.id) {
                return finding("product ID \(Quote.bounded(product.id)) uses the placeholder prefix \(Quote.bounded(prefix))", at: product.location,
                               fix: SuggestedFix("use your bundle ID as the prefix"))
            }
            guard let word = PlaceholderIDs.placeholderSegment(product.id) else { return nil }
            return finding("product ID \(Quote.bounded(product.id)) holds '\(word)', a placeholder from a template or tutorial", at: product.location,
                           fix: SuggestedFix("replace it with the ID of your product in App Store Connect"))
        }
    }
}

struct RetiredIDRule: CatalogRule {
    let description = RuleDescription(
        id: "retired-id", name: "Retired ID reused", severity: .error,
        rationale: "App Store Connect never lets a deleted product ID be used again in the same app; reusing one fails at submission.",
        triggering: [
            .ids("com.acme.app.coins", "↓com.acme.app.old_pro", retired: ["com.acme.app.old_pro"]),
            RuleExample([
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.old_pro"])),
                ExampleFile("RetiredProductIDs.plist", RuleExample.idList(["com.acme.app.old_pro"])),
            ]),
        ],
        nonTriggering: [.ids("com.acme.app.coins", retired: ["com.acme.app.old_pro"])])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            guard let retired = options.retiredIDs[product.id] ?? catalog.retiredIDs[product.id] else { return nil }
            return finding("product ID \(Quote.bounded(product.id)) was retired and cannot be used again in this app", at: product.location,
                           related: [RelatedLocation(retired, "listed as retired here")],
                           fix: SuggestedFix("choose a new product ID"))
        }
    }
}
