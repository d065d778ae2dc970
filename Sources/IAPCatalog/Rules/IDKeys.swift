/// How IDs are compared when grouping them: a fold applied to each UTF-8 byte.
enum IDFold {
    /// ASCII letters lowercased.
    case lower
    /// Lowercased, and `.`, `_`, `-` dropped.
    case loose
    /// Digits replaced by `#`.
    case skeleton

    @inline(__always)
    func apply(_ c: UInt8) -> UInt8? {
        switch self {
        case .lower: return c >= 0x41 && c <= 0x5A ? c + 32 : c
        case .loose:
            if c == 0x2E || c == 0x5F || c == 0x2D { return nil }
            return c >= 0x41 && c <= 0x5A ? c + 32 : c
        case .skeleton: return c >= 0x30 && c <= 0x39 ? 0x23 : c
        }
    }
}

/// Allocation-free keys over product IDs' UTF-8 bytes, for rules that group a million IDs.
enum IDKeys {
    /// `body` over the ID's UTF-8 bytes in place: a loop over a buffer is several times faster
    /// than one over `String.UTF8View`, and every ID rule reads every ID.
    @inline(__always)
    static func withBytes<R>(_ id: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = id.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(id.utf8).withUnsafeBufferPointer(body)
    }

    /// FNV-1a over the folded bytes.
    static func hash(_ id: String, _ fold: IDFold) -> UInt64 {
        withBytes(id) { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for c in bytes {
                guard let b = fold.apply(c) else { continue }
                h ^= UInt64(b)
                h &*= 0x0000_0100_0000_01B3
            }
            return h
        }
    }

    /// Whether two IDs are equal once folded.
    static func equal(_ a: String, _ b: String, _ fold: IDFold) -> Bool {
        withBytes(a) { a in
            withBytes(b) { b in
                var i = 0, j = 0
                while true {
                    var x: UInt8?
                    while i < a.count, x == nil { x = fold.apply(a[i]); i += 1 }
                    var y: UInt8?
                    while j < b.count, y == nil { y = fold.apply(b[j]); j += 1 }
                    if x != y { return false }
                    if x == nil { return true }
                }
            }
        }
    }

    /// For each ID equal (once folded) to an earlier one, calls `body(first, later)`, where
    /// `first` is the earliest ID equal to it.
    static func forEachRepeat(_ ids: [String], _ fold: IDFold, _ body: (Int, Int) -> Void) {
        forEachRepeat(ids, hashes: ids.map { hash($0, fold) }, fold, body)
    }

    /// `forEachRepeat` over hashes already made (`hashes[i]` is `hash(ids[i], fold)`): the IDs
    /// are sorted by hash with an integer radix sort, and only IDs of equal hash are compared.
    static func forEachRepeat<IDs: RandomAccessCollection<String>, Hashes: RandomAccessCollection<UInt64>>(
        _ ids: IDs, hashes: Hashes, _ fold: IDFold, _ body: (Int, Int) -> Void
    ) where IDs.Index == Int, Hashes.Index == Int {
        guard ids.count > 1 else { return }
        guard ids.count < 1 << indexBits else { return forEachRepeatByTable(ids, hashes: hashes, fold, body) }
        // Each key: the hash's top 40 bits over the ID's index; a stable sort by the hash bits
        // keeps equal hashes in index order.
        var keys = hashes.enumerated().map { ($1 >> indexBits) << indexBits | UInt64($0) }
        radixSort(&keys, bitsFrom: indexBits)
        let mask: UInt64 = (1 << indexBits) - 1
        var start = 0
        var classes: [Int] = []
        while start < keys.count {
            var end = start + 1
            while end < keys.count, keys[end] >> indexBits == keys[start] >> indexBits { end += 1 }
            if end - start > 1 {
                // Equal hashes, in index order: each ID joins the first earlier one it equals.
                classes.removeAll(keepingCapacity: true)
                for key in keys[start..<end] {
                    let i = Int(key & mask)
                    if let first = classes.first(where: { equal(ids[$0], ids[i], fold) }) { body(first, i) } else { classes.append(i) }
                }
            }
            start = end
        }
    }

    private static let indexBits: UInt64 = 24

    /// Sorts packed keys by their bits from `shift` up, stably (LSD radix, 12 bits a pass): linear
    /// where a comparison sort of millions of keys is not. The bits below are left in input order.
    static func radixSort(_ keys: inout [UInt64], bitsFrom shift: UInt64) {
        guard keys.count > 1 else { return }
        var other = [UInt64](repeating: 0, count: keys.count)
        var shift = shift
        while shift < 64 {
            var counts = [Int](repeating: 0, count: 1 << 12)
            for k in keys { counts[Int((k >> shift) & 0xFFF)] += 1 }
            var total = 0
            for b in counts.indices { let c = counts[b]; counts[b] = total; total += c }
            for k in keys {
                let b = Int((k >> shift) & 0xFFF)
                other[counts[b]] = k
                counts[b] += 1
            }
            swap(&keys, &other)
            shift += 12
        }
    }

    /// The same for more IDs than the packed keys can index: a table of the first ID per hash.
    private static func forEachRepeatByTable<IDs: RandomAccessCollection<String>, Hashes: RandomAccessCollection<UInt64>>(
        _ ids: IDs, hashes: Hashes, _ fold: IDFold, _ body: (Int, Int) -> Void
    ) where IDs.Index == Int, Hashes.Index == Int {
        var firstByHash: [UInt64: Int] = [:]
        var collisions: [UInt64: [Int]] = [:]
        for (i, h) in hashes.enumerated() {
            guard let first = firstByHash[h] else {
                firstByHash[h] = i
                continue
            }
            if equal(ids[first], ids[i], fold) {
                body(first, i)
            } else if let other = collisions[h]?.first(where: { equal(ids[$0], ids[i], fold) }) {
                body(other, i)
            } else {
                collisions[h, default: []].append(i)
            }
        }
    }
}
