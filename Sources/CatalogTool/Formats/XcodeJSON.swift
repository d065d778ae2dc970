import Support

/// What Xcode's way of writing a StoreKit configuration file adds to `JSONWriter` (whose `.xcode`
/// style is Xcode's layout): fields written in one call. The caller gives each object's keys in
/// Xcode's order, case-insensitive (`_storefront` before `_storeKitErrors`, as in every real
/// file), which `RoundTripTests` checks on every generated file.
extension JSONWriter {
    /// `"key" : "value"` and the like, for the common case.
    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    /// `"key" : [` blank line `]` in Xcode's style.
    mutating func emptyArray(_ name: String) { key(name); openArray(); closeArray() }
}
