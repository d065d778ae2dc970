import Foundation

/// Where a value starts in its file: 1-based line and column of its opening tag.
public struct PlistPosition: Sendable, Hashable, CustomStringConvertible {
    public var line: UInt32
    public var column: UInt32

    public init(line: Int, column: Int) {
        self.line = UInt32(clamping: line)
        self.column = UInt32(clamping: column)
    }

    public static let unknown = PlistPosition(line: 0, column: 0)

    public var description: String { "\(line):\(column)" }
}

/// A value read from a property list, with the position of its opening tag.
///
/// Equality compares values only: two nodes read from differently indented files are equal.
public struct PlistNode: Sendable, Equatable, CustomStringConvertible {
    public var value: PlistValue
    public var position: PlistPosition

    public init(_ value: PlistValue, at position: PlistPosition = .unknown) {
        self.value = value
        self.position = position
    }

    public static func == (lhs: PlistNode, rhs: PlistNode) -> Bool { lhs.value == rhs.value }

    public var description: String { "\(value)@\(position)" }
}

/// An integer as plists hold it: the whole Int64 range, and UInt64 values above Int64.max.
public enum PlistInteger: Sendable, Hashable, CustomStringConvertible {
    case signed(Int64)
    case unsigned(UInt64)

    public init(_ value: Int64) { self = .signed(value) }

    /// The value as Int64 when it fits.
    public var int64Value: Int64? {
        switch self {
        case .signed(let v): v
        case .unsigned(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        }
    }

    public var description: String {
        switch self {
        case .signed(let v): String(v)
        case .unsigned(let v): String(v)
        }
    }
}

/// A `<real>`: its text as written (so a price can become an exact `Decimal`) and its `Double`.
public struct PlistReal: Sendable, Hashable, CustomStringConvertible {
    /// The text between the tags, trimmed; canonical text when built from a `Double`.
    public let text: String
    public let doubleValue: Double

    init(text: String, doubleValue: Double) {
        self.text = text
        self.doubleValue = doubleValue
    }

    /// A real from a number, written the way Apple writes it (`nan`, `+infinity`, `-infinity`).
    public init(_ value: Double) {
        self.doubleValue = value
        if value.isNaN {
            text = "nan"
        } else if value.isInfinite {
            text = value < 0 ? "-infinity" : "+infinity"
        } else {
            text = value.description
        }
    }

    /// Equal when the numbers are equal (NaN equals NaN here, so round-trips compare equal).
    public static func == (lhs: PlistReal, rhs: PlistReal) -> Bool {
        if lhs.doubleValue.isNaN && rhs.doubleValue.isNaN { return true }
        return lhs.doubleValue == rhs.doubleValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(doubleValue.isNaN ? Double.nan.bitPattern : doubleValue.bitPattern)
    }

    public var description: String { text }
}

/// A `<dict>`: entries in file order, each key with its own position.
public struct PlistDictionary: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var keyPosition: PlistPosition
        public var value: PlistNode

        public init(key: String, keyPosition: PlistPosition = .unknown, value: PlistNode) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    /// The entry for a key (keys are unique: the reader rejects repeated keys).
    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// The value for a key.
    public subscript(key: String) -> PlistNode? { entry(key)?.value }

    /// The first entry whose key is one of `keys`, compared exactly.
    public func entry(anyOf keys: [String]) -> Entry? {
        for key in keys { if let found = entry(key) { return found } }
        return nil
    }
}

/// A property-list value: the whole Apple XML plist data model.
public enum PlistValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case integer(PlistInteger)
    case real(PlistReal)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PlistNode])
    case dictionary(PlistDictionary)

    /// The plist element name of this value: `string`, `dict`, …
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var arrayValue: [PlistNode]? { if case .array(let a) = self { a } else { nil } }
    public var dictionaryValue: PlistDictionary? { if case .dictionary(let d) = self { d } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var integerValue: PlistInteger? { if case .integer(let i) = self { i } else { nil } }

    public var description: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .integer(let i): i.description
        case .real(let r): r.text
        case .bool(let b): b.description
        case .date(let d): ISO8601.format(d)
        case .data(let d): "<\(d.count) bytes>"
        case .array(let a): "[" + a.map(\.value.description).joined(separator: ", ") + "]"
        case .dictionary(let d): "{" + d.entries.map { "\($0.key): \($0.value.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A whole property list read from a file or bytes.
public struct PlistDocument: Sendable {
    /// The name errors use for this document (usually the path as the user gave it).
    public var name: String
    public var root: PlistNode

    public init(name: String, root: PlistNode) {
        self.name = name
        self.root = root
    }
}
