import CLibXML2
import Foundation

/// Builder state shared with the C callbacks through libxml2's user-data pointer. A struct used
/// through an unsafe pointer: no reference counting and no dynamic exclusivity checks per event.
///
/// The per-item path (`<string>` in an array) is the hot one: a million of them in a plain ID
/// list. The innermost container is a field of its own (`current`), so adding an item touches
/// one array, not an array inside the stack's; no `Frame` is copied out of the stack; element
/// names are recognised by libxml2's interned addresses; a leaf's text is moved, not copied.
struct SAXState {
    struct Frame {
        var isDictionary: Bool
        var position: PlistPosition
        var items: [PlistNode] = []
        var entries: [PlistDictionary.Entry] = []
        var pendingKey: String?
        var pendingKeyPosition = PlistPosition.unknown
        /// Built once a dict grows past a few keys, so duplicate checks stay linear overall.
        var keyIndex: [String: Int]?

        /// What `current` holds while no container is open.
        static var none: Frame { Frame(isDictionary: false, position: .unknown) }
    }

    let maxDepth: Int
    var ctxt: xmlParserCtxtPtr?
    var error: PlistError?
    /// `error != nil`, as a flag every event checks without touching the optional.
    var failed = false
    var xmlMessage: String?
    var xmlLine = 0
    var xmlColumn = 0

    /// How many containers are open.
    var depth = 0
    /// The innermost open container (when `depth > 0`).
    var current = Frame.none
    /// The open containers around `current`, outermost first (`depth - 1` of them).
    var outer: [Frame] = []
    var root: PlistNode?
    var sawPlistElement = false
    var leaf: PlistTag?
    var leafPosition = PlistPosition.unknown
    var text: [UInt8] = []
    /// The leaf's text when it arrived in one piece (the usual case): made straight from
    /// libxml2's buffer, without a copy into `text`.
    var singleChunk: String?
    var chunks = 0
    /// Depth of elements inside a leaf or an unknown element, which are errors.
    var unexpectedDepth = 0
    /// While the root is an `<array>` and every item so far a `<string>`: the items, kept as
    /// strings and positions rather than nodes (`keptStrings` says so; a plain field, not an
    /// optional, so appending to it is in place). The first item of another type turns them into
    /// nodes and the array is read as a tree from there on.
    var strings = PlistStringList(position: .unknown)
    var keptStrings = false
    /// Whether a root `<array>` of `<string>`s is kept as `strings` (`readContent`); when the
    /// caller wants the tree (`read`), items are nodes from the start.
    let keepsStrings: Bool
    /// Names libxml2 has handed over, by address, packed (`PlistTag.pack`). libxml2 interns
    /// element names in its dictionary for the parser's lifetime, so one address is always the
    /// same name: a name is packed and matched once, not once per element.
    var names = NameCache()

    init(maxDepth: Int, keepsStrings: Bool = true) {
        self.maxDepth = maxDepth
        self.keepsStrings = keepsStrings
        text.reserveCapacity(256)
    }

