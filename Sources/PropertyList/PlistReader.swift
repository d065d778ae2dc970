import CLibXML2
import Foundation
import Support

/// Reads Apple XML property lists with libxml2's SAX2 push parser into a tree of `PlistNode`s
/// that carry the line and column of every value; `readContent` gives a root `<array>` of
/// `<string>`s (a plain list of product IDs) as the strings and their positions instead.
///
/// Safe on hostile input: no network, no DTD or external entity loading, no entity expansion
/// beyond the five predefined ones and character references, bounded nesting, and files of any
/// size are streamed in chunks rather than loaded whole.
public struct PlistReader: Sendable {
    /// Nesting deeper than this is refused with a clear error (real plists nest < 10 levels).
    public var maxDepth: Int
    /// Bytes handed to libxml2 per call; an XML file is never held in memory whole.
    public var chunkSize: Int
    /// Files larger than this are refused (a binary plist is read into memory whole).
    public var maxBytes: Int

    /// 1 GiB: a million-product catalog with metadata is about 150 MB.
    public static let defaultMaxBytes = 1 << 30

    public init(maxDepth: Int = 128, chunkSize: Int = 256 * 1024, maxBytes: Int = PlistReader.defaultMaxBytes) {
        self.maxDepth = maxDepth
        self.chunkSize = chunkSize
        self.maxBytes = maxBytes
    }

    /// Reads the file at `path`. Error positions are lines and columns in that file.
    public func read(path: String) throws(PlistError) -> PlistDocument {
        PlistDocument(name: path, root: try content(path: path, keepingStrings: false).tree)
    }

    /// Reads the file at `path`, giving a root `<array>` of `<string>`s as the strings and their
    /// positions rather than a tree (a million product IDs without a million nodes).
    public func readContent(path: String) throws(PlistError) -> PlistContent {
        try content(path: path, keepingStrings: true)
    }

