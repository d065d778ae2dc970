/// Gives each distinct field value (a product ID, a currency, a storefront) a small number, read
/// straight from the line's bytes: a million rows make a handful of strings, not five million.
/// An open-addressing table with FNV-1a hashes: no `String`, no `Hasher` per row.
struct ByteInterner: Sendable {
    private var slots = [Int32](repeating: -1, count: 64)
    private var hashes: [UInt64] = []
    private var starts: [Int] = [0]
    private var storage: [UInt8] = []
    private(set) var strings: [String] = []

    /// The value's number, and whether it was seen for the first time.
    mutating func id(_ b: UnsafeBufferPointer<UInt8>) -> (id: Int32, isNew: Bool) {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in b { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let id = slots[i]
            if id < 0 { break }
            if hashes[Int(id)] == hash, equal(Int(id), b) { return (id, false) }
            i = (i + 1) & mask
        }
        let id = Int32(strings.count)
        slots[i] = id
        hashes.append(hash)
        storage.append(contentsOf: b)
        starts.append(storage.count)
        strings.append(String(decoding: b, as: UTF8.self))
        if strings.count * 2 > slots.count { grow() }
        return (id, true)
    }

    subscript(_ id: Int32) -> String { strings[Int(id)] }

    private func equal(_ id: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == b.count else { return false }
        return storage.withUnsafeBufferPointer { s in
            b.isEmpty || memcmp(s.baseAddress! + start, b.baseAddress!, b.count) == 0
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(id)
        }
    }
}

/// Sales totals by `RowKey`, in an open-addressing table: one probe per row to find or add its
/// group, with a multiply-shift hash of the key's numbers.
struct RowTable: Sendable {
    private var slots = [Int32](repeating: -1, count: 1024)
    private(set) var keys: [RowKey] = []
    var totals: [RowTotals] = []

    var count: Int { keys.count }

    private static func hash(_ k: RowKey) -> UInt64 {
        var h = UInt64(UInt32(bitPattern: k.product)) | UInt64(UInt32(bitPattern: k.type)) << 32
        h = (h ^ (UInt64(UInt32(bitPattern: k.country)) | UInt64(UInt32(bitPattern: k.customer)) << 32)) &* 0x9E3779B97F4A7C15
        h = (h ^ (UInt64(UInt32(bitPattern: k.proceeds)) | UInt64(UInt32(bitPattern: k.day)) << 32)) &* 0xBF58476D1CE4E5B9
        return h ^ (h >> 31)
    }

    /// The index of the key's totals, added empty when new.
    mutating func index(_ key: RowKey) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: Self.hash(key)) & mask
        while true {
            let at = slots[i]
            if at < 0 { break }
            if keys[Int(at)] == key { return Int(at) }
            i = (i + 1) & mask
        }
        slots[i] = Int32(keys.count)
        keys.append(key)
        totals.append(RowTotals())
        if keys.count * 2 > slots.count { grow() }
        return keys.count - 1
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (n, key) in keys.enumerated() {
            var i = Int(truncatingIfNeeded: Self.hash(key)) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(n)
        }
    }
}

import Foundation
