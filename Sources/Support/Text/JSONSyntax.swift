/// Finds the first syntax error in JSON text with its line and column, which `JSONDecoder`
/// does not report on Linux, and what `JSONDecoder` lets pass: a key repeated in one object (it
/// keeps one of the values silently), invalid UTF-8, and numbers beyond a `Double`.
public struct JSONSyntax {
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        public var line: Int
        public var column: Int
        /// The byte where the error is: the text's length when it ends too early (cut short).
        public var offset: Int
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private var integersIn64Bits = false

    /// The first error, or nil when the text is valid JSON. With `integersIn64Bits`, an integer
    /// (a number without fraction or exponent) that an `Int64` cannot hold is one: `JSONDecoder`
    /// refuses the whole text for it, without saying where.
    public static func firstError(in bytes: [UInt8], integersIn64Bits: Bool = false) -> Failure? {
        var scanner = JSONSyntax(bytes: bytes)
        scanner.integersIn64Bits = integersIn64Bits
        do throws(Failure) {
            scanner.skipWhitespace()
            try scanner.value()
            scanner.skipWhitespace()
            if scanner.index < bytes.count { throw scanner.failure("unexpected text after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var column = 1
        for b in bytes[0..<min(index, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return Failure(message: message, line: line, column: column, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func expect(_ c: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard current == c else { throw failure("expected \(what)\(found)") }
        index += 1
    }

    private var found: String {
        guard let c = current else { return " but the file ends" }
        return ", found '\(String(decoding: [c], as: UTF8.self))'"
    }

    private mutating func value() throws(Failure) {
        skipWhitespace()
        guard let c = current else { throw failure("expected a value but the file ends") }
        switch c {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), 0x30...0x39: try number()
        default: throw failure("expected a value\(found)")
        }
    }

    private mutating func object() throws(Failure) {
        var keys: Set<ArraySlice<UInt8>> = []
        index += 1
        depth += 1
        guard depth < 512 else { index -= 1; throw failure("nesting deeper than 511 levels") }
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; depth -= 1; return }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key in quotes\(found)") }
            let keyStart = index
            try string()
            let key = bytes[keyStart..<index]
            if keys.contains(key) {
                index = keyStart
                throw failure("key \(String(decoding: key, as: UTF8.self)) appears twice in one object; "
                              + "JSON readers keep only one of the values")
            }
            keys.insert(key)
            try expect(UInt8(ascii: ":"), "':' after the key")
            try value()
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            if current == UInt8(ascii: "}") { index += 1; depth -= 1; return }
            throw failure("expected ',' or '}'\(found)")
        }
    }

    private mutating func array() throws(Failure) {
        index += 1
        depth += 1
        guard depth < 512 else { index -= 1; throw failure("nesting deeper than 511 levels") }
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; depth -= 1; return }
        while true {
            try value()
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            if current == UInt8(ascii: "]") { index += 1; depth -= 1; return }
            throw failure("expected ',' or ']'\(found)")
        }
    }

    private mutating func string() throws(Failure) {
        index += 1
        while let c = current {
            index += 1
            if c == UInt8(ascii: "\"") { return }
            if c == UInt8(ascii: "\\") { index += 1 }
            if c < 0x20 { index -= 1; throw failure("control character in a string") }
            if c >= 0x80 { index -= 1; try scalar() }
        }
        throw failure("unterminated string")
    }

    /// One UTF-8 sequence of 2 to 4 bytes: no overlong forms, no surrogates, nothing past U+10FFFF.
    private mutating func scalar() throws(Failure) {
        let c = bytes[index]
        let (count, low, high): (Int, UInt8, UInt8) = switch c {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xE1...0xEF: (3, 0x80, 0xBF)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: (0, 0, 0)
        }
        guard count > 0, index + count <= bytes.count, (low...high).contains(bytes[index + 1]),
              bytes[(index + 2)..<(index + count)].allSatisfy({ $0 & 0xC0 == 0x80 }) else {
            throw failure("invalid UTF-8 in a string (byte 0x\(String(c, radix: 16, uppercase: true)))")
        }
        index += count
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for expected in word.utf8 {
            guard current == expected else { throw failure("expected '\(word)'\(found)") }
            index += 1
        }
    }

    private mutating func number() throws(Failure) {
        let start = index
        while let c = current, (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else {
            index = start
            throw failure("'\(text)' is not a number")
        }
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        if !value.isFinite {
            index = start
            throw failure("number \(shown) is out of range")
        }
        if integersIn64Bits, !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
           Int64(text) == nil {
            index = start
            throw failure("the integer \(shown) does not fit in 64 bits")
        }
    }
}