    /// The file at `path`: a root list of strings kept as strings when `keepingStrings`, else
    /// every value a node from the start (a caller that wants the tree gets it without the
    /// strings being kept first and turned into nodes after).
    private func content(path: String, keepingStrings: Bool) throws(PlistError) -> PlistContent {
        let fd: Int32
        switch FileContents.open(path) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw PlistError(.io, "cannot open file: \(failure.reason)")
        }
        defer { close(fd) }
        // Refused by its size before a byte is read (a binary plist is held whole); the count
        // while reading still catches a file that grows.
        if let size = FileContents.size(fd), size > maxBytes { throw Self.tooLarge(maxBytes) }
        return try parse(name: path, keepingStrings: keepingStrings) { (buffer) throws(PlistError) -> Int in
            switch FileContents.read(fd, into: buffer.baseAddress!, count: buffer.count) {
            case .success(let n): return n
            case .failure(let failure): throw PlistError(.io, "cannot read file: \(failure.reason)")
            }
        }
    }

    /// Reads a property list from bytes in memory.
    public func read(bytes: [UInt8], name: String = "<memory>") throws(PlistError) -> PlistDocument {
        PlistDocument(name: name, root: try content(bytes: bytes, name: name, keepingStrings: false).tree)
    }

    /// Reads a property list from bytes in memory, a root `<array>` of `<string>`s as the strings.
    public func readContent(bytes: [UInt8], name: String = "<memory>") throws(PlistError) -> PlistContent {
        try content(bytes: bytes, name: name, keepingStrings: true)
    }

    private func content(bytes: [UInt8], name: String, keepingStrings: Bool) throws(PlistError) -> PlistContent {
        var offset = 0
        return try parse(name: name, keepingStrings: keepingStrings) { (buffer) throws(PlistError) -> Int in
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { src in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<(offset + n)]))
            }
            offset += n
            return n
        }
    }

    /// Reads a property list from `Data`.
    public func read(data: Data, name: String = "<memory>") throws(PlistError) -> PlistDocument {
        try read(bytes: [UInt8](data), name: name)
    }

    /// Reads a property list from a string (UTF-8).
    public func read(string: String, name: String = "<memory>") throws(PlistError) -> PlistDocument {
        try read(bytes: Array(string.utf8), name: name)
    }

    // MARK: - Parsing

    /// Streams chunks from `fill` (which returns 0 at the end) through libxml2's push parser.
    private func parse(
        name: String,
        keepingStrings: Bool,
        fill: (UnsafeMutableRawBufferPointer) throws(PlistError) -> Int
    ) throws(PlistError) -> PlistContent {
        _ = libxml2Initialized
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 64), alignment: 1)
        defer { buffer.deallocate() }
        let chars = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)

        var total = 0
        let limit = maxBytes
        func next() throws(PlistError) -> Int {
            let n = try fill(buffer)
            total += n
            if total > limit { throw Self.tooLarge(limit) }
            return n
        }
        var count = try next()
        if count == 0 {
            throw PlistError(.unsupportedFormat, "empty file (0 bytes): not a property list")
        }
        if BinaryPlistReader.isBinary(buffer[0..<count]) {
            var bytes = Array(buffer[0..<count])
            while true {
                let n = try next()
                if n == 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            var reader = BinaryPlistReader(bytes: bytes, maxDepth: maxDepth)
            return .tree(try reader.read())
        }
        try Self.sniff(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))

        let state = UnsafeMutablePointer<SAXState>.allocate(capacity: 1)
        state.initialize(to: SAXState(maxDepth: maxDepth, keepsStrings: keepingStrings))
        defer {
            state.deinitialize(count: 1)
            state.deallocate()
        }
        var handler = makeSAXHandler()
        // The first bytes go in with the context so libxml2 can detect UTF-16 and byte-order marks.
        let head = min(count, 4)
        let userData = UnsafeMutableRawPointer(state)
        guard let ctxt = xmlCreatePushParserCtxt(&handler, userData, chars, Int32(head), name) else {
            throw PlistError(.io, "libxml2 could not create a parser")
        }
        defer {
            // libxml2 keeps a document of its own for entity declarations in SAX mode.
            if let doc = ctxt.pointee.myDoc { xmlFreeDoc(doc) }
            ctxt.pointee.myDoc = nil
            xmlFreeParserCtxt(ctxt)
        }
        state.pointee.ctxt = ctxt
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue))

        var start = head
        while true {
            let rc = xmlParseChunk(ctxt, chars + start, Int32(count - start), 0)
            if rc != 0 || state.pointee.error != nil || ctxt.pointee.wellFormed == 0 { break }
            start = 0
            count = try next()
            if count == 0 {
                xmlParseChunk(ctxt, nil, 0, 1)
                break
            }
        }
        if let error = state.pointee.error { throw error }
        if ctxt.pointee.wellFormed == 0 || state.pointee.xmlMessage != nil {
            throw PlistError(.malformedXML, "XML error: \(state.pointee.xmlMessage ?? "not well-formed XML")",
                             line: state.pointee.xmlLine, column: state.pointee.xmlColumn)
        }
        return try state.pointee.finish()
    }

    private static func tooLarge(_ limit: Int) -> PlistError {
        PlistError(.refused, "file is larger than \(limit) bytes, the most iap reads; split the catalog into several files")
    }

    /// Refuses inputs that are not XML plists before libxml2 sees them, saying what the file is
    /// and what to do, instead of libxml2's "Document is empty".
    private static func sniff(_ head: UnsafeRawBufferPointer) throws(PlistError) {
        let bytes = Array(head.prefix(256))
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        // UTF-16 and UTF-32 (with or without a byte-order mark) are libxml2's to detect.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.prefix(4).contains(0) && bytes.prefix(4).contains(UInt8(ascii: "<")) { return }
        while i < bytes.count, PlistScalars.isXMLWhitespace(bytes[i]) { i += 1 }
        guard i < bytes.count else { return }
        let convert = "convert it to an XML property list (`plutil -convert xml1 FILE` on macOS)"
        func next(after index: Int) -> UInt8? {
            var k = index + 1
            while k < bytes.count, PlistScalars.isXMLWhitespace(bytes[k]) { k += 1 }
            return k < bytes.count ? bytes[k] : nil
        }
        switch bytes[i] {
        case UInt8(ascii: "<"):
            return
        case UInt8(ascii: "["):
            throw PlistError(.unsupportedFormat, "JSON, not a property list — \(convert)")
        case UInt8(ascii: "{") where [UInt8(ascii: "\""), UInt8(ascii: "}")].contains(next(after: i)):
            throw PlistError(.unsupportedFormat, "JSON, not a property list — \(convert)")
        case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "\""), UInt8(ascii: "/"):
            throw PlistError(.unsupportedFormat, "old-style (OpenStep) property list, not XML — \(convert)")
        default:
            let text = bytes[i...].prefix(24)
            let isText = text.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if isText, let line = String(validating: text.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self) {
                throw PlistError(.unsupportedFormat,
                                 "a text file, not a property list (it begins '\(line)'); an XML property list begins with '<?xml' or '<plist'")
            }
            throw PlistError(.unsupportedFormat, "binary data, not a property list (it begins "
                             + bytes.prefix(8).map(PlistScalars.hex).joined(separator: " ") + ")")
        }
    }
}

/// libxml2 must be initialised once before contexts are used from several threads.
private let libxml2Initialized: Void = { xmlInitParser() }()


