/// The one way the tool writes JSON: values streamed as UTF-8 bytes into an `OutputBuffer`, laid
/// out by a `Style` (the reports' pretty `"key": value`, compact, Xcode's `"key" : value`, …), so a
/// hundred thousand findings are written without a tree of values or a String per value.
///
/// The caller writes each object's keys in the order the format wants (sorted, for every format
/// the tool has); a value after `key(_:)` belongs to that key, a value in an array is the array's
/// next element.
public struct JSONWriter: Sendable {
    /// How the document is laid out and how strings are escaped.
    public struct Style: Sendable {
        /// Between a key and its value.
        public var colon: StaticString
        /// Between the items of a container written on one line.
        public var comma: StaticString
        /// Containers opened at a depth below this put each item on its own line, indented two
        /// spaces a level; deeper ones are written on one line. 0 writes the document on one line.
        public var lineDepth: Int
        /// Whether an empty container written on lines is its brackets with a blank line between
        /// (Xcode's and JSONEncoder's layout) rather than `[]` / `{}`.
        public var emptyOnTwoLines: Bool
        /// U+0008 and U+000C as `\b` and `\f` (JSONEncoder) rather than `\u0008`, `\u000c`.
        public var shortBackspaceAndFormFeed: Bool

        public init(colon: StaticString, comma: StaticString, lineDepth: Int, emptyOnTwoLines: Bool,
                    shortBackspaceAndFormFeed: Bool = false) {
            self.colon = colon
            self.comma = comma
            self.lineDepth = lineDepth
            self.emptyOnTwoLines = emptyOnTwoLines
            self.shortBackspaceAndFormFeed = shortBackspaceAndFormFeed
        }

        /// The reports' layout: `"key": value`, two-space indent, empty containers as `[]`, `{}`.
        public static let pretty = Style(colon: ": ", comma: ", ", lineDepth: .max, emptyOnTwoLines: false)
        /// One line, no spaces: `{"key":[1,2]}`.
        public static let compact = Style(colon: ":", comma: ",", lineDepth: 0, emptyOnTwoLines: false)
        /// Xcode's layout for StoreKit configuration files: `"key" : value`, two-space indent, an
        /// empty container as `[`, a blank line, `]`.
        public static let xcode = Style(colon: " : ", comma: ", ", lineDepth: .max, emptyOnTwoLines: true)
        /// Foundation's `JSONEncoder` with `.prettyPrinted` (on Linux, the same layout as `xcode`)
        /// and `.withoutEscapingSlashes`: `\b` and `\f` short.
        public static let foundation = Style(colon: " : ", comma: ", ", lineDepth: .max, emptyOnTwoLines: true,
                                             shortBackspaceAndFormFeed: true)
    }

    /// The document so far.
    public var out: OutputBuffer
    public let style: Style
    /// Per open container: whether it has an item yet.
    @usableFromInline var hasItem: [Bool] = []
    /// A key was written and its value has not been.
    @usableFromInline var afterKey = false

    public init(capacity: Int, style: Style = .pretty) {
        out = OutputBuffer(capacity: capacity)
        self.style = style
        hasItem.reserveCapacity(16)
    }

    // MARK: Keys

    /// `"key": ` (in the style's form) as the next member of the open object.
    @inlinable
    public mutating func key(_ name: String) {
        item()
        Escape.json(name, into: &out.bytes, shortBackspaceAndFormFeed: style.shortBackspaceAndFormFeed)
        out.raw(style.colon)
        afterKey = true
    }

    /// `"key": ` for a key known when compiling, which needs no escaping; written without making
    /// a String.
    @inlinable
    public mutating func key(_ name: StaticString) {
        item()
        out.byte(0x22)
        out.raw(name)
        out.byte(0x22)
        out.raw(style.colon)
        afterKey = true
    }

    // MARK: Values

    @inlinable
    public mutating func string(_ text: String) {
        value()
        Escape.json(text, into: &out.bytes, shortBackspaceAndFormFeed: style.shortBackspaceAndFormFeed)
    }

    @inlinable
    public mutating func int(_ number: Int) { value(); out.write(number) }

    public mutating func bool(_ flag: Bool) { value(); out.raw(flag ? "true" : "false") }

    public mutating func null() { value(); out.raw("null") }

    /// A number already in JSON's form (a Double's or a UInt64's description), written as it is.
    public mutating func number(_ text: String) { value(); out.write(text) }

    // MARK: Containers

    @inlinable
    public mutating func openObject() { open(0x7B) }
    @inlinable
    public mutating func closeObject() { close(0x7D) }
    @inlinable
    public mutating func openArray() { open(0x5B) }
    @inlinable
    public mutating func closeArray() { close(0x5D) }

    // MARK: The document

    /// The document with a trailing newline.
    public mutating func finish() -> String {
        out.byte(0x0A)
        return out.string
    }

    // MARK: Layout

    @inlinable
    mutating func open(_ bracket: UInt8) {
        value()
        out.byte(bracket)
        hasItem.append(false)
    }

    @inlinable
    mutating func close(_ bracket: UInt8) {
        let had = hasItem.removeLast()
        let depth = hasItem.count
        if depth < style.lineDepth {
            if had {
                out.byte(0x0A)
                out.spaces(depth * 2)
            } else if style.emptyOnTwoLines {
                out.byte(0x0A)
                out.byte(0x0A)
                out.spaces(depth * 2)
            }
        }
        out.byte(bracket)
    }

    /// Before a value: nothing after a key; in an array, the separator and indent of its next item.
    @inlinable
    mutating func value() {
        if afterKey { afterKey = false; return }
        if !hasItem.isEmpty { item() }
    }

    /// The separator before the open container's next item, and its line and indent.
    @inlinable
    mutating func item() {
        let depth = hasItem.count
        let had = hasItem[depth - 1]
        if depth - 1 < style.lineDepth {
            if had { out.byte(0x2C) }
            out.byte(0x0A)
            out.spaces(depth * 2)
        } else if had {
            out.raw(style.comma)
        }
        if !had { hasItem[depth - 1] = true }
    }
}
