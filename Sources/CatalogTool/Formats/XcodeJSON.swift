/// A JSON value written the way Xcode writes a StoreKit configuration file: two-space indent,
/// `"key" : value`, keys sorted without regard to case (`_storefront` before `_storeKitErrors`, as
/// in every real file), an empty array as `[` blank line `]`, and a final newline. Writing the same
/// value twice gives the same bytes, so a generated file diffs cleanly.
indirect enum XcodeJSON: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([XcodeJSON])
    case object([(String, XcodeJSON)])

    static func == (lhs: XcodeJSON, rhs: XcodeJSON) -> Bool { lhs.text == rhs.text }

    /// The whole document.
    var text: String {
        var out = ""
        write(into: &out, indent: 0)
        out += "\n"
        return out
    }

    /// Xcode's key order: case-insensitive, then by bytes for keys that differ only in case.
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        let la = a.lowercased(), lb = b.lowercased()
        return la != lb ? Array(la.utf8).lexicographicallyPrecedes(Array(lb.utf8)) : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .string(let s): Self.quote(s, into: &out)
        case .integer(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            Self.container(items.map { (nil, $0) }, open: "[", close: "]", indent: indent, into: &out)
        case .object(let entries):
            Self.container(entries.sorted { Self.keyOrder($0.0, $1.0) }.map { (Optional($0.0), $0.1) },
                           open: "{", close: "}", indent: indent, into: &out)
        }
    }

    private static func container(_ items: [(String?, XcodeJSON)], open: String, close: String, indent: Int, into out: inout String) {
        let inner = String(repeating: " ", count: indent + 2)
        out += open + "\n"
        if items.isEmpty { out += "\n" }
        for (index, (key, value)) in items.enumerated() {
            out += inner
            if let key {
                quote(key, into: &out)
                out += " : "
            }
            value.write(into: &out, indent: indent + 2)
            out += index == items.count - 1 ? "\n" : ",\n"
        }
        out += String(repeating: " ", count: indent) + close
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else, `/` and
    /// non-ASCII letters included, as it is.
    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
