/// An input value quoted in a message, bounded: a message quotes at most `maxCharacters` of a
/// value, and says when it quotes less. A 300 MB product ID once made 314 MB of output, once per
/// finding about it; every value a file or a source can hold (IDs, names, keys, literals) is
/// quoted through here.
public enum Quote {
    /// The most characters of a value a message quotes: App Store Connect's limit for a product
    /// ID, and more than any name or description it allows.
    public static let maxCharacters = 100

    /// `'value'`; past `maxCharacters`, the first of them, "…" and the length:
    /// `'com.acme.aaaa…aaa…' (314572813 characters; the first 100 shown)`.
    /// `open` and `close` are the quotes: `@"` and `"` quote an Objective-C string as written.
    public static func bounded(_ value: some StringProtocol, open: String = "'", close: String = "'") -> String {
        // Short by its bytes is short by its characters: nothing to count.
        if value.utf8.count <= maxCharacters { return "\(open)\(value)\(close)" }
        guard let cut = value.index(value.startIndex, offsetBy: maxCharacters, limitedBy: value.endIndex), cut != value.endIndex else {
            return "\(open)\(value)\(close)"
        }
        return "\(open)\(value[..<cut])…\(close) (\(characters(value)) characters; the first \(maxCharacters) shown)"
    }

    /// Text someone else wrote — a server's answer, a snapshot's name — quoted as `bounded` does,
    /// with every control character (U+0000–U+001F, U+007F–U+009F) written as `\u{1B}`, so an
    /// escape sequence or a bell reaches no terminal and a log line stays one line.
    public static func escaped(_ value: some StringProtocol, open: String = "'", close: String = "'") -> String {
        // Most values are short and hold no control character: quoted as they are, without a
        // pass scalar by scalar. (0xC2 leads U+0080–U+00BF, the C1 controls among them.)
        if value.utf8.count <= maxCharacters, !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) {
            return "\(open)\(value)\(close)"
        }
        var kept = Substring(value)
        var cut = false
        if value.utf8.count > maxCharacters, let end = value.index(value.startIndex, offsetBy: maxCharacters, limitedBy: value.endIndex),
           end != value.endIndex {
            kept = Substring(value[..<end])
            cut = true
        }
        var out = open
        for scalar in kept.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return cut ? "\(out)…\(close) (\(characters(value)) characters; the first \(maxCharacters) shown)" : out + close
    }

    /// The characters of a long value: its bytes when it is ASCII, which most are (counting
    /// grapheme clusters is many times slower, and a value may be hundreds of megabytes).
    static func characters(_ value: some StringProtocol) -> Int {
        var text = String(value)
        let ascii = text.withUTF8 { bytes -> Bool in
            // Eight bytes at a time: a generic pass over a 300 MB value took 12 s.
            guard let base = bytes.baseAddress else { return true }
            var i = 0
            var high: UInt64 = 0
            while i + 8 <= bytes.count {
                high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                i += 8
            }
            while i < bytes.count { high |= UInt64(bytes[i]); i += 1 }
            return high & 0x8080_8080_8080_8080 == 0
        }
        return ascii ? text.utf8.count : text.count
    }
}
