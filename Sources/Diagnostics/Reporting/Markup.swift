/// Escaping for the XML and Markdown reports, byte by byte (`OutputBuffer.write(_:escaping:)`).
public enum Markup {
    /// Text for a Markdown table cell, escaped as the Markdown reporter escapes it
    /// (`markdownEscape`); the Markdown sales and price reports use it too.
    public static func markdownCell(_ text: String) -> String {
        var buffer = OutputBuffer(capacity: text.utf8.count + 8)
        buffer.write(text, escaping: markdownEscape)
        return buffer.string
    }

    /// The XML escapes by byte: `&`, `<`, `>`, quotes, line breaks and tabs as references;
    /// other control characters (which XML 1.0 forbids) dropped.
    static func xmlEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x22: "&quot;"
        case 0x27: "&apos;"
        case 0x0A: "&#10;"
        case 0x0D: "&#13;"
        case 0x09: "&#9;"
        case 0..<0x20: ""
        default: nil
        }
    }

    /// Markdown table-cell escapes by byte: pipes, backslashes, code and emphasis marks escaped,
    /// HTML-significant characters as entities (a message cannot inject markup), line breaks as `<br>`.
    static func markdownEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x7C: "\\|"
        case 0x5C: "\\\\"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x26: "&amp;"
        case 0x60: "\\`"
        case 0x2A: "\\*"
        case 0x5F: "\\_"
        case 0x0A: "<br>"
        case 0x0D: ""
        default: nil
        }
    }
}
