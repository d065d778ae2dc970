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

    /// Each word's list: its priority (position in `wordLists`) and kind; the first list wins.
    static let wordIndex: [String: (priority: Int, kind: ProductKind)] = {
        var index: [String: (Int, ProductKind)] = [:]
        for (priority, (kind, words)) in wordLists.enumerated() {
            for word in words where index[word] == nil { index[word] = (priority, kind) }
        }
        return index
    }()

    static let longestWord = wordLists.flatMap(\.1).map(\.utf8.count).max() ?? 0

    /// The kind and the words that gave it, or nil when no word tells.
    public static func infer(from text: String) -> (ProductKind, [String])? {
        var best = Int.max
        var kind = ProductKind.consumable
        var hits: [String] = []
        forEachToken(text) { token in
            guard let entry = wordIndex[token] else { return }
            if entry.priority < best {
                best = entry.priority
                kind = entry.kind
                hits = [token]
            } else if entry.priority == best, !hits.contains(token) {
                hits.append(token)
            }
        }
        guard best != Int.max else { return nil }
        // Keep the order of the word list, and drop words inside another hit ('renewable' in 'autorenewable').
        let ordered = wordLists[best].1.filter(hits.contains)
        return (kind, ordered.filter { hit in !ordered.contains { $0 != hit && $0.contains(hit) } })
    }

    /// Lowercased words: `.`/`_`/`-` segments, their camelCase and letter/digit parts, and adjacent
    /// pairs joined (`Non` + `Consumable` → `nonconsumable`). Works on UTF-8 bytes; non-ASCII
    /// bytes count as lowercase letters.
    static func tokens(_ text: String) -> Set<String> {
        var result = Set<String>()
        forEachToken(text) { result.insert($0) }
        return result
    }

    private enum ByteClass { case separator, lower, upper, digit }

    private static func byteClass(_ c: UInt8) -> ByteClass {
        switch c {
        case 0x61...0x7A, 0x80...0xFF: .lower
        case 0x41...0x5A: .upper
        case 0x30...0x39: .digit
        default: .separator
        }
    }

    private static func lowered(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static func forEachToken(_ text: String, _ body: (String) -> Void) {
        let bytes = Array(text.utf8)
        var previousSegment: String?
        var i = 0
        while i < bytes.count {
            while i < bytes.count, byteClass(bytes[i]) == .separator { i += 1 }
            let start = i
            while i < bytes.count, byteClass(bytes[i]) != .separator { i += 1 }
            guard start < i else { break }
            let segment = lowered(bytes[start..<i])
            body(segment)
            if let previous = previousSegment { body(previous + segment) }
            previousSegment = segment
            // camelCase and letter/digit parts inside the segment, and adjacent pairs of them.
            var partStart = start
            var previousPart: String?
            var j = start + 1
            while j <= i {
                let boundary: Bool
                if j == i {
                    boundary = true
                } else {
                    let a = byteClass(bytes[j - 1]), b = byteClass(bytes[j])
                    boundary = (a == .lower && b == .upper) || (a != .digit && b == .digit) || (a == .digit && b != .digit)
                }
                if boundary {
                    if partStart > start || j < i {
                        let part = lowered(bytes[partStart..<j])
                        body(part)
                        if let p = previousPart { body(p + part) }
                        previousPart = part
                    }
                    partStart = j
                }
                j += 1
            }
        }
    }

    /// The kind of a product and why: declared first (metadata plist, then `.storekit`, then the
    /// product list's own fields), then words of the container key, the ID, and the names.
    public static func classify(_ occurrences: [ProductOccurrence], metadata: ProductMetadata) -> (ProductKind?, KindReason) {
        var classifier = Classifier()
        return classifier.classify(occurrences, metadata: metadata)
    }
    static func rolePriority(_ role: ProductOccurrence.Role) -> Int {
        switch role {
        case .metadata: 0
        case .storeKit: 1
        case .productList: 2
        }
    }
}

/// Classifies many products, remembering what each ID segment says so that a million IDs that
/// share `com.acme.app.` are not tokenised a million times. One per load, never shared.
struct Classifier {
    private struct Hit {
        var priority: Int
        var kind: ProductKind
        var words: [String]
    }

    private var segments: [String: Hit?] = [:]
    /// Whole IDs, digit runs folded, by the hash of the folded bytes: a numbered family of a
    /// million IDs is classified once, and looking one up builds no string.
    private var ids: [UInt64: [(key: [UInt8], result: (ProductKind, [String])?)]] = [:]

