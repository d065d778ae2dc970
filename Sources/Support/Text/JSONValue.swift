/// A small JSON document built in code (`iap rules --format json`, baselines, sales and price
/// reports), written through `JSONWriter` with keys sorted and two-space indentation, so it is
/// byte-stable. Reports on many findings stream straight into a `JSONWriter` instead.
public indirect enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members; written sorted by key whatever the order given.
    case object([(String, JSONValue)])

    /// Pretty-printed, with a trailing newline.
    public func rendered() -> String {
        var json = JSONWriter(capacity: 1024)
        write(to: &json)
        return json.finish()
    }

    /// Writes the value at the writer's position.
    public func write(to json: inout JSONWriter) {
        switch self {
        case .string(let s): json.string(s)
        case .int(let n): json.int(n)
        case .bool(let b): json.bool(b)
        case .null: json.null()
        case .array(let items):
            json.openArray()
            for item in items { item.write(to: &json) }
            json.closeArray()
        case .object(let members):
            json.openObject()
            for (key, value) in members.sorted(by: { $0.0 < $1.0 }) {
                json.key(key)
                value.write(to: &json)
            }
            json.closeObject()
        }
    }
}