    /// A direct-mapped cache of element-name addresses and their packed names.
    struct NameCache {
        var addresses: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)
        var packed: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        mutating func packed(_ name: UnsafePointer<UInt8>) -> UInt64 {
            let address = UInt(bitPattern: name)
            let slot = Int(truncatingIfNeeded: (address >> 3) & 7)
            return withUnsafeMutableBytes(of: &addresses) { addresses in
                withUnsafeMutableBytes(of: &packed) { packed in
                    if addresses.load(fromByteOffset: slot * 8, as: UInt.self) == address {
                        return packed.load(fromByteOffset: slot * 8, as: UInt64.self)
                    }
                    let word = PlistTag.pack(name)
                    addresses.storeBytes(of: address, toByteOffset: slot * 8, as: UInt.self)
                    packed.storeBytes(of: word, toByteOffset: slot * 8, as: UInt64.self)
                    return word
                }
            }
        }
    }

    // MARK: Containers

    /// Opens a container: `frame` becomes `current`, the one it was goes on `outer`.
    private mutating func push(_ frame: Frame) {
        var frame = frame
        swap(&frame, &current)
        if depth > 0 { outer.append(frame) }
        depth += 1
    }

    /// Closes `current` and gives it; the container around it becomes `current`.
    private mutating func pop() -> Frame {
        var frame = depth > 1 ? outer.removeLast() : Frame.none
        swap(&frame, &current)
        depth -= 1
        return frame
    }

    // MARK: Positions

    /// Line and column of the `<` that opened the tag libxml2 is reporting on: the nearest `<`
    /// before the parser's cursor (at most 4096 bytes back).
    func tagPosition() -> PlistPosition {
        Self.tagPosition(ctxt, packedName: 0)
    }

    /// `tagPosition` without `self` (the per-element call passes the context alone, so the state
    /// is not copied to the stack to be borrowed), with a shortcut for the usual `<name>`: when
    /// the bytes just before the cursor are `<` and the name (`packedName`, `PlistTag.pack`),
    /// that `<` is the nearest one (a name holds no `<`), found with one load instead of a
    /// byte-by-byte scan.
    @inline(__always)
    static func tagPosition(_ ctxt: xmlParserCtxtPtr?, packedName: UInt64) -> PlistPosition {
        guard let input = ctxt?.pointee.input else { return .unknown }
        let line = Int(input.pointee.line)
        let column = Int(input.pointee.col)
        if let cur = input.pointee.cur, let base = input.pointee.base {
            let length = Int(truncatingIfNeeded: (packedName >> 56) & 0x0F)
            if length > 0, cur - base >= 8, cur.pointee != UInt8(ascii: "<") {
                // The 8 bytes before the cursor: the last `length` are the name's, the one
                // before them is `<`.
                let word = UInt64(littleEndian: UnsafeRawPointer(cur - 8).loadUnaligned(as: UInt64.self))
                let expected = (packedName & 0x00FF_FFFF_FFFF_FFFF) << 8 | UInt64(UInt8(ascii: "<"))
                if word >> UInt64(8 * (7 - length)) == expected {
                    return PlistPosition(line: line, column: max(column - (length + 1), 1))
                }
            }
            return slowTagPosition(cur: cur, base: base, line: line, column: column)
        }
        return PlistPosition(line: line, column: max(column, 1))
    }

    private static func slowTagPosition(cur: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>, line: Int, column: Int) -> PlistPosition {
        var column = column
        var p = cur
        var distance = 0
        while p > base && p.pointee != UInt8(ascii: "<") && distance < 4096 {
            p -= 1
            distance += 1
        }
        if p.pointee == UInt8(ascii: "<") { column -= distance }
        return PlistPosition(line: line, column: max(column, 1))
    }

    mutating func fail(_ kind: PlistError.Kind, _ message: String, at position: PlistPosition) {
        guard !failed else { return }
        failed = true
        error = PlistError(kind, message, line: Int(position.line), column: Int(position.column))
        if let ctxt { xmlStopParser(ctxt) }
    }

    // MARK: Events

    @inline(__always)
    mutating func startElement(_ name: UnsafePointer<UInt8>) {
        guard !failed else { return }
        let packed = names.packed(name)
        let position = Self.tagPosition(ctxt, packedName: packed)
        if leaf != nil || unexpectedDepth > 0 {
            startElementError(name, at: position)
            return
        }
        guard let tag = PlistTag.from(packed: packed) else {
            startElementError(name, at: position)
            return
        }
        if tag == .string, depth > 0, !current.isDictionary {
            // The hot path: an item of an array (`singleChunk` is nil: the last leaf took it).
            leaf = .string
            leafPosition = position
            chunks = 0
            return
        }
        if tag == .plist {
            if sawPlistElement {
                fail(.invalidStructure, "nested <plist> element", at: position)
            }
            sawPlistElement = true
            return
        }
        if depth == 0 && (root != nil || keptStrings) {
            fail(.invalidStructure, "a property list holds one root value; found a second one, <\(tag.name)>", at: position)
            return
        }
        if tag == .key {
            guard depth > 0, current.isDictionary else {
                fail(.invalidStructure, "<key> outside a <dict>", at: position)
                return
            }
            if let pending = current.pendingKey {
                fail(.invalidStructure,
                     "key '\(pending)' at line \(current.pendingKeyPosition.line) has no value (another <key> follows it)",
                     at: position)
                return
            }
        } else if depth > 0, current.isDictionary, current.pendingKey == nil {
            fail(.invalidStructure, "<\(tag.name)> in a <dict> without a <key> before it", at: position)
            return
        }
        if tag.isLeaf {
            leaf = tag
            leafPosition = position
            chunks = 0
            singleChunk = nil
            return
        }
        if depth >= maxDepth {
            fail(.refused, "nesting is deeper than \(maxDepth) levels; refusing to read further", at: position)
            return
        }
        if tag == .array && depth == 0 && keepsStrings {
            strings = PlistStringList(position: position)
            keptStrings = true
        }
        push(Frame(isDictionary: tag == .dict, position: position))
    }

    /// An element inside a leaf, or one that is not part of the plist format.
    private mutating func startElementError(_ name: UnsafePointer<UInt8>, at position: PlistPosition) {
        let inner = String(cString: name)
        if leaf != nil || unexpectedDepth > 0 {
            fail(.invalidStructure, "<\(leaf?.name ?? "?")> cannot contain elements (found <\(inner)>)", at: position)
        } else {
            fail(.invalidStructure, "unknown element <\(inner)>: not part of the plist format", at: position)
        }
    }

    @inline(__always)
    mutating func endElement(_ name: UnsafePointer<UInt8>) {
        guard !failed else { return }
        if leaf == .string, depth > 0, !current.isDictionary {
            // The hot path: an item of an array, kept as a string or added as a node.
            leaf = nil
            if depth == 1, keptStrings {
                strings.append(decodedText(), at: leafPosition)
            } else {
                current.items.append(PlistNode(.string(decodedText()), at: leafPosition))
            }
            return
        }
        if let tag = leaf {
            leaf = nil
            finishLeaf(tag)
            return
        }
        guard let tag = PlistTag.from(packed: names.packed(name)) else { return }
        switch tag {
        case .dict, .array:
            guard depth > 0 else { return }
            let frame = pop()
            if depth == 0, keptStrings {
                return // the root array of strings is whole: `finish` hands it over
            }
            if let pending = frame.pendingKey {
                fail(.invalidStructure, "key '\(pending)' has no value", at: frame.pendingKeyPosition)
                return
            }
            let value: PlistValue = frame.isDictionary
                ? .dictionary(PlistDictionary(frame.entries))
                : .array(frame.items)
            add(PlistNode(value, at: frame.position))
        default:
            break
        }
    }

    @inline(__always)
    mutating func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard !failed else { return }
        if leaf != nil {
            chunks += 1
            let buffer = UnsafeBufferPointer(start: bytes, count: count)
            if chunks == 1 {
                singleChunk = String(decoding: buffer, as: UTF8.self)
            } else {
                if chunks == 2 {
                    text.removeAll(keepingCapacity: true)
                    text.append(contentsOf: singleChunk!.utf8)
                    singleChunk = nil
                }
                text.append(contentsOf: buffer)
            }
            return
        }
        // Between elements: only whitespace may stand here.
        var bad = 0
        while bad < count && PlistScalars.isXMLWhitespace(bytes[bad]) { bad += 1 }
        if bad < count {
            let buffer = UnsafeBufferPointer(start: bytes, count: count)
            let snippet = String(decoding: buffer[bad...].prefix(40), as: UTF8.self)
            let container = depth > 0 ? (current.isDictionary ? "<dict>" : "<array>") : "<plist>"
            fail(.invalidStructure, "unexpected text '\(snippet)' inside \(container); values go in elements such as <string>",
                 at: tagPosition())
        }
    }

    mutating func entityReference(_ name: String) {
        fail(.refused,
             "entity reference '&\(name);' refused: plists may use only &amp; &lt; &gt; &quot; &apos; and character references",
             at: tagPosition())
    }

    mutating func xmlError(message: String, line: Int, column: Int) {
        guard xmlMessage == nil else { return }
        xmlMessage = message
        xmlLine = line
        xmlColumn = column
    }

}