    /// The cache key of a segment: runs of two or more digits folded to "##", since no kind word
    /// holds two digits in a row (`item0000001` and `item0000002` say the same).
    private static func cacheKey(_ segment: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count)
        var digits = 0
        for c in segment.utf8 {
            if c >= 0x30 && c <= 0x39 {
                digits += 1
                if digits == 2 { bytes[bytes.count - 1] = 0x23; bytes.append(0x23) } else if digits < 2 { bytes.append(c) }
            } else {
                digits = 0
                bytes.append(c)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func classify(_ occurrences: some Collection<ProductOccurrence>, metadata: ProductMetadata) -> (ProductKind?, KindReason) {
        // The declaring occurrence of the highest role priority, the first of equals.
        var declaring: ProductOccurrence?
        for occurrence in occurrences where occurrence.declaredKind != nil {
            if let best = declaring, KindInference.rolePriority(best.role) <= KindInference.rolePriority(occurrence.role) { continue }
            declaring = occurrence
        }
        if let first = declaring, let kind = first.declaredKind {
            return (kind.value, .declared(kind.location, first.declaredBy ?? kind.value.rawValue))
        }
        for occurrence in occurrences {
            if let key = occurrence.containerKey, let (kind, words) = KindInference.infer(from: key) {
                return (kind, .inferred(words, source: "the container key '\(key)'"))
            }
        }
        if let id = occurrences.first?.id, let (kind, words) = inferID(id) {
            return (kind, .inferred(words, source: "the ID"))
        }
        if let name = metadata.referenceName?.value, let (kind, words) = KindInference.infer(from: name) {
            return (kind, .inferred(words, source: "its name '\(name)'"))
        }
        for localization in metadata.localizations {
            if let name = localization.displayName, let (kind, words) = KindInference.infer(from: name) {
                return (kind, .inferred(words, source: "its name '\(name)'"))
            }
        }
        return (nil, .unknown)
    }

    /// `KindInference.infer(from:)` for an ID, cached by its digit-folded form.
    private enum Lookup {
        case notFolded
        case hit((ProductKind, [String])?)
        case miss(UInt64, [UInt8])
    }

    mutating func inferID(_ id: String) -> (ProductKind, [String])? {
        var utf8 = id
        let lookup: Lookup = utf8.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { scratch in
                // The folded bytes (as `cacheKey` folds them) into scratch, then their FNV-1a hash.
                var count = 0, digits = 0
                for c in bytes {
                    if c >= 0x30 && c <= 0x39 {
                        digits += 1
                        if digits == 2 {
                            scratch[count - 1] = 0x23
                            scratch[count] = 0x23
                            count += 1
                        } else if digits < 2 {
                            scratch[count] = c
                            count += 1
                        }
                    } else {
                        digits = 0
                        scratch[count] = c
                        count += 1
                    }
                }
                // Only IDs with digit runs repeat once folded; caching the others would only grow the cache.
                guard count != bytes.count || !scratch[..<count].elementsEqual(bytes) else { return .notFolded }
                let key = UnsafeBufferPointer(rebasing: scratch[..<count])
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for c in key { hash = (hash ^ UInt64(c)) &* 0x100_0000_01b3 }
                for entry in ids[hash] ?? [] where entry.key.elementsEqual(key) { return .hit(entry.result) }
                return .miss(hash, Array(key))
            }
        }
        switch lookup {
        case .notFolded:
            return inferSegments(id)
        case .hit(let result):
            return result
        case .miss(let hash, let key):
            let result = inferSegments(id)
            ids[hash, default: []].append((key, result))
            return result
        }
    }

    /// Each segment's words looked up once; words spanning two segments looked up directly.
    private mutating func inferSegments(_ id: String) -> (ProductKind, [String])? {
        var best: Hit?
        func consider(_ hit: Hit?) {
            guard let hit else { return }
            if best == nil || hit.priority < best!.priority {
                best = hit
            } else if hit.priority == best!.priority {
                best!.words += hit.words.filter { !best!.words.contains($0) }
            }
        }
        var previous: Substring?
        let isSeparator: (UInt8) -> Bool = { c in c < 0x80 && !((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)) }
        for bytes in Substring(id).utf8.split(whereSeparator: isSeparator) {
            let segment = Substring(bytes)
            let key = Self.cacheKey(segment)
            if let cached = segments[key] {
                consider(cached)
            } else {
                let hit = Self.hit(KindInference.infer(from: key))
                // Bounded: shared segments ("com", "acme") are seen early; unique ones need no memory.
                if segments.count < 4096 { segments[key] = hit }
                consider(hit)
            }
            if let previous, previous.utf8.count + segment.utf8.count <= KindInference.longestWord {
                // Words that span two segments ("non" + "consumable").
                let joined = (previous + segment).lowercased()
                if let entry = KindInference.wordIndex[joined] { consider(Hit(priority: entry.priority, kind: entry.kind, words: [joined])) }
            }
            previous = segment
        }
        guard let best else { return nil }
        let ordered = KindInference.wordLists[best.priority].1.filter(best.words.contains)
        return (best.kind, ordered.filter { hit in !ordered.contains { $0 != hit && $0.contains(hit) } })
    }

    private static func hit(_ inferred: (ProductKind, [String])?) -> Hit? {
        guard let (kind, words) = inferred, let first = words.first,
              let priority = KindInference.wordIndex[first]?.priority else { return nil }
        return Hit(priority: priority, kind: kind, words: words)
    }
}
