import Diagnostics

/// IDs one edit apart (`goldpack` / `goldpak`), or equal once separators and case are ignored
/// (`gold_pack` / `goldpack` / `gold-pack`).
///
/// Edits between digits are not reported: numbered series (`octane87`, `octane89`, `coins_100`,
/// `coins_500`) are intentional. That also makes the search fast: digits collapse into one symbol,
/// IDs that then look alike share a skeleton, and only distinct skeletons are compared, through
/// hashed one-deletion neighbourhoods sorted by hash — never all pairs.
struct SimilarIDsRule: CatalogRule {
    let description = RuleDescription(
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

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        let products = catalog.products
        let ids = products.map(\.id)
        var reported = Set<Pair>()
        var found: [Diagnostic] = []

        func report(_ i: Int, _ j: Int, _ why: String) {
            let pair = Pair(min(i, j), max(i, j))
            guard reported.insert(pair).inserted else { return }
            let earlier = products[pair.a], later = products[pair.b]
            // Two products declared as different kinds are two products, however alike their IDs.
            if earlier.kindReason.isDeclared, later.kindReason.isDeclared, earlier.kind != later.kind { return }
            found.append(finding("product ID '\(later.id)' \(why) '\(earlier.id)': a typo?", at: later.location,
                                 related: [RelatedLocation(earlier.location, "'\(earlier.id)' is here")]))
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

        // One edit apart, found through skeletons (digits folded to '#'): one representative per
        // skeleton, members kept only for skeletons shared by several IDs.
        var representatives: [Int] = []
        var groupIndex = [Int32](repeating: 0, count: ids.count)
        var groupOf: [UInt64: Int32] = [:]
        var lastGroup = -1
        groupOf.reserveCapacity(min(ids.count, 1 << 16))
        for (i, id) in ids.enumerated() {
            if lastGroup >= 0, IDKeys.equal(ids[representatives[lastGroup]], id, .skeleton) {
                groupIndex[i] = Int32(lastGroup)
                continue
            }
            let h = IDKeys.hash(id, .skeleton)
            if let g = groupOf[h], IDKeys.equal(ids[representatives[Int(g)]], id, .skeleton) {
                lastGroup = Int(g)
            } else {
                // A hash shared by two skeletons keeps the first in the table; the second is only
                // found through its deletion keys, which still pair it with its neighbours.
                if groupOf[h] == nil { groupOf[h] = Int32(representatives.count) }
                lastGroup = representatives.count
                representatives.append(i)
            }
            groupIndex[i] = Int32(lastGroup)
        }
        let candidates = Self.candidatePairs(representatives.map { ids[$0] })
        // Members only of the groups that have a candidate neighbour.
        var members: [Int32: [Int]] = [:]
        for (s, t) in candidates { members[Int32(s)] = []; members[Int32(t)] = [] }
        if !members.isEmpty {
            for (i, g) in groupIndex.enumerated() where members[g] != nil { members[g]!.append(i) }
        }
        let group = { (g: Int) -> [Int] in members[Int32(g)] ?? [] }
        for (s, t) in candidates {
            let left = group(s), right = group(t)
            let bytes = { (i: Int) in Array(ids[i].utf8) }
            if left.count * right.count <= 10_000 {
                for i in left { for j in right where Self.oneNonDigitEdit(bytes(i), bytes(j)) { check(i, j) } }
            } else {
                // Large numbered families: an edit outside the digits keeps the digits as they are.
                var byDigits: [[UInt8]: [Int]] = [:]
                for i in left { byDigits[Self.digits(bytes(i)), default: []].append(i) }
                for j in right {
                    for i in byDigits[Self.digits(bytes(j))] ?? [] where Self.oneNonDigitEdit(bytes(i), bytes(j)) { check(i, j) }
                }
            }
        }

        func check(_ i: Int, _ j: Int) {
            if IDKeys.equal(ids[i], ids[j], .loose) { return } // reported above, or case-only
            report(i, j, "is one edit away from")
        }
        return found
    }

    private struct Pair: Hashable {
        let a: Int, b: Int
        init(_ a: Int, _ b: Int) { self.a = a; self.b = b }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isSeparator(_ c: UInt8) -> Bool { c == 0x2E || c == 0x5F || c == 0x2D }
    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }
    static func digits(_ id: [UInt8]) -> [UInt8] { id.filter(isDigit) }

    /// Exactly one substitution, insertion or deletion, not between two digits, not of a digit,
    /// and not of a whole one-character segment.
    static func oneNonDigitEdit(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        if x.count == y.count {
            guard let i = x.indices.first(where: { x[$0] != y[$0] }) else { return false }
            guard x[(i + 1)...] == y[(i + 1)...] else { return false }
            // A one-character segment (`….a` / `….b`) is an enumeration, like a digit.
            let wholeSegment = (i == 0 || isSeparator(x[i - 1])) && (i + 1 == x.count || isSeparator(x[i + 1]))
            return !(isDigit(x[i]) && isDigit(y[i])) && !wholeSegment
        }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        let i = short.indices.first(where: { short[$0] != long[$0] }) ?? short.count
        guard short[i...] == long[(i + 1)...] else { return false }
        return !isDigit(long[i])
    }

    /// Pairs of distinct skeletons that may be one edit apart: those sharing a one-deletion
    /// variant (substitution) or where one is a deletion variant of the other (insertion).
    ///
    /// Two IDs that share a prefix cannot differ by one edit inside it (a substitution there is
    /// impossible, and a deletion inside a run of equal bytes equals one at the run's end), so
    /// deletion variants start after the prefix all skeletons share. Each key packs a 38-bit hash
    /// and a 26-bit index into one `UInt64`, so finding equal hashes is a plain integer sort;
    /// every candidate is verified exactly afterwards.
    static func candidatePairs(_ ids: [String]) -> [(Int, Int)] {
        guard ids.count > 1, ids.count < 1 << 26 else { return [] }
        let first = Array(ids[0].utf8)
        var common = first.count
        for id in ids.dropFirst() {
            var i = 0
            for c in id.utf8 {
                guard i < common, skeletonByte(c) == skeletonByte(first[i]) else { break }
                i += 1
            }
            common = i
        }
        var keys: [UInt64] = []
        keys.reserveCapacity(ids.reduce(0) { $0 + max($1.utf8.count - common, 0) + 1 })
        var s: [UInt8] = []
        for (index, id) in ids.enumerated() {
            s.removeAll(keepingCapacity: true)
            for c in id.utf8 { s.append(skeletonByte(c)) }
            keys.append(pack(hash(s, skipping: -1), index))
            for i in s.indices where i == common || (i > common && s[i] != s[i - 1]) {
                keys.append(pack(hash(s, skipping: i), index))
            }
        }
        keys.sort()
        var pairs = Set<Pair>()
        var start = 0
        let mask: UInt64 = (1 << 26) - 1
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] >> 26 == keys[start] >> 26 { end += 1 }
            if end - start > 1 {
                for a in start..<end {
                    for b in (a + 1)..<end {
                        let i = Int(keys[a] & mask), j = Int(keys[b] & mask)
                        if i != j { pairs.insert(Pair(min(i, j), max(i, j))) }
                    }
                }
            }
            start = end
        }
        return pairs.map { ($0.a, $0.b) }.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    private static func skeletonByte(_ c: UInt8) -> UInt8 { isDigit(c) ? 0x23 : c }

    private static func pack(_ hash: UInt64, _ index: Int) -> UInt64 { (hash >> 26) << 26 | UInt64(index) }

    /// FNV-1a of `s` without the byte at `skipping` (-1: the whole string), with a length marker.
    static func hash(_ s: [UInt8], skipping: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in s.indices where i != skipping {
            h ^= UInt64(s[i])
            h &*= 0x0000_0100_0000_01B3
        }
        h ^= UInt64(skipping < 0 ? s.count : s.count - 1) &* 0x9E37_79B9_7F4A_7C15
        return h
    }
}
