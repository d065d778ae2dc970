import Diagnostics
import Support

/// Writes JSON the way Xcode writes a StoreKit configuration file: two-space indent,
/// `"key" : value`, an empty container as `[` blank line `]`, and a final newline. It streams
/// into one byte buffer (a 10,000-product file builds no tree of values); the caller gives each
/// object's keys in Xcode's order, case-insensitive (`_storefront` before `_storeKitErrors`, as in
/// every real file), which `keyOrder` states and the tests check on every generated file.
struct XcodeJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open container: whether it has no item yet.
    private var empty: [Bool] = []

    init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// The finished document, with its final newline.
    var text: String {
        String(decoding: bytes + [0x0A], as: UTF8.self)
    }

    /// Xcode's key order: case-insensitive, then by bytes for keys that differ only in case.
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                if lower(x) != lower(y) { return lower(x) < lower(y) }
            }
        }
    }

    // MARK: Containers

    mutating func beginObject() { open(0x7B) }
    mutating func endObject() { close(0x7D) }
    mutating func beginArray() { open(0x5B) }
    mutating func endArray() { close(0x5D) }

    /// `"key" : ` as the next item of the open object; its value follows.
    mutating func key(_ key: String) {
        item()
        Escape.json(key, into: &bytes)
        bytes += [0x20, 0x3A, 0x20]
    }

    /// Starts the next element of the open array (a value written at once after it).
    mutating func element() { item() }

    // MARK: Values

    mutating func string(_ s: String) { Escape.json(s, into: &bytes) }
    mutating func integer(_ n: Int) { bytes += String(n).utf8 }
    mutating func bool(_ b: Bool) { bytes += (b ? "true" : "false").utf8 }
    mutating func null() { bytes += "null".utf8 }

    /// `"key" : "value"` and the like, for the common case.
    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); integer(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    /// `"key" : [` blank line `]`.
    mutating func emptyArray(_ name: String) { key(name); beginArray(); endArray() }

    // MARK: Layout

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        empty.append(true)
    }

    private mutating func close(_ bracket: UInt8) {
        let wasEmpty = empty.removeLast()
        bytes += wasEmpty ? [0x0A, 0x0A] : [0x0A]
        indent(empty.count)
        bytes.append(bracket)
    }

    private mutating func item() {
        if empty[empty.count - 1] {
            empty[empty.count - 1] = false
            bytes.append(0x0A)
        } else {
            bytes += [0x2C, 0x0A]
        }
        indent(empty.count)
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }
}
