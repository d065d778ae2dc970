import Diagnostics

/// IDs one edit apart (`goldpack` / `goldpak`), or equal once separators and case are ignored
/// (`gold_pack` / `goldpack` / `gold-pack`).
///
/// Edits between digits are not reported: numbered series (`octane87`, `octane89`, `coins_100`,
/// `coins_500`) are intentional. That also makes the search fast: digits collapse into one symbol,
/// IDs that then look alike share a skeleton, and only distinct skeletons are compared, through
/// hashed one-deletion neighbourhoods sorted by hash — never all pairs.
public struct SimilarIDsRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "similar-ids", name: "Similar IDs", severity: .warning,
        rationale: "Two IDs one typo apart, or equal but for separators, are usually one product typed twice; the app requests both and one never loads.",
        triggering: [
            .ids("com.acme.app.goldpack", "↓com.acme.app.goldpak"),
            .ids("com.acme.app.gold_pack", "↓com.acme.app.gold-pack"),
            .ids("com.acme.app.goldpack", "↓com.acme.app.gold.pack"),
            .ids("com.acme.app.level1", "↓com.acme.app.levell"),
        ],
        nonTriggering: [
            .ids("com.acme.app.coins_100", "com.acme.app.coins_500", "com.acme.app.coins_1000"),
            .ids("com.acme.app.tip.small", "com.acme.app.tip.large"),
            .ids("consumable.fuel.octane87", "consumable.fuel.octane89"),
            .ids("com.acme.app.pack.a", "com.acme.app.pack.b"),
            RuleExample([ExampleFile("Metadata.plist", RuleExample.metadataPlist(
                RuleExample.product("com.acme.app.coin", "<key>kind</key><string>consumable</string>") + "\n"
                    + RuleExample.product("com.acme.app.coins", "<key>kind</key><string>non-consumable</string>")))]),
        ])

    /// Among the slowest rules on a large catalog: started first (`CatalogRule.schedulingRank`).
    public var schedulingRank: Int? { 0 }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let products = catalog.products
        let ids = products.map(\.id)

        // Every pair is found once: the loose search pairs each later ID with one earlier, the
        // edit search skips loosely equal pairs, and each pair of IDs lies in one pair of
        // distinct skeleton groups, found once.
        func report(_ i: Int, _ j: Int, _ why: String) {
            let earlier = products[min(i, j)], later = products[max(i, j)]
            // Two products declared as different kinds are two products, however alike their IDs.
            if earlier.kindReason.isDeclared, later.kindReason.isDeclared, earlier.kind != later.kind { return }
            found.add(at: later.location) {
                finding("product ID \(Quote.bounded(later.id)) \(why) \(Quote.bounded(earlier.id)): a typo?", at: later.location,
                        related: [RelatedLocation(earlier.location, "\(Quote.bounded(earlier.id)) is here")])
            }
        }

        // Equal once separators and case are ignored (case alone is case-duplicate-id's finding).
        // Each later ID is paired with the earliest one that differs from it in more than case.
        var looseGroups: [Int: [Int]] = [:]
        IDKeys.forEachRepeat(ids, .loose) { first, later in
            let group = looseGroups[first, default: [first]]
            if let earlier = group.first(where: { !IDKeys.equal(ids[$0], ids[later], .lower) }) {
                report(earlier, later, "equals, but for separators,")
            }
            looseGroups[first] = group + [later]
        }

        // One edit apart, found through skeletons (digits folded to '#'): IDs grouped by skeleton,
        // groups numbered in order of their first ID, and only distinct skeletons compared.
        let (groupIndex, representatives) = Self.skeletonGroups(ids)
        let candidates = Self.candidatePairs(ids, representatives)
        guard !candidates.isEmpty else { return }
        // Each group's members in index order, one slice of `members` per group.
        var memberStart = [Int](repeating: 0, count: representatives.count + 1)
        for g in groupIndex { memberStart[Int(g) + 1] += 1 }
        for g in representatives.indices { memberStart[g + 1] += memberStart[g] }
        var members = [Int](repeating: 0, count: ids.count)
        var next = memberStart
        for (i, g) in groupIndex.enumerated() {
            members[next[Int(g)]] = i
            next[Int(g)] += 1
        }
        for (s, t) in candidates {
            let left = members[memberStart[s]..<memberStart[s + 1]], right = members[memberStart[t]..<memberStart[t + 1]]
            if left.count * right.count <= 10_000 {
                for i in left { for j in right where Self.oneNonDigitEdit(ids[i], ids[j]) { check(i, j) } }
            } else {
                // Large numbered families: an edit outside the digits keeps the digits as they are.
                for (i, j) in Self.sameDigitsPairs(ids, left, right) where Self.oneNonDigitEdit(ids[i], ids[j]) { check(i, j) }
            }
        }

        func check(_ i: Int, _ j: Int) {
            if IDKeys.equal(ids[i], ids[j], .loose) { return } // reported above, or case-only
            report(i, j, "is one edit away from")
        }
    }

    /// Each ID's skeleton group, groups numbered in order of their first ID, and each group's
    /// first ID. IDs are sorted by skeleton hash (a radix sort of packed keys, ties in index
    /// order) and only IDs of equal hash are compared, so a hash shared by two skeletons makes
    /// two groups all the same (`hash` is a parameter so that a test can make every hash collide).
    static func skeletonGroups(_ ids: [String], hash: (String) -> UInt64 = { IDKeys.hash($0, .skeleton) })
        -> (group: [Int32], representatives: [Int]) {
        let n = ids.count
        guard n > 0 else { return ([], []) }
        // The earliest ID of each one's skeleton.
        var first = [Int](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = i }
            count = n
        }
        let indexBits = UInt64(max(Int.bitWidth - (n - 1).leadingZeroBitCount, 1))
        let mask: UInt64 = (1 << indexBits) - 1
        var keys = [UInt64](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = (hash(ids[i]) >> indexBits) << indexBits | UInt64(i) }
            count = n
        }
        IDKeys.radixSort(&keys, bitsFrom: indexBits)
        var classes: [Int] = []
        var start = 0
        while start < n {
            var end = start + 1
            while end < n, keys[end] >> indexBits == keys[start] >> indexBits { end += 1 }
            if end - start > 1 {
                classes.removeAll(keepingCapacity: true)
                for key in keys[start..<end] {
                    let i = Int(key & mask)
                    if let c = classes.first(where: { sameSkeleton(ids[$0], ids[i]) }) { first[i] = c } else { classes.append(i) }
                }
            }
            start = end
        }
        var group = [Int32](repeating: 0, count: n)
        var representatives: [Int] = []
        for i in 0..<n {
            if first[i] == i {
                group[i] = Int32(truncatingIfNeeded: representatives.count)
                representatives.append(i)
            } else {
                group[i] = group[first[i]]
            }
        }
        return (group, representatives)
    }

    /// The pairs of a left and a right ID with the same digits, right by right, each right ID's in
    /// left order: each right ID meets only the left IDs of its digit hash, found by binary search
    /// among the left's (sorted, ties in left order), and the digits are then compared (`hash` is
    /// a parameter so that a test can make every hash collide).
    static func sameDigitsPairs(_ ids: [String], _ left: ArraySlice<Int>, _ right: ArraySlice<Int>,
                                hash: (String) -> UInt64 = digitHash) -> [(Int, Int)] {
        var keyed = left.indices.map { (hash(ids[left[$0]]) & 0xFFFF_FFFF) << 32 | UInt64($0 - left.startIndex) }
        keyed.sort()
        var pairs: [(Int, Int)] = []
        for j in right {
            let h = hash(ids[j]) & 0xFFFF_FFFF
            var lo = 0, hi = keyed.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keyed[mid] >> 32 < h { lo = mid + 1 } else { hi = mid }
            }
            while lo < keyed.count, keyed[lo] >> 32 == h {
                let i = left[left.startIndex + Int(keyed[lo] & 0xFFFF_FFFF)]
                if sameDigits(ids[i], ids[j]) { pairs.append((i, j)) }
                lo += 1
            }
        }
        return pairs
    }

    /// `IDKeys.equal(a, b, .skeleton)`, faster: folding digits keeps the length, so IDs of two
    /// lengths differ and the rest is one loop over both.
    static func sameSkeleton(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return IDKeys.withBytes(a) { x in
            IDKeys.withBytes(b) { y in
                for k in 0..<x.count where x[k] != y[k] && skeletonByte(x[k]) != skeletonByte(y[k]) { return false }
                return true
            }
        }
    }

    /// FNV-1a over an ID's digits (the low 32 bits are used).
    static func digitHash(_ id: String) -> UInt64 {
        IDKeys.withBytes(id) { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for c in bytes where isDigit(c) {
                h ^= UInt64(c)
                h &*= 0x0000_0100_0000_01B3
            }
            return h
        }
    }

    /// Whether two IDs have the same digits, in the same order.
    static func sameDigits(_ a: String, _ b: String) -> Bool {
        IDKeys.withBytes(a) { a in
            IDKeys.withBytes(b) { b in
                var i = 0, j = 0
                while true {
                    while i < a.count, !isDigit(a[i]) { i += 1 }
                    while j < b.count, !isDigit(b[j]) { j += 1 }
                    if i == a.count || j == b.count { return i == a.count && j == b.count }
                    if a[i] != b[j] { return false }
                    i += 1
                    j += 1
                }
            }
        }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isSeparator(_ c: UInt8) -> Bool { c == 0x2E || c == 0x5F || c == 0x2D }
    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }

    /// Exactly one substitution, insertion or deletion, not between two digits, not of a digit,
    /// and not of a whole one-character segment.
    static func oneNonDigitEdit(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in oneNonDigitEdit(x, y) } }
    }

    static func oneNonDigitEdit(_ a: String, _ b: String) -> Bool {
        IDKeys.withBytes(a) { x in IDKeys.withBytes(b) { y in oneNonDigitEdit(x, y) } }
    }

    static func oneNonDigitEdit(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        if x.count == y.count {
            var i = 0
            while i < x.count, x[i] == y[i] { i += 1 }
            guard i < x.count else { return false }
            var k = i + 1
            while k < x.count, x[k] == y[k] { k += 1 }
            guard k == x.count else { return false }
            // A one-character segment (`….a` / `….b`) is an enumeration, like a digit.
            let wholeSegment = (i == 0 || isSeparator(x[i - 1])) && (i + 1 == x.count || isSeparator(x[i + 1]))
            return !(isDigit(x[i]) && isDigit(y[i])) && !wholeSegment
        }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        var k = i
        while k < short.count, short[k] == long[k + 1] { k += 1 }
        guard k == short.count else { return false }
        return !isDigit(long[i])
    }

    /// Pairs of distinct skeletons that may be one edit apart, from three kinds of hashed keys
    /// per skeleton: the whole skeleton (W), each one-deletion variant (D), and each one-deletion
    /// variant with its position (S). A substitution at position p leaves equal S keys (the same
    /// string without p, at p); an insertion makes the shorter skeleton's W key equal to one of
    /// the longer's D keys. Two D keys alike say only that two skeletons are within two edits, so
    /// they pair nothing: among a million distinct letter IDs that is most of the key collisions.
    ///
    /// Two IDs that share a prefix cannot differ by one edit inside it (a substitution there is
    /// impossible, and a deletion inside a run of equal bytes equals one at the run's end), so
    /// deletion variants start after the prefix all skeletons share. Each key packs a 36-bit hash,
    /// its kind and a 26-bit index into one `UInt64`, so finding equal hashes is an integer radix
    /// sort; every candidate is verified exactly afterwards.
    static func candidatePairs(_ all: [String], _ chosen: [Int]) -> [(Int, Int)] {
        let ids = LazyIDs(all: all, chosen: chosen)
        guard ids.count > 1, ids.count < 1 << 26 else { return [] }
        let first = Array(ids[0].utf8)
        var common = first.count
        var longest = 0
        for id in ids {
            IDKeys.withBytes(id) { bytes in
                var i = 0
                while i < min(common, bytes.count), skeletonByte(bytes[i]) == skeletonByte(first[i]) { i += 1 }
                common = i
                longest = max(longest, bytes.count)
            }
        }
        // An insertion pairs a skeleton with one a byte longer: W keys are needed only for lengths
        // that have a longer neighbour, D keys only for those with a shorter one (IDs of one
        // length, like a generated family, need neither).
        var lengths = [Bool](repeating: false, count: longest + 2)
        for id in ids { lengths[id.utf8.count] = true }
        // Each skeleton's keys, written in place: the hash of what follows the shared prefix (the
        // prefix is the same in every key), then of it without each byte in turn, in linear time.
        // A polynomial hash splits at any byte into the hash of what precedes it and of what
        // follows, so each deletion costs a multiply and an add; equal strings have equal hashes,
        // whichever byte they lost, and a final mix spreads the bits the keys keep.
        let width = longest - common
        var power = [UInt64](repeating: 1, count: width + 1)
        for i in stride(from: 1, through: width, by: 1) { power[i] = power[i - 1] &* hashBase }
        var skeleton = [UInt8](repeating: 0, count: width)
        // prefix[i]: bytes 0..<i; suffix[i]: bytes i..<n, each as a polynomial in `hashBase`.
        var prefix = [UInt64](repeating: 0, count: width + 1), suffix = [UInt64](repeating: 0, count: width + 1)
        let capacity = ids.reduce(0) { $0 + 2 * ($1.utf8.count - common) + 1 }
        var keys = [UInt64](unsafeUninitializedCapacity: capacity) { out, count in
            skeleton.withUnsafeMutableBufferPointer { s in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    suffix.withUnsafeMutableBufferPointer { suffix in
                        power.withUnsafeBufferPointer { power in
                            var k = 0
                            for index in 0..<ids.count {
                                let n = IDKeys.withBytes(ids[index]) { bytes in
                                    for i in common..<bytes.count { s[i - common] = skeletonByte(bytes[i]) }
                                    return bytes.count - common
                                }
                                let length = n + common
                                let shorter = length > 0 && lengths[length - 1], longer = lengths[length + 1]
                                for i in 0..<n { prefix[i + 1] = prefix[i] &* hashBase &+ UInt64(s[i]) &+ 1 }
                                suffix[n] = 0
                                for i in stride(from: n - 1, through: 0, by: -1) {
                                    suffix[i] = (UInt64(s[i]) &+ 1) &* power[n - 1 - i] &+ suffix[i + 1]
                                }
                                if longer {
                                    out[k] = pack(mix(prefix[n], length: n), .whole, index)
                                    k += 1
                                }
                                for skipping in 0..<n {
                                    let hash = mix(prefix[skipping] &* power[n - 1 - skipping] &+ suffix[skipping + 1], length: n - 1)
                                    // A deletion anywhere in a run of equal bytes leaves the same string: one D key per run.
                                    if shorter, skipping == 0 || s[skipping] != s[skipping - 1] {
                                        out[k] = pack(hash, .deletion, index)
                                        k += 1
                                    }
                                    out[k] = pack(mix(hash ^ (UInt64(skipping + 1) &* 0xD6E8_FEB8_6659_FD93), length: 0), .substitution, index)
                                    k += 1
                                }
                            }
                            count = k
                        }
                    }
                }
            }
        }
        IDKeys.radixSort(&keys, bitsFrom: hashShift)
        // Pairs packed as `a << 32 | b` (a < b), sorted and made unique at the end.
        var pairs: [UInt64] = []
        var start = 0
        var whole: [Int] = [], deleted: [Int] = [], substituted: [Int] = []
        func add(_ i: Int, _ j: Int) { if i != j { pairs.append(UInt64(min(i, j)) << 32 | UInt64(max(i, j))) } }
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] >> hashShift == keys[start] >> hashShift { end += 1 }
            if end - start > 1 {
                whole.removeAll(keepingCapacity: true)
                deleted.removeAll(keepingCapacity: true)
                substituted.removeAll(keepingCapacity: true)
                for key in keys[start..<end] {
                    let index = Int(key & indexMask)
                    switch KeyKind(rawValue: (key >> 26) & 3) {
                    case .whole: whole.append(index)
                    case .deletion: deleted.append(index)
                    default: substituted.append(index)
                    }
                }
                for a in substituted.indices { for b in substituted[(a + 1)...] { add(substituted[a], b) } }
                for i in whole { for j in deleted { add(i, j) } }
            }
            start = end
        }
        pairs.sort()
        var unique: [(Int, Int)] = []
        for (n, p) in pairs.enumerated() where n == 0 || p != pairs[n - 1] { unique.append((Int(p >> 32), Int(p & 0xFFFF_FFFF))) }
        return unique
    }

    /// `chosen` of `all`, by position: no copy of a million strings.
    private struct LazyIDs: RandomAccessCollection {
        let all: [String]
        let chosen: [Int]
        var startIndex: Int { 0 }
        var endIndex: Int { chosen.count }
        subscript(position: Int) -> String { all[chosen[position]] }
    }

    private enum KeyKind: UInt64 {
        case whole = 0, deletion = 1, substitution = 2
    }

    /// A key: bits 28–63 the hash's top 36, bits 26–27 its kind, bits 0–25 the skeleton's index.
    private static let hashShift: UInt64 = 28
    private static let indexMask: UInt64 = (1 << 26) - 1

    private static func pack(_ hash: UInt64, _ kind: KeyKind, _ index: Int) -> UInt64 {
        (hash >> hashShift) << hashShift | kind.rawValue << 26 | UInt64(index)
    }

    private static func skeletonByte(_ c: UInt8) -> UInt8 { isDigit(c) ? 0x23 : c }

    private static let hashBase: UInt64 = 0x100_0000_01B3

    /// A polynomial hash and its length, mixed (splitmix64's finaliser).
    private static func mix(_ h: UInt64, length: Int) -> UInt64 {
        var z = h ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
