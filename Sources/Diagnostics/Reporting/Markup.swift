/// Escaping for the XML and Markdown reports.
enum Markup {
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

    /// Markdown table-cell escapes by byte (see `markdownCell`).
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

    /// Text for an XML attribute or element: `&`, `<`, `>`, quotes escaped; control characters
    /// XML 1.0 forbids are dropped, and line breaks in attributes kept as character references.
    static func xml(_ text: String) -> String {
        var plain = true
        for byte in text.utf8 where byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            plain = false
            break
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text for a Markdown table cell: pipes and backslashes escaped, line breaks as `<br>`,
    /// and HTML-significant characters escaped so a message cannot inject markup.
    static func markdownCell(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for ch in text {
            switch ch {
            case "|": out += "\\|"
            case "\\": out += "\\\\"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "`": out += "\\`"
            case "*": out += "\\*"
            case "_": out += "\\_"
            case "\n", "\r\n": out += "<br>"
            case "\r": out += "<br>"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Text inside a Markdown code span: backticks cannot close it early.
    static func codeSpan(_ text: String) -> String {
        text.contains("`") ? "`` " + text.replacingOccurrences(of: "|", with: "\\|") + " ``" : "`" + text.replacingOccurrences(of: "|", with: "\\|") + "`"
    }
}
