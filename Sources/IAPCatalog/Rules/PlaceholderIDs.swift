/// Placeholder product IDs found in templates, tutorials and Apple's sample code, kept as data:
/// add a spelling here and `placeholder-prefix` reports it, with or without a bundle ID.
enum PlaceholderIDs {
    /// Prefixes of template and tutorial IDs (lowercase, compared ignoring case).
    static let prefixes = ["com.example.", "com.yourcompany.", "com.your-company.", "com.your_company.", "com.mycompany.",
                           "com.company.", "com.myapp.", "com.temporary.", "com.yourdomain.", "com.domain.", "com.test.",
                           "com.demo.", "com.blah.", "com.foo.", "com.xxx.", "org.example.", "com.apple.", "your.bundle.id."]

    /// Whole segments (letters and digits, lowercased, `_` and `-` dropped) that name a thing
    /// instead of being one: `product_id`, `BUNDLE-ID`, `changeme`.
    static let segments: Set<String> = ["productid", "productidentifier", "bundleid", "bundleidentifier", "myproductid",
                                        "placeholder", "changeme", "replaceme", "todo", "xxx", "blah", "foo"]

    /// A segment that starts with "your" and goes on with one of these words is left for the
    /// reader to fill in: `your_product_id`, `your_product_one`, `YOUR_BUNDLE_ID`, `yourapp`.
    static let yourWords = ["product", "bundle", "app", "company", "domain", "name", "id", "identifier", "sku", "item",
                            "subscription", "iap", "purchase", "org"]

    /// Product IDs of Apple's StoreKit sample (SKDemo), found copied into real catalogs.
    static let appleSampleIDs: Set<String> = [
        "consumable.fuel.octane87", "consumable.fuel.octane89", "consumable.fuel.octane91", "nonconsumable.car",
        "nonconsumable.utilityvehicle", "nonconsumable.racecar", "subscription.standard", "subscription.premium",
        "subscription.pro", "nonrenewing.standard",
    ]

    /// Placeholder words by their first letter: most segments are ruled out by one lookup.
    private static let wordsByFirstLetter: [UInt8: [[UInt8]]] = Dictionary(grouping: segments.map { Array($0.utf8) }, by: { $0[0] })
    private static let yourPhrases: [[UInt8]] = yourWords.map { Array(("your" + $0).utf8) }

    /// The segment of `id` that is a placeholder word, if one is.
    static func placeholderSegment(_ id: String) -> String? {
        if let found = id.utf8.withContiguousStorageIfAvailable({ placeholderSegment(in: $0) }) { return found }
        return Array(id.utf8).withUnsafeBufferPointer { placeholderSegment(in: $0) }
    }

    private static func placeholderSegment(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ".") { end += 1 }
            if end > start {
                let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let first = segment[0] | 0x20
                let exact = wordsByFirstLetter[first]?.contains { folded(segment, equals: $0, prefixOnly: false) } ?? false
                let your = first == UInt8(ascii: "y") && yourPhrases.contains { folded(segment, equals: $0, prefixOnly: true) }
                if exact || your { return String(decoding: segment, as: UTF8.self) }
            }
            start = end + 1
        }
        return nil
    }

    /// Whether the segment, lowercased with `_` and `-` dropped, equals `word` (or starts with it).
    private static func folded(_ segment: UnsafeBufferPointer<UInt8>, equals word: [UInt8], prefixOnly: Bool) -> Bool {
        var k = 0
        for c in segment {
            if c == UInt8(ascii: "_") || c == UInt8(ascii: "-") { continue }
            if k == word.count { return prefixOnly }
            let lower = c >= 0x41 && c <= 0x5A ? c + 32 : c
            guard lower == word[k] else { return false }
            k += 1
        }
        return k == word.count
    }
}
