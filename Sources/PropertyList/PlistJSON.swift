import Diagnostics
import Foundation
import Support

/// Renders a plist value as JSON: dicts as objects in file order, integers exact, reals as numbers
/// (or "nan", "inf", "-inf"), dates as ISO 8601 strings, data as base64 strings.
public struct PlistJSONWriter: Sendable {
    public var indent: String

    public init(indent: String = "  ") {
        self.indent = indent
    }

    /// The JSON text with a trailing newline.
    public func write(_ value: PlistValue) -> String {
        var out = ""
        append(value, depth: 0, to: &out)
        out += "\n"
        return out
    }

    private func append(_ value: PlistValue, depth: Int, to out: inout String) {
        switch value {
        case .string(let s): out += Escape.json(s)
        case .integer(let i): out += i.description
        case .real(let r):
            let d = r.doubleValue
            if d.isNaN { out += "\"nan\"" } else if d.isInfinite { out += d < 0 ? "\"-inf\"" : "\"inf\"" } else {
                out += d.description
            }
        case .bool(let b): out += b ? "true" : "false"
        case .date(let d): out += "\"" + ISO8601.format(d) + "\""
        case .data(let d): out += "\"" + d.base64EncodedString() + "\""
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += String(repeating: indent, count: depth + 1)
                append(item.value, depth: depth + 1, to: &out)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: indent, count: depth) + "]"
        case .dictionary(let dict):
            if dict.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, entry) in dict.entries.enumerated() {
                out += String(repeating: indent, count: depth + 1) + Escape.json(entry.key) + ": "
                append(entry.value.value, depth: depth + 1, to: &out)
                out += i == dict.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: indent, count: depth) + "}"
        }
    }
}
