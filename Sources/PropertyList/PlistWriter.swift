import Diagnostics
import Foundation
import Support

/// Writes property lists in the XML form Apple's tools write: XML header, DOCTYPE, tab
/// indentation, `<array/>` and `<dict/>` for empty containers, `&amp; &lt; &gt;` escaped.
public struct PlistWriter: Sendable {
    public init() {}

    /// The whole document as UTF-8 text, ending with a newline.
    public func write(_ root: PlistNode) -> String { write(root.value) }

    /// The whole document as UTF-8 text, ending with a newline.
    public func write(_ value: PlistValue) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        append(value, indent: 0, to: &out)
        out += "</plist>\n"
        return out
    }

    private func append(_ value: PlistValue, indent: Int, to out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .string(let s): out += pad + "<string>" + Escape.plistXMLText(s) + "</string>\n"
        case .integer(let i): out += pad + "<integer>" + i.description + "</integer>\n"
        case .real(let r): out += pad + "<real>" + r.text + "</real>\n"
        case .bool(let b): out += pad + (b ? "<true/>\n" : "<false/>\n")
        case .date(let d): out += pad + "<date>" + ISO8601.format(d) + "</date>\n"
        case .data(let d):
            out += pad + "<data>\n"
            let encoded = d.base64EncodedString()
            var index = encoded.startIndex
            // Apple wraps base64 at 76 columns minus the indentation it adds.
            let width = max(76 - 8 * indent, 16)
            while index < encoded.endIndex {
                let end = encoded.index(index, offsetBy: width, limitedBy: encoded.endIndex) ?? encoded.endIndex
                out += pad + encoded[index..<end] + "\n"
                index = end
            }
            out += pad + "</data>\n"
        case .array(let items):
            if items.isEmpty { out += pad + "<array/>\n"; return }
            out += pad + "<array>\n"
            for item in items { append(item.value, indent: indent + 1, to: &out) }
            out += pad + "</array>\n"
        case .dictionary(let dict):
            if dict.isEmpty { out += pad + "<dict/>\n"; return }
            out += pad + "<dict>\n"
            for entry in dict.entries {
                out += pad + "\t<key>" + Escape.plistXMLText(entry.key) + "</key>\n"
                append(entry.value.value, indent: indent + 1, to: &out)
            }
            out += pad + "</dict>\n"
        }
    }
}
