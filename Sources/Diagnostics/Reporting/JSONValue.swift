/// A JSON document built in code and written with keys sorted and two-space indentation, so
/// every JSON output (reports, `iap rules --format json`, baselines) is byte-stable. Faster than
/// `JSONEncoder` on a hundred thousand findings, and exact about what it writes.
public indirect enum JSONValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members; written sorted by key whatever the order given.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// Pretty-printed, with a trailing newline.
    public func rendered() -> String {
        var out = ""
        out.reserveCapacity(1024)
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// On one line, no spaces (GitLab and other tools read either).
    public func compact() -> String {
        var out = ""
        writeCompact(to: &out)
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .string(let s): JSONValue.quote(s, into: &out)
        case .int(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                item.write(to: &out, indent: indent + 2)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            let sorted = members.sorted { $0.0 < $1.0 }
            for (i, (key, value)) in sorted.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSONValue.quote(key, into: &out)
                out += ": "
                value.write(to: &out, indent: indent + 2)
                out += i == sorted.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    private func writeCompact(to out: inout String) {
        switch self {
        case .string(let s): JSONValue.quote(s, into: &out)
        case .int(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeCompact(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
                if i > 0 { out += "," }
                JSONValue.quote(key, into: &out)
                out += ":"
                value.writeCompact(to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; everything
    /// else (non-ASCII included) written as is, in UTF-8.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        var plain = true
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C { plain = false; break }
        if plain {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
