import Foundation

/// Text → value conversions for the leaf elements, each failing with a message a user can act on.
enum PlistScalars {
    /// A byte as two upper-case hexadecimal digits (`0A`, `FF`).
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    static func isXMLWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    static func trimmed(_ text: String) -> Substring {
        let s = Substring(text)
        guard let first = s.utf8.firstIndex(where: { !isXMLWhitespace($0) }),
              let last = s.utf8.lastIndex(where: { !isXMLWhitespace($0) }) else { return "" }
        return s[first...last]
    }

    /// `<integer>`: decimal or `0x` hex, optional sign, surrounding whitespace allowed;
    /// -2^63 … 2^64-1, anything outside is an error rather than a silent wrap.
    static func integer(_ text: String) throws(PlistScalarError) -> PlistInteger {
        let t = trimmed(text)
        var bytes = Substring(t).utf8[...]
        guard !bytes.isEmpty else { throw .init("empty <integer>") }
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var radix: UInt64 = 10
        if bytes.count > 2, bytes.first == UInt8(ascii: "0"),
           let x = bytes.dropFirst().first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            radix = 16
            bytes = bytes.dropFirst(2)
        }
        guard !bytes.isEmpty else { throw .init("'\(t)' is not an integer") }
        var magnitude: UInt64 = 0
        for c in bytes {
            let digit: UInt64
            switch c {
            case 0x30...0x39: digit = UInt64(c - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(c - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt64(c - 0x41 + 10)
            default: throw .init("'\(t)' is not an integer")
            }
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (m2, o2) = m1.addingReportingOverflow(digit)
            if o1 || o2 { throw .init("integer '\(t)' is out of range (-9223372036854775808 to 18446744073709551615)") }
            magnitude = m2
        }
        if negative {
            if magnitude == 0 { return .signed(0) }
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw .init("integer '\(t)' is out of range (-9223372036854775808 to 18446744073709551615)")
            }
            return .signed(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .signed(Int64(magnitude)) : .unsigned(magnitude)
    }

    /// `<real>`: a decimal or exponent number, or `nan`, `inf`, `+infinity`, `-inf` (any case).
    static func real(_ text: String) throws(PlistScalarError) -> PlistReal {
        let t = String(trimmed(text))
        switch t.lowercased() {
        case "nan", "+nan", "-nan": return PlistReal(text: t, doubleValue: .nan)
        case "inf", "+inf", "infinity", "+infinity": return PlistReal(text: t, doubleValue: .infinity)
        case "-inf", "-infinity": return PlistReal(text: t, doubleValue: -.infinity)
        default: break
        }
        // Only plain decimal syntax: Double(String) would also take hex floats and "nan(...)".
        var sawDigit = false
        var index = t.utf8.startIndex
        let utf8 = t.utf8
        func at(_ i: String.UTF8View.Index) -> UInt8? { i < utf8.endIndex ? utf8[i] : nil }
        if let c = at(index), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { index = utf8.index(after: index) }
        while let c = at(index), c >= 0x30 && c <= 0x39 { sawDigit = true; index = utf8.index(after: index) }
        if let c = at(index), c == UInt8(ascii: ".") {
            index = utf8.index(after: index)
            while let c = at(index), c >= 0x30 && c <= 0x39 { sawDigit = true; index = utf8.index(after: index) }
        }
        if sawDigit, let c = at(index), c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            index = utf8.index(after: index)
            if let c = at(index), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { index = utf8.index(after: index) }
            var expDigit = false
            while let c = at(index), c >= 0x30 && c <= 0x39 { expDigit = true; index = utf8.index(after: index) }
            if !expDigit { sawDigit = false }
        }
        guard sawDigit, index == utf8.endIndex, let value = Double(t) else {
            throw .init(t.isEmpty ? "empty <real>" : "'\(t)' is not a real number")
        }
        return PlistReal(text: t, doubleValue: value)
    }

    static func date(_ text: String) throws(PlistScalarError) -> Date {
        let t = trimmed(text)
        guard let date = ISO8601.parse(t) else {
            throw .init("'\(t)' is not a plist date (expected YYYY-MM-DDTHH:MM:SSZ)")
        }
        return date
    }

    /// `<data>`: base64 with any whitespace between characters.
    static func data(_ text: String) throws(PlistScalarError) -> Data {
        var compact = [UInt8]()
        compact.reserveCapacity(text.utf8.count)
        for c in text.utf8 where !isXMLWhitespace(c) { compact.append(c) }
        guard let data = Data(base64Encoded: Data(compact)) else {
            throw .init("<data> is not valid base64")
        }
        return data
    }
}

struct PlistScalarError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
