/// Guesses a product's kind from words: of its ID, of the key it is listed under, of its names.
/// Word lists are checked in priority order, so `nonRenewing.standard` is non-renewing even though
/// `renewing` alone would suggest a subscription, and `pro.monthly` is a subscription, not an unlock.
public enum KindInference {
    public static let wordLists: [(ProductKind, [String])] = [
        (.nonRenewing, ["nonrenewing", "nonrenewable", "nonrenew"]),
        (.nonConsumable, ["nonconsumable", "nonconsumables"]),
        (.consumable, ["consumable", "consumables"]),
        (.autoRenewable, ["autorenewable", "autorenewing", "autorenew", "subscription", "subscriptions", "subscribe",
                          "sub", "subs", "monthly", "yearly", "annual", "annually", "weekly", "quarterly", "daily",
                          "month", "months", "year", "years", "week", "weeks", "day", "days",
                          "p1w", "p1m", "p2m", "p3m", "p6m", "p1y", "renewable", "renewing", "membership"]),
        (.consumable, ["coin", "coins", "gem", "gems", "life", "lives", "credit", "credits", "token", "tokens", "tip",
                       "tips", "fuel", "bux", "currency", "hint", "hints", "energy", "boost", "boosts", "diamond",
                       "diamonds", "points", "refill"]),
        (.nonConsumable, ["nonconsumable", "unlock", "unlocks", "pro", "premium", "full", "fullversion", "lifetime",
                          "forever", "removeads", "noads", "adfree", "disableads", "upgrade", "nologo", "onetime"]),
    ]

    /// The kind and the words that gave it, or nil when no word tells.
    public static func infer(from text: String) -> (ProductKind, [String])? {
        let words = tokens(text)
        for (kind, list) in wordLists {
            let hits = list.filter(words.contains)
            if !hits.isEmpty {
                return (kind, hits.filter { hit in !hits.contains { $0 != hit && $0.contains(hit) } })
            }
        }
        return nil
    }

    /// Lowercased words: `.`/`_`/`-` segments, their camelCase and letter/digit parts, and adjacent
    /// pairs joined (`Non` + `Consumable` → `nonconsumable`).
    static func tokens(_ text: String) -> Set<String> {
        var result = Set<String>()
        for segment in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            result.insert(segment.lowercased())
            var parts: [String] = []
            var current = ""
            var previous: Character?
            for ch in segment {
                if let p = previous,
                   (p.isLowercase && ch.isUppercase) || (p.isLetter && ch.isNumber) || (p.isNumber && ch.isLetter) {
                    parts.append(current.lowercased())
                    current = ""
                }
                current.append(ch)
                previous = ch
            }
            if !current.isEmpty { parts.append(current.lowercased()) }
            result.formUnion(parts)
            for i in parts.indices.dropLast() { result.insert(parts[i] + parts[i + 1]) }
        }
        let segments = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.lowercased() }
        for i in segments.indices.dropLast() { result.insert(segments[i] + segments[i + 1]) }
        return result
    }

    /// The kind of a product and why: declared first (metadata plist, then `.storekit`, then the
    /// product list's own fields), then words of the container key, the ID, and the names.
    public static func classify(_ occurrences: [ProductOccurrence], metadata: ProductMetadata) -> (ProductKind?, KindReason) {
        let declared = occurrences.filter { $0.declaredKind != nil }.sorted { rolePriority($0.role) < rolePriority($1.role) }
        if let first = declared.first, let kind = first.declaredKind {
            return (kind.value, .declared(kind.location, first.declaredBy ?? kind.value.rawValue))
        }
        for occurrence in occurrences {
            if let key = occurrence.containerKey, let (kind, words) = infer(from: key) {
                return (kind, .inferred(words, source: "the container key '\(key)'"))
            }
        }
        if let id = occurrences.first?.id, let (kind, words) = infer(from: id) {
            return (kind, .inferred(words, source: "the ID"))
        }
        var names = [metadata.referenceName?.value].compactMap { $0 }
        names += metadata.localizations.compactMap(\.displayName)
        for name in names {
            if let (kind, words) = infer(from: name) {
                return (kind, .inferred(words, source: "its name '\(name)'"))
            }
        }
        return (nil, .unknown)
    }

    static func rolePriority(_ role: ProductOccurrence.Role) -> Int {
        switch role {
        case .metadata: 0
        case .storeKit: 1
        case .productList: 2
        }
    }
}
