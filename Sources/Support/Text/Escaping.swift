import Foundation

/// Every text escape the tool writes, in one place: JSON strings, XML, HTML, Markdown table cells,
/// CSV fields, GitHub workflow commands, shell words, and the one-line and printable forms of
/// text quoted in messages. Where two outputs escape differently (an XML report and a property
/// list, say), each form is its own function, named for what it is for; none is shared by accident.
///
/// The byte forms work on UTF-8 bytes (every character any format escapes is ASCII), so a report
/// of a hundred thousand findings builds no string per character.
public enum Escape {
    /// A byte's replacement, or nil to keep the byte.
    public typealias ByteTable = (UInt8) -> StaticString?

    /// `text` with each byte `table` maps to a replacement replaced.
    public static func bytes(_ text: String, _ table: ByteTable) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        append(text, to: &out, table)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` to `out` with each byte `table` maps to a replacement replaced.
    public static func append(_ text: String, to out: inout [UInt8], _ table: ByteTable) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (i, byte) in utf8.enumerated() {
                guard let replacement = table(byte) else { continue }
                out.append(contentsOf: utf8[start..<i])
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                start = i + 1
            }
            out.append(contentsOf: utf8[start...])
        }
    }

    // MARK: JSON

    /// A JSON string literal, quotes included: `"` and `\` escaped, LF, CR and tab as `\n`, `\r`,
    /// `\t`, other control characters as `\u00xx` (lowercase hex); everything else, `/` and
    /// non-ASCII included, as it is.
    public static func json(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        json(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON string literal of `text` (`json(_:)`) to `out`. With
    /// `shortBackspaceAndFormFeed`, U+0008 and U+000C are written `\b` and `\f`, as Foundation's
    /// `JSONEncoder` writes them (what `iap list --format json` always printed).
    public static func json(_ text: String, into out: inout [UInt8], shortBackspaceAndFormFeed: Bool = false) {
        out.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: utf8[start..<i])
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x08 where shortBackspaceAndFormFeed: out.append(contentsOf: [0x5C, 0x62])
                case 0x0C where shortBackspaceAndFormFeed: out.append(contentsOf: [0x5C, 0x66])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
                start = i + 1
            }
            out.append(contentsOf: utf8[start...])
        }
        out.append(0x22)
    }

    // MARK: XML and HTML

    /// XML text or attribute value, as the XML reports (Checkstyle, JUnit) write it: `&`, `<`, `>`,
    /// `"`, `'` as `&amp; &lt; &gt; &quot; &apos;`, LF, CR and tab as `&#10; &#13; &#9;`; other
    /// control characters (which XML 1.0 forbids) dropped.
    public static func xml(_ text: String) -> String { bytes(text, xmlTable) }

    /// `xml(_:)` by byte.
    public static func xmlTable(_ byte: UInt8) -> StaticString? {
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

    /// XML element content as Apple's property-list writer escapes it: only `&`, `<` and `>`;
    /// quotes, line breaks and every other character as they are.
    public static func plistXMLText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else { return text }
        return bytes(text, plistXMLTable)
    }

    /// `plistXMLText(_:)` by byte.
    public static func plistXMLTable(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        default: nil
        }
    }

    /// HTML (and inline SVG) text or attribute value: `&`, `<`, `>`, `"`, `'` as
    /// `&amp; &lt; &gt; &quot; &#39;`; LF and tab kept; other control characters, CR included,
    /// dropped.
    public static func html(_ text: String) -> String { bytes(text, htmlTable) }

    /// `html(_:)` by byte.
    public static func htmlTable(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x22: "&quot;"
        case 0x27: "&#39;"
        case 0x0A, 0x09: nil
        case 0..<0x20: ""
        default: nil
        }
    }

    // MARK: Markdown

    /// Text for a Markdown table cell: pipes, backslashes, code and emphasis marks escaped,
    /// HTML-significant characters as entities (a message cannot inject markup), LF as `<br>`, CR
    /// dropped.
    public static func markdownCell(_ text: String) -> String { bytes(text, markdownCellTable) }

    /// `markdownCell(_:)` by byte.
    public static func markdownCellTable(_ byte: UInt8) -> StaticString? {
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

    /// Markdown text outside a table (a heading, a list item, a paragraph): the table-cell escapes,
    /// then each `<br>` as a space. Foundation's search: a `<br>` a combining mark follows is
    /// left as it is.
    public static func markdownInline(_ text: String) -> String {
        markdownCell(text).replacingOccurrences(of: "<br>", with: " ")
    }

    /// Text inside a Markdown code span in a table cell: only `|` escaped (`\|`), so the span
    /// cannot end the cell; everything else, backslashes included, as it is.
    public static func markdownCodeSpanTable(_ byte: UInt8) -> StaticString? {
        byte == 0x7C ? "\\|" : nil
    }

    // MARK: CSV

    /// A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF, with
    /// quotes doubled; otherwise as it is.
    public static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        // Foundation's search, not a byte table: a quote a combining mark follows is one
        // character with it, and is left single (as this field always wrote it).
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: GitHub workflow commands

    /// A workflow command's message, as GitHub's toolkit escapes it: `%`, CR and LF as `%25`,
    /// `%0D`, `%0A`.
    public static func githubData(_ text: String) -> String { bytes(text, githubDataTable) }

    /// `githubData(_:)` by byte.
    public static func githubDataTable(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x25: "%25"
        case 0x0D: "%0D"
        case 0x0A: "%0A"
        default: nil
        }
    }

    /// A workflow command's property value: the message escapes, and also `:` and `,` as `%3A`
    /// and `%2C`.
    public static func githubProperty(_ text: String) -> String { bytes(text, githubPropertyTable) }

    /// `githubProperty(_:)` by byte.
    public static func githubPropertyTable(_ byte: UInt8) -> StaticString? {
        switch byte {
        case 0x3A: "%3A"
        case 0x2C: "%2C"
        default: githubDataTable(byte)
        }
    }

    // MARK: Text output

    /// One line of text: CR and LF written as `\r` and `\n` (the text reporter, whose findings
    /// must each stay one line for editors and log parsers).
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Text quoted in a message, with every control character (Unicode category Cc: U+0000–U+001F
    /// and U+007F–U+009F) and the replacement character U+FFFD shown as `?`; other characters,
    /// non-ASCII ones included, as they are.
    public static func printable(_ text: some StringProtocol) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" ? "?" : $0 }))
    }

    /// Text quoted in a message as printable ASCII: every character outside U+0020–U+007E
    /// (control characters and all non-ASCII ones) shown as `?`, one per Unicode scalar.
    public static func printableASCII(_ text: some StringProtocol) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }))
    }

    // MARK: Shell

    /// An argument for a POSIX shell, so a command runs as printed: as it is when every character
    /// is a letter, a digit or one of `safe`; otherwise in single quotes, a `'` written `'\''`.
    /// `quoteEmpty`: whether an empty argument is written `''` (a hint's argument) or as nothing.
    public static func shellWord(_ text: String, safe: String, quoteEmpty: Bool) -> String {
        let plain = (!quoteEmpty || !text.isEmpty) && text.allSatisfy { $0.isLetter || $0.isNumber || safe.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The characters a shell word may hold unquoted besides letters and digits.
    static let shellSafe = "/._-+@=:,"

    /// A path or value in a command a message prints (a hint, a fix, a suggestion): every such
    /// command quotes its arguments through here, so it works when pasted into a POSIX shell.
    /// An ordinary path (`App/Store/Products.storekit`) stays as it is; one with a space, a quote,
    /// a `$`, a `*` or any other character a shell reads is single-quoted (`'Freelance
    /// Invoice/ProductIds.plist'`), a `'` written `'\''`; an empty one is `''`. A `path` that
    /// begins with `-` is written `./-…`, so the command does not read it as an option.
    public static func shellArgument(_ text: String, path: Bool = false) -> String {
        let text = path && text.hasPrefix("-") ? "./" + text : text
        return shellWord(text, safe: shellSafe, quoteEmpty: true)
    }

    /// `shellArgument` of each path, joined by spaces.
    public static func shellArguments(_ paths: [String]) -> String {
        paths.map { shellArgument($0, path: true) }.joined(separator: " ")
    }
}
