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
    /// FNV-1a over the folded bytes.
    static func hash(_ id: String, _ fold: IDFold) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for c in id.utf8 {
            guard let b = fold.apply(c) else { continue }
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01B3
        }
        return h
    }

    /// Whether two IDs are equal once folded.
    static func equal(_ a: String, _ b: String, _ fold: IDFold) -> Bool {
        var i = a.utf8.makeIterator(), j = b.utf8.makeIterator()
        while true {
            var x: UInt8?
            repeat { guard let c = i.next() else { x = nil; break }; x = fold.apply(c) } while x == nil
            var y: UInt8?
            repeat { guard let c = j.next() else { y = nil; break }; y = fold.apply(c) } while y == nil
            if x != y { return false }
            if x == nil { return true }
        }
    }

    /// For each ID equal (once folded) to an earlier one, calls `body(first, later)`.
    static func forEachRepeat(_ ids: [String], _ fold: IDFold, _ body: (Int, Int) -> Void) {
        var firstByHash: [UInt64: Int32] = [:]
        var collisions: [UInt64: [Int32]] = [:]
        firstByHash.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() {
            let h = hash(id, fold)
            guard let first = firstByHash[h] else {
                firstByHash[h] = Int32(i)
                continue
            }
            if equal(ids[Int(first)], id, fold) {
                body(Int(first), i)
            } else if let other = collisions[h]?.first(where: { equal(ids[Int($0)], id, fold) }) {
                body(Int(other), i)
            } else {
                collisions[h, default: []].append(Int32(i))
            }
        }
    }
}
