import Support

/// What Xcode's way of writing a StoreKit configuration file adds to `JSONWriter` (whose `.xcode`
/// style is Xcode's layout): the order of keys, and fields written in one call. The caller gives
/// each object's keys in Xcode's order, case-insensitive (`_storefront` before `_storeKitErrors`,
/// as in every real file), which `keyOrder` states and the tests check on every generated file.
enum XcodeJSON {
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
}

extension JSONWriter {
    /// `"key" : "value"` and the like, for the common case.
    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    /// `"key" : [` blank line `]` in Xcode's style.
    mutating func emptyArray(_ name: String) { key(name); openArray(); closeArray() }
}