/// A SAX2 handler whose callbacks forward to `SAXState`. Everything that could load or expand
/// outside content (external subsets, entity resolution, entity declarations) is left unset.
func makeSAXHandler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = { ctx, localname, _, _, _, _, _, _, _ in
        guard let ctx, let localname else { return }
        ctx.assumingMemoryBound(to: SAXState.self).pointee.startElement(localname)
    }
    handler.endElementNs = { ctx, localname, _, _ in
        guard let ctx, let localname else { return }
        ctx.assumingMemoryBound(to: SAXState.self).pointee.endElement(localname)
    }
    handler.characters = { ctx, ch, len in
        guard let ctx, let ch else { return }
        ctx.assumingMemoryBound(to: SAXState.self).pointee.characters(ch, Int(len))
    }
    handler.ignorableWhitespace = handler.characters
    handler.cdataBlock = handler.characters
    handler.reference = { ctx, name in
        guard let ctx else { return }
        let entity = name.map { String(cString: $0) } ?? "?"
        ctx.assumingMemoryBound(to: SAXState.self).pointee.entityReference(entity)
    }
    handler.serror = { ctx, error in
        guard let ctx, let error else { return }
        let level = error.pointee.level
        guard level == XML_ERR_ERROR || level == XML_ERR_FATAL else { return }
        var message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
        message = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        ctx.assumingMemoryBound(to: SAXState.self).pointee.xmlError(message: message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
    }
    return handler
}
