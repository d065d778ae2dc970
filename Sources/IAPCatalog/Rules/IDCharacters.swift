/// The characters App Store Connect allows in product IDs: letters A–Z, digits, '.', '_', '-'.
public enum IDCharacters {
    /// Whether every character of `id` is one App Store Connect allows (true for "").
    public static func allAllowed(_ id: String) -> Bool {
        for a in id.utf8 {
            let ok = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x2E || a == 0x5F || a == 0x2D
            if !ok { return false }
        }
        return true
    }

    /// Not empty, only allowed characters, and no empty segment (no leading, trailing or double
    /// '.'): what `allAllowed` passes and `mayHaveEmptySegment` and `mayHoldWhitespace` do not.
    static func isPlain(_ id: String) -> Bool {
        IDKeys.withBytes(id) { bytes in
            var previous: UInt8 = 0x2E
            for a in bytes {
                let ok = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x5F || a == 0x2D
                    || (a == 0x2E && previous != 0x2E)
                if !ok { return false }
                previous = a
            }
            return previous != 0x2E
        }
    }

    /// Text that could be a product ID: not empty, and only allowed characters (no spaces, no emoji).
    public static func hasIDSyntax(_ text: String) -> Bool {
        !text.isEmpty && allAllowed(text)
    }

    /// Whether the ID is empty, starts or ends with '.', holds '..', or may hold whitespace: one pass.
    static func mayHaveEmptySegment(_ id: String) -> Bool {
        var previous: UInt8 = 0x2E
        var any = false
        for c in id.utf8 {
            if c == 0x2E && previous == 0x2E { return true }
            if c <= 0x20 || c >= 0x80 { return true }
            previous = c
            any = true
        }
        return !any || previous == 0x2E
    }

    /// Whether any byte may be whitespace: ASCII space and controls, or any non-ASCII byte.
    static func mayHoldWhitespace(_ id: String) -> Bool {
        id.utf8.contains { $0 <= 0x20 || $0 >= 0x80 }
    }

    static func isAllowed(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x2E || a == 0x5F || a == 0x2D
    }
}
