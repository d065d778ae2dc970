import Diagnostics

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

    /// Words that name a tier rather than a kind: "Pro" is a one-time unlock in one app and a
    /// subscription in the next. A kind inferred from these alone is a guess (`KindReason.isGuess`).
    public static let tierWords: Set<String> = ["pro", "premium"]

    /// Each word's list: its priority (position in `wordLists`) and kind; the first list wins.
    static let wordIndex: [String: (priority: Int, kind: ProductKind)] = {
        var index: [String: (Int, ProductKind)] = [:]
        for (priority, (kind, words)) in wordLists.enumerated() {
            for word in words where index[word] == nil { index[word] = (priority, kind) }
        }
        return index
    }()

    static let longestWord = wordLists.flatMap(\.1).map(\.utf8.count).max() ?? 0

    /// The first three bytes of every word, as bits of a 2^21-bit table (7 bits per ASCII byte):
    /// a text none of whose 3-byte windows starts a word holds no word, and most unique ID
    /// segments are told apart from words with a few table reads.
    static let wordStarts: [UInt64] = {
        var table = [UInt64](repeating: 0, count: (1 << 21) / 64)
        for word in wordLists.flatMap(\.1) {
            let b = Array(word.utf8)
            precondition(b.count >= 3 && b.allSatisfy { $0 < 0x80 }, "kind words are ASCII, three bytes or more")
            let key = Int(b[0]) << 14 | Int(b[1]) << 7 | Int(b[2])
            table[key >> 6] |= 1 << UInt64(key & 63)
        }
        return table
    }()

    /// Whether `a`, `b`, `c` (ASCII-lowercased here) may start a word; a non-ASCII byte may.
    @inline(__always)
    static func mayStartWord(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        guard a < 0x80, b < 0x80, c < 0x80 else { return true }
        let lower = { (x: UInt8) -> Int in Int(x >= 0x41 && x <= 0x5A ? x + 32 : x) }
        let key = lower(a) << 14 | lower(b) << 7 | lower(c)
        return wordStarts[key >> 6] & (1 << UInt64(key & 63)) != 0
    }

    /// False only when no token `infer(from:)` takes from `text` can be a word: every token is a
    /// run of `text` once '#' (a folded digit run) is left out, and every word starts with one of
    /// `wordStarts`.
    static func mayHoldWord(_ text: some Sequence<UInt8>) -> Bool {
        var window: (UInt8, UInt8) = (0, 0)
        var count = 0
        for c in text where c != 0x23 {
            if count >= 2, mayStartWord(window.0, window.1, c) { return true }
            window = (window.1, c)
            count += 1
        }
        return false
    }

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
        guard let first = occurrences.first else { return (nil, .unknown) }
        let (kind, reason) = classifier.classify(first, Array(occurrences.dropFirst()), metadata: MetadataBox(metadata))
        return (kind, reason.value)
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
    private var ids: [UInt64: [(key: [UInt8], result: (ProductKind, ReasonBox)?)]] = [:]
    /// This classifier's own "unknown": products share it, and each worker thread has its own
    /// classifier, so no two threads retain one box.
    private let unknown = ReasonBox(.unknown)
    /// Container keys (`Consumables`): every product listed under one shares its reason.
    private var containers: [String: (ProductKind, ReasonBox)?] = [:]

    /// Writes `bytes` into `key` with runs of two or more digits folded to "##", since no kind word
    /// holds two digits in a row (`item0000001` and `item0000002` say the same), and returns the
    /// count written: the cache key of an ID or a segment, built without allocating.
    private static func foldDigitRuns(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, into key: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0, digits = 0
        for c in bytes {
            if c >= 0x30 && c <= 0x39 {
                digits += 1
                if digits == 2 {
                    key[count - 1] = 0x23
                    key[count] = 0x23
                    count += 1
                } else if digits < 2 {
                    key[count] = c
                    count += 1
                }
            } else {
                digits = 0
                key[count] = c
                count += 1
            }
        }
        return count
    }

    /// The kind of a product found at `first` and `others`, and why. `metadata` is boxed, and a
    /// product found once is classified without copying its occurrence, so that classifying a
    /// million bare IDs copies nothing (nil metadata: none).
    mutating func classify(_ first: ProductOccurrence, _ others: [ProductOccurrence], metadata box: MetadataBox?) -> (ProductKind?, ReasonBox) {
        if others.isEmpty {
            if let kind = first.declaredKind {
                return (kind.value, ReasonBox(.declared(kind.location, first.declaredBy ?? kind.value.rawValue)))
            }
            if let key = first.containerKey, let found = fromContainer(key) { return found }
        } else {
            let occurrences = [first] + others
            // The declaring occurrence of the highest role priority, the first of equals.
            var declaring: ProductOccurrence?
            for occurrence in occurrences where occurrence.declaredKind != nil {
                if let best = declaring, KindInference.rolePriority(best.role) <= KindInference.rolePriority(occurrence.role) { continue }
                declaring = occurrence
            }
            if let declaring, let kind = declaring.declaredKind {
                return (kind.value, ReasonBox(.declared(kind.location, declaring.declaredBy ?? kind.value.rawValue)))
            }
            for occurrence in occurrences {
                if let key = occurrence.containerKey, let found = fromContainer(key) { return found }
            }
        }
        if let (kind, reason) = inferIDReason(first.id) {
            return (kind, reason)
        }
        guard let metadata = box?.value else { return (nil, unknown) }
        if let name = metadata.referenceName?.value, let (kind, words) = KindInference.infer(from: name) {
            return (kind, ReasonBox(.inferred(words, source: "its name \(Quote.bounded(name))")))
        }
        for localization in metadata.localizations {
            if let name = localization.displayName, let (kind, words) = KindInference.infer(from: name) {
                return (kind, ReasonBox(.inferred(words, source: "its name \(Quote.bounded(name))")))
            }
        }
        return (nil, unknown)
    }

    /// What a container key (`Consumables`) says, once per key: its products share the reason.
    private mutating func fromContainer(_ key: String) -> (ProductKind?, ReasonBox)? {
        if let cached = containers[key] { return cached.map { ($0.0, $0.1) } }
        let found = KindInference.infer(from: key).map { ($0.0, ReasonBox(.inferred($0.1, source: "the container key \(Quote.bounded(key))"))) }
        containers[key] = .some(found)
        return found.map { ($0.0, $0.1) }
    }

    private enum Lookup {
        case notFolded
        case hit((ProductKind, ReasonBox)?)
        case miss(UInt64, [UInt8])
    }

    /// `KindInference.infer(from:)` for an ID: the kind and the words that tell it.
    mutating func inferID(_ id: String) -> (ProductKind, [String])? {
        guard let (kind, reason) = inferIDReason(id), case .inferred(let words, _) = reason.value else { return nil }
        return (kind, words)
    }

    /// The kind an ID's words tell, and why, cached by the ID's digit-folded form: the products of
    /// a numbered family share one reason.
    private mutating func inferIDReason(_ id: String) -> (ProductKind, ReasonBox)? {
        let lookup: Lookup = IDKeys.withBytes(id) { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { scratch in
                // The folded bytes into scratch, then their FNV-1a hash.
                let count = Self.foldDigitRuns(bytes[...], into: scratch)
                // Only IDs with digit runs repeat once folded; caching the others would only grow the cache.
                guard count != bytes.count || !scratch[..<count].elementsEqual(bytes) else { return .notFolded }
                let key = UnsafeBufferPointer(rebasing: scratch[..<count])
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for c in key { hash = (hash ^ UInt64(c)) &* 0x100_0000_01b3 }
                for entry in ids[hash] ?? [] where entry.key.elementsEqual(key) { return .hit(entry.result) }
                return .miss(hash, Array(key))
            }
        }
        func reasoned(_ found: (ProductKind, [String])?) -> (ProductKind, ReasonBox)? {
            found.map { ($0.0, ReasonBox(.inferred($0.1, source: "the ID"))) }
        }
        switch lookup {
        case .notFolded:
            return reasoned(inferSegments(id))
        case .hit(let result):
            return result
        case .miss(let hash, let key):
            let result = reasoned(inferSegments(id))
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
        let isSeparator: (UInt8) -> Bool = { c in c < 0x80 && !((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)) }
        IDKeys.withBytes(id) { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { key in
                var previous: Range<Int>?
                var i = 0
                while i < bytes.count {
                    while i < bytes.count, isSeparator(bytes[i]) { i += 1 }
                    let start = i
                    while i < bytes.count, !isSeparator(bytes[i]) { i += 1 }
                    guard start < i else { break }
                    let segment = start..<i
                    let count = Self.foldDigitRuns(bytes[segment], into: key)
                    let folded = UnsafeBufferPointer(rebasing: key[..<count])
                    // Most unique segments hold no word: told by a few table reads, never looked up.
                    if KindInference.mayHoldWord(folded) {
                        let text = String(decoding: folded, as: UTF8.self)
                        if let cached = segments[text] {
                            consider(cached)
                        } else {
                            let hit = Self.hit(KindInference.infer(from: text))
                            // Bounded: shared segments ("com", "acme") are seen early; unique ones need no memory.
                            if segments.count < 4096 { segments[text] = hit }
                            consider(hit)
                        }
                    }
                    if let previous, previous.count + segment.count <= KindInference.longestWord,
                       Self.joinedMayBeWord(bytes[previous], bytes[segment]) {
                        // Words that span two segments ("non" + "consumable").
                        let joined = (String(decoding: bytes[previous], as: UTF8.self) + String(decoding: bytes[segment], as: UTF8.self)).lowercased()
                        if let entry = KindInference.wordIndex[joined] { consider(Hit(priority: entry.priority, kind: entry.kind, words: [joined])) }
                    }
                    previous = segment
                }
            }
        }
        guard let best else { return nil }
        let ordered = KindInference.wordLists[best.priority].1.filter(best.words.contains)
        return (best.kind, ordered.filter { hit in !ordered.contains { $0 != hit && $0.contains(hit) } })
    }

    /// Whether `previous + segment` may be a word: its first three bytes start one.
    private static func joinedMayBeWord(_ previous: Slice<UnsafeBufferPointer<UInt8>>, _ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var first: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var count = 0
        func take(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            for c in bytes {
                guard count < 3 else { return }
                switch count {
                case 0: first.0 = c
                case 1: first.1 = c
                default: first.2 = c
                }
                count += 1
            }
        }
        take(previous)
        take(segment)
        return count == 3 && KindInference.mayStartWord(first.0, first.1, first.2)
    }

    private static func hit(_ inferred: (ProductKind, [String])?) -> Hit? {
        guard let (kind, words) = inferred, let first = words.first,
              let priority = KindInference.wordIndex[first]?.priority else { return nil }
        return Hit(priority: priority, kind: kind, words: words)
    }
}
