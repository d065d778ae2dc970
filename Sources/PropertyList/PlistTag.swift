import CLibXML2
import Foundation

/// The plist elements, recognised from libxml2's interned names without building Strings.
enum PlistTag: UInt8 {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

    var isLeaf: Bool {
        switch self {
        case .plist, .dict, .array: false
        default: true
        }
    }

    var name: String {
        switch self {
        case .plist: "plist"
        case .dict: "dict"
        case .array: "array"
        case .key: "key"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        case .date: "date"
        case .data: "data"
        }
    }

    /// A name of at most 7 bytes as its bytes little-endian, its length in bits 56–58 and its
    /// tag in bits 60–63 (raw value + 1; 0 when it names no plist element); 0 for a longer name
    /// (no plist element has one).
    static func pack(_ name: UnsafePointer<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        var i = 0
        while i < 8 {
            let c = name[i]
            if c == 0 { break }
            packed |= UInt64(c) << (8 * UInt64(i))
            i += 1
        }
        if i == 8 { return 0 }
        let code = from(bytes: packed).map { UInt64($0.rawValue) + 1 } ?? 0
        return packed | UInt64(i) << 56 | code << 60
    }

    /// The tag a `pack`ed name names.
    static func from(packed word: UInt64) -> PlistTag? {
        PlistTag(rawValue: UInt8(truncatingIfNeeded: word >> 60) &- 1)
    }

    /// The tag whose name's bytes, little-endian, are `packed`.
    private static func from(bytes packed: UInt64) -> PlistTag? {
        // Constants: the names' bytes, little-endian ("key" = 0x79656b).
        switch packed {
        case 0x676e69727473: return .string
        case 0x79656b: return .key
        case 0x74636964: return .dict
        case 0x7961727261: return .array
        case 0x72656765746e69: return .integer
        case 0x6c616572: return .real
        case 0x65757274: return .`true`
        case 0x65736c6166: return .`false`
        case 0x65746164: return .date
        case 0x61746164: return .data
        case 0x7473696c70: return .plist
        default: return nil
        }
    }
}
