import Diagnostics
import Foundation
import Support

/// Renders a plist value as JSON: dicts as objects in file order, integers exact, reals as numbers
/// (or "nan", "inf", "-inf"), dates as ISO 8601 strings, data as base64 strings; written through
/// `JSONWriter` in its pretty style (two-space indent, `"key": value`).
public struct PlistJSONWriter: Sendable {
    public init() {}

    /// The JSON text with a trailing newline.
    public func write(_ value: PlistValue) -> String {
        var json = JSONWriter(capacity: 4096)
        append(value, to: &json)
        return json.finish()
    }

    private func append(_ value: PlistValue, to json: inout JSONWriter) {
        switch value {
        case .string(let s): json.string(s)
        case .integer(let i): json.number(i.description)
        case .real(let r):
            let d = r.doubleValue
            if d.isNaN { json.string("nan") } else if d.isInfinite { json.string(d < 0 ? "-inf" : "inf") } else {
                json.number(d.description)
            }
        case .bool(let b): json.bool(b)
        case .date(let d): json.string(ISO8601.format(d))
        case .data(let d): json.string(d.base64EncodedString())
        case .array(let items):
            json.openArray()
            for item in items { append(item.value, to: &json) }
            json.closeArray()
        case .dictionary(let dict):
            json.openObject()
            for entry in dict.entries {
                json.key(entry.key)
                append(entry.value.value, to: &json)
            }
            json.closeObject()
        }
    }
}
