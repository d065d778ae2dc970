/// The bytes of a report or document as it is written: appends and escapes work on UTF-8 bytes
/// (every character any format escapes is ASCII), so a hundred thousand findings render without
/// building strings per character.
public struct OutputBuffer: Sendable {
    public var bytes: [UInt8] = []

    @inlinable
    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func truncate(to count: Int) { bytes.removeSubrange(count...) }

    @inlinable
    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// A literal, appended without making a String.
    @inlinable
    public mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    @inlinable
    public mutating func write(_ number: Int) {
        if number < 0 { bytes.append(0x2D) }
        var n = number.magnitude
        if n < 10 { bytes.append(UInt8(n) + 0x30); return }
        let start = bytes.count
        while n > 0 { bytes.append(UInt8(n % 10) + 0x30); n /= 10 }
        bytes[start...].reverse()
    }

    @inlinable
    public mutating func spaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: count))
    }

    /// Writes `text` with each byte `escape` maps to a replacement replaced (`Escape.append`).
    public mutating func write(_ text: String, escaping escape: Escape.ByteTable) {
        Escape.append(text, to: &bytes, escape)
    }

    /// XML text or attribute value (`Escape.xml`).
    public mutating func xml(_ text: String) {
        write(text, escaping: Escape.xmlTable)
    }
}
