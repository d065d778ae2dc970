/// A value of an OpenStep-format property list, the format of Xcode's `project.pbxproj`:
/// `{ key = value; }`, `( a, b, )`, quoted or bare strings, `/* */` and `//` comments.
/// Strings keep the line they start on.
indirect enum OpenStepValue: Sendable {
    case string(String, line: Int)
    case array([OpenStepValue])
    case dictionary([String: OpenStepValue])

    var string: String? { if case .string(let s, _) = self { s } else { nil } }
    var line: Int { if case .string(_, let line) = self { line } else { 0 } }
    var array: [OpenStepValue]? { if case .array(let a) = self { a } else { nil } }
    var dictionary: [String: OpenStepValue]? { if case .dictionary(let d) = self { d } else { nil } }

    subscript(key: String) -> OpenStepValue? { dictionary?[key] }
}

/// A small reader of OpenStep property lists. Malformed input is `nil`, never a crash: a project
/// file we cannot read only means the bundle ID is not learnt from it.
struct OpenStepParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) -> OpenStepValue? {
        var parser = OpenStepParser(bytes)
        return parser.value()
    }

    private mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x0A { line += 1; index += 1 } else if c == 0x20 || c == 0x09 || c == 0x0D { index += 1 } else if c == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2A {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                index += 2
            } else if c == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2F {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func value() -> OpenStepValue? {
        skipSpaceAndComments()
        guard index < bytes.count, depth < 64 else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            depth += 1
            defer { depth -= 1 }
            var dict: [String: OpenStepValue] = [:]
            while true {
                skipSpaceAndComments()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .dictionary(dict) }
                guard let key = value()?.string else { return nil }
                skipSpaceAndComments()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
                index += 1
                guard let item = value() else { return nil }
                dict[key] = item
                skipSpaceAndComments()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return nil }
                index += 1
            }
        case UInt8(ascii: "("):
            index += 1
            depth += 1
            defer { depth -= 1 }
            var items: [OpenStepValue] = []
            while true {
                skipSpaceAndComments()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ")") { index += 1; return .array(items) }
                guard let item = value() else { return nil }
                items.append(item)
                skipSpaceAndComments()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1 } else if bytes[index] != UInt8(ascii: ")") { return nil }
            }
        case UInt8(ascii: "\""):
            let start = line
            index += 1
            var text: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                var c = bytes[index]
                // Only a newline byte in the file starts a line; an escaped `\n` (two bytes) does not.
                if c == 0x0A { line += 1 }
                if c == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    c = bytes[index]
                    switch c {
                    case UInt8(ascii: "n"): c = 0x0A
                    case UInt8(ascii: "t"): c = 0x09
                    default: if c == 0x0A { line += 1 }
                    }
                }
                text.append(c)
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            return .string(String(decoding: text, as: UTF8.self), line: start)
        default:
            let start = index
            while index < bytes.count, Self.isBare(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            return .string(String(decoding: bytes[start..<index], as: UTF8.self), line: line)
        }
    }

    private static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || [UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: ":"),
                UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "@")].contains(c) || c >= 0x80
    }
}
