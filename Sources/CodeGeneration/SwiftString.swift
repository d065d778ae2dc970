/// Swift string literals for any text.
public enum SwiftString {
    /// A double-quoted literal: `\`, `"`, control characters, and `\(` (through the backslash)
    /// escaped; every other character kept as it is.
    public static func literal(_ text: String) -> String {
        quoted(text) { scalar in
            if scalar == "\0" { return "\\0" }
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format: break
            default: return nil
            }
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// A double-quoted literal of any C-family language: `\`, `"`, newline, return and tab
    /// escaped as they all write them; `escape` spells every other character the language needs
    /// escaped, or returns nil to keep it.
    static func quoted(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// Text safe in a `///` doc comment: one line, no control characters.
    public static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.properties.generalCategory == .lineSeparator ? " " : Character($0) })
    }
}
