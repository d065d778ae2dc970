import Support
/// The bytes of a report as it is written: appends and escapes work on UTF-8 bytes (every
/// character any format escapes is ASCII), so a hundred thousand findings render without
/// building strings per character.
struct OutputBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func truncate(to count: Int) { bytes.removeSubrange(count...) }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// A literal, appended without making a String.
    mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    mutating func write(_ number: Int) {
        if number < 0 { bytes.append(0x2D) }
        var n = number.magnitude
        if n < 10 { bytes.append(UInt8(n) + 0x30); return }
        let start = bytes.count
        while n > 0 { bytes.append(UInt8(n % 10) + 0x30); n /= 10 }
        bytes[start...].reverse()
    }

    mutating func spaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: count))
    }

    /// Writes `text` with each byte `escape` maps to a replacement replaced (`Escape.append`).
    mutating func write(_ text: String, escaping escape: Escape.ByteTable) {
        Escape.append(text, to: &bytes, escape)
    }

    /// A JSON string literal (`Escape.json`).
    mutating func jsonString(_ text: String) {
        Escape.json(text, into: &bytes)
    }

    /// XML text or attribute value (`Escape.xml`).
    mutating func xml(_ text: String) {
        write(text, escaping: Escape.xmlTable)
    }
}

/// JSON written as it goes: pretty-printed with two-space indentation (the same bytes
/// `JSONValue.rendered()` gives), or compact, on one line. Callers write each object's keys in
/// sorted order.
struct JSONStream {
    var out: OutputBuffer
    let compact: Bool
    /// Per open container: whether it has a member yet.
    private var hasMember: [Bool] = []

    init(capacity: Int, compact: Bool = false) {
        out = OutputBuffer(capacity: capacity)
        self.compact = compact
    }

    private mutating func beforeValue() {
        guard let last = hasMember.last else { return }
        if compact {
            if last { out.byte(0x2C) }
        } else if last {
            out.raw(",\n")
        } else {
            out.byte(0x0A)
        }
        hasMember[hasMember.count - 1] = true
    }

    /// `"key": ` for a key known only at run time.
    mutating func key(_ name: String) {
        beforeValue()
        if !compact { out.spaces(hasMember.count * 2) }
        out.jsonString(name)
        out.raw(compact ? ":" : ": ")
        pendingKey = true
    }

    /// A bare literal (`true`, `false`, `null`).
    mutating func literal(_ text: StaticString) { value(); out.raw(text) }

    /// `"key": ` inside an object.
    mutating func key(_ name: StaticString) {
        beforeValue()
        if !compact { out.spaces(hasMember.count * 2) }
        out.byte(0x22)
        out.raw(name)
        out.raw(compact ? "\":" : "\": ")
        pendingKey = true
    }

    private var pendingKey = false

    /// Before a value in an array (after a key nothing is needed).
    private mutating func value() {
        if pendingKey { pendingKey = false; return }
        beforeValue()
        if !compact, !hasMember.isEmpty { out.spaces(hasMember.count * 2) }
    }

    mutating func string(_ text: String) { value(); out.jsonString(text) }
    mutating func int(_ number: Int) { value(); out.write(number) }

    mutating func openObject() { value(); out.byte(0x7B); hasMember.append(false) }
    mutating func closeObject() { close(0x7D) }
    mutating func openArray() { value(); out.byte(0x5B); hasMember.append(false) }
    mutating func closeArray() { close(0x5D) }

    private mutating func close(_ bracket: UInt8) {
        let had = hasMember.removeLast()
        if had, !compact {
            out.byte(0x0A)
            out.spaces(hasMember.count * 2)
        }
        out.byte(bracket)
    }

    /// The document with its trailing newline.
    mutating func finish() -> String {
        out.byte(0x0A)
        return out.string
    }
}
