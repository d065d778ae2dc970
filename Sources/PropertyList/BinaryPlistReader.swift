import Diagnostics
import Foundation
import Support

/// Reads Apple binary property lists (`bplist00`) into the same `PlistNode` tree as the XML reader.
///
/// A binary file has no lines, so a value's position is its object's byte offset: line 1 and
/// column `offset + 1` (the first byte of the file is column 1).
///
/// Layout (CoreFoundation's `CFBinaryPList.c` describes it): an 8-byte header, the objects, an
/// offset table and a 32-byte trailer giving the offset width, the reference width, the object
/// count, the top object and where the offset table starts. Every offset, count and reference is
/// checked against the file before it is followed; a reference back to an object that is still
/// being read (a cycle) is refused.
///
/// An object referenced many times (CoreFoundation writes each distinct string once) is read
/// once: every further reference shares the node already made, whose strings, data and arrays
/// are copy-on-write, so a 100 kB file whose 50,000 references all name one 50 kB string costs
/// one string, not 2.5 GB. What the tree holds once shared objects are expanded — what a reader
/// of the tree walks and a writer prints — is still bounded: at most `maxValues` values and
/// `maxExpandedBytes` bytes of strings and data, each refused past it with an error at the
/// object that went over.
struct BinaryPlistReader {
    let bytes: [UInt8]
    let maxDepth: Int
    let maxValues: Int
    let maxExpandedBytes: Int

    private var offsetSize = 0
    private var refSize = 0
    private var objectCount = 0
    private var offsetTable = 0
    private var inProgress: Set<Int> = []
    /// Values and string/data bytes in the tree so far, shared objects counted each time.
    private var produced = 0
    private var expandedBytes = 0
    /// Objects read whole, by reference, with what they count for and how deep their containers go.
    private var done: [Int: Done] = [:]

    private struct Done {
        var node: PlistNode
        var values: Int
        var bytes: Int
        /// Levels of containers from this object down: 0 for a scalar, 1 for a flat array.
        var height: Int
    }

    /// Values in the expanded tree: a million, and one more per 6 bytes of the file. A value costs
    /// the tree about 40 bytes and can cost the file one (a one-byte reference to a shared
    /// `true`), so more would take more than 8 bytes of memory per byte read; a catalog written
    /// by CoreFoundation holds one value per 10 to 30 bytes.
    static func maxValues(forFileOf count: Int) -> Int { 1_000_000 + count / 6 }
    /// String and data bytes in the expanded tree: 16 MiB, and 4 more per byte of the file. `plist
    /// print` holds what it prints about twice: its peak stays within 64 MB and 8 per byte read.
    static func maxExpandedBytes(forFileOf count: Int) -> Int { 16 << 20 + 4 * count }

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxValues = Self.maxValues(forFileOf: bytes.count)
        self.maxExpandedBytes = Self.maxExpandedBytes(forFileOf: bytes.count)
    }

    /// True when `head` starts like a binary plist of any version.
    static func isBinary(_ head: some Collection<UInt8>) -> Bool {
        head.starts(with: Array("bplist".utf8))
    }

    mutating func read() throws(PlistError) -> PlistNode {
        guard bytes.count >= 8 + 32 else {
            throw error(at: 0, "file of \(bytes.count) bytes is too short to hold its trailer")
        }
        let version = String(decoding: bytes[6..<8], as: UTF8.self)
        guard version == "00" else {
            throw PlistError(.unsupportedFormat,
                             "binary property list version '\(Escape.printableASCII(version))' is not supported (only bplist00)")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(refSize) else {
            throw error(at: trailer,
                        "trailer gives offset size \(offsetSize) and reference size \(refSize) (each must be 1, 2, 4 or 8)")
        }
        let count = bigEndian(at: trailer + 8, width: 8)
        let top = bigEndian(at: trailer + 16, width: 8)
        let tableStart = bigEndian(at: trailer + 24, width: 8)
        guard count >= 1, count <= UInt64(trailer) else {
            throw error(at: trailer + 8, "trailer gives \(count) objects, which cannot fit in the file")
        }
        guard top < count else {
            throw error(at: trailer + 16, "top object \(top) is out of range (the file has \(count) objects)")
        }
        guard tableStart >= 8, tableStart <= UInt64(trailer),
              (UInt64(trailer) - tableStart) / UInt64(offsetSize) >= count else {
            throw error(at: trailer + 24,
                        "offset table at byte \(tableStart) does not fit before the trailer for \(count) objects")
        }
        objectCount = Int(count)
        offsetTable = Int(tableStart)
        return try object(Int(top), depth: 0)
    }

    // MARK: - Objects

    private mutating func object(_ ref: Int, depth: Int) throws(PlistError) -> PlistNode {
        guard ref < objectCount else {
            throw error(at: offsetTable, "object reference \(ref) is out of range (the file has \(objectCount) objects)")
        }
        let offset = Int(clamping: bigEndian(at: offsetTable + ref * offsetSize, width: offsetSize))
        guard offset >= 8, offset < offsetTable else {
            throw error(at: offsetTable + ref * offsetSize,
                        "object \(ref) is said to start at byte \(offset), outside the object area (8..<\(offsetTable))")
        }
        if let shared = done[ref] {
            // Its containers now sit `depth` levels down: as deep as reading it again would go.
            if shared.height > 0, depth + shared.height - 1 >= maxDepth {
                throw PlistError(.refused, "nesting deeper than \(maxDepth) levels; refused", line: 1, column: offset + 1)
            }
            try charge(values: shared.values, bytes: shared.bytes, at: offset)
            return shared.node
        }
        let (valuesBefore, bytesBefore) = (produced, expandedBytes)
        try charge(values: 1, bytes: 0, at: offset)
        let (node, height) = try read(ref, at: offset, depth: depth)
        done[ref] = Done(node: node, values: produced - valuesBefore, bytes: expandedBytes - bytesBefore, height: height)
        return node
    }

    /// Counts values and string or data bytes into the expanded tree, refusing it past its budget.
    private mutating func charge(values: Int, bytes count: Int, at offset: Int) throws(PlistError) {
        produced += values
        expandedBytes += count
        guard produced <= maxValues else {
            throw PlistError(.refused, "shared objects expand to more than \(maxValues) values; refused", line: 1, column: offset + 1)
        }
        guard expandedBytes <= maxExpandedBytes else {
            throw PlistError(.refused, "shared strings and data expand to more than \(maxExpandedBytes) bytes "
                             + "(16 MiB and 4 per byte of the file); refused", line: 1, column: offset + 1)
        }
    }

    /// The object at `offset`, and its height (levels of containers from it down).
    private mutating func read(_ ref: Int, at offset: Int, depth: Int) throws(PlistError) -> (PlistNode, Int) {
        let position = PlistPosition(line: 1, column: offset + 1)
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return (PlistNode(.bool(false), at: position), 0)
            case 0x09: return (PlistNode(.bool(true), at: position), 0)
            case 0x00: throw error(at: offset, "null object: property lists have no null value")
            default: throw error(at: offset, "unknown object marker 0x\(hex(marker))")
            }
        case 0x1:
            guard low <= 4 else { throw error(at: offset, "integer of 2^\(low) bytes (at most 16)") }
            let width = 1 << low
            let start = try need(offset + 1, width, at: offset)
            if width == 16 {
                // 128-bit integers hold values above Int64.max (the upper half is zero) or, from
                // some writers, negative values (the upper half all ones).
                let high = bigEndian(at: start, width: 8), lowWord = bigEndian(at: start + 8, width: 8)
                if high == 0 { return (PlistNode(.integer(.unsigned(lowWord)), at: position), 0) }
                if high == UInt64.max, lowWord >= 1 << 63 {
                    return (PlistNode(.integer(.signed(Int64(bitPattern: lowWord))), at: position), 0)
                }
                throw error(at: offset, "128-bit integer is out of range (-9223372036854775808 to 18446744073709551615)")
            }
            let raw = bigEndian(at: start, width: width)
            // 1-, 2- and 4-byte integers are unsigned; 8-byte ones are two's complement.
            let value: Int64 = width == 8 ? Int64(bitPattern: raw) : Int64(raw)
            return (PlistNode(.integer(.signed(value)), at: position), 0)
        case 0x2:
            switch low {
            case 2:
                let start = try need(offset + 1, 4, at: offset)
                let float = Float(bitPattern: UInt32(bigEndian(at: start, width: 4)))
                return (PlistNode(.real(.single(float)), at: position), 0)
            case 3:
                let start = try need(offset + 1, 8, at: offset)
                return (PlistNode(.real(PlistReal(Double(bitPattern: bigEndian(at: start, width: 8)))), at: position), 0)
            default:
                throw error(at: offset, "real of 2^\(low) bytes (only 4 and 8 are reals)")
            }
        case 0x3:
            guard marker == 0x33 else { throw error(at: offset, "unknown object marker 0x\(hex(marker))") }
            let start = try need(offset + 1, 8, at: offset)
            let seconds = Double(bitPattern: bigEndian(at: start, width: 8))
            // As far as the XML form reaches (years 0000 to 9999): what `plist print` can write.
            guard seconds.isFinite, ISO8601.secondsSince1970.contains(seconds + Date.timeIntervalBetween1970AndReferenceDate) else {
                throw error(at: offset, "date \(seconds) s from 2001-01-01 is outside the years 0000 to 9999 a plist date can write")
            }
            return (PlistNode(.date(Date(timeIntervalSinceReferenceDate: seconds)), at: position), 0)
        case 0x4:
            let (count, start) = try length(low, at: offset)
            let body = try need(start, count, at: offset)
            try charge(values: 0, bytes: count, at: offset)
            return (PlistNode(.data(Data(bytes[body..<(body + count)])), at: position), 0)
        case 0x5:
            let (count, start) = try length(low, at: offset)
            let body = try need(start, count, at: offset)
            try charge(values: 0, bytes: count, at: offset)
            let slice = bytes[body..<(body + count)]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw error(at: offset, "ASCII string holds a byte above 0x7F")
            }
            return (PlistNode(.string(String(decoding: slice, as: UTF8.self)), at: position), 0)
        case 0x6:
            let (units, start) = try length(low, at: offset)
            guard units <= Int.max / 2 else { throw error(at: offset, "string length \(units) is out of range") }
            let body = try need(start, units * 2, at: offset)
            try charge(values: 0, bytes: units * 2, at: offset)
            var utf16: [UInt16] = []
            utf16.reserveCapacity(units)
            for i in 0..<units {
                utf16.append(UInt16(bytes[body + 2 * i]) << 8 | UInt16(bytes[body + 2 * i + 1]))
            }
            var decoded = ""
            var iterator = utf16.makeIterator()
            var codec = UTF16()
            loop: while true {
                switch codec.decode(&iterator) {
                case .scalarValue(let scalar): decoded.unicodeScalars.append(scalar)
                case .emptyInput: break loop
                case .error: throw error(at: offset, "UTF-16 string holds an unpaired surrogate")
                }
            }
            return (PlistNode(.string(decoded), at: position), 0)
        case 0x8:
            // A keyed archive's UID, written in XML as a dict with the key CF$UID.
            let width = low + 1
            guard width <= 8 else { throw error(at: offset, "UID of \(width) bytes (at most 8)") }
            let start = try need(offset + 1, width, at: offset)
            let uid = bigEndian(at: start, width: width)
            let entry = PlistDictionary.Entry(key: "CF$UID", keyPosition: position,
                                              value: PlistNode(.integer(.unsigned(uid)), at: position))
            return (PlistNode(.dictionary(PlistDictionary([entry])), at: position), 0)
        case 0xA, 0xC:
            // Sets (0xC) have no XML form; they are read as arrays, as CoreFoundation does.
            let (count, start) = try length(low, at: offset)
            let refs = try references(count, start: start, at: offset)
            return try container(ref, depth: depth, at: offset) { (reader) throws(PlistError) -> (PlistNode, Int) in
                var items: [PlistNode] = []
                items.reserveCapacity(count)
                var height = 1
                for i in 0..<count {
                    let child = reader.reference(refs + i * reader.refSize)
                    items.append(try reader.object(child, depth: depth + 1))
                    height = max(height, 1 + reader.height(of: child))
                }
                return (PlistNode(.array(items), at: position), height)
            }
        case 0xD:
            let (count, start) = try length(low, at: offset)
            guard count <= Int.max / 2 else { throw error(at: offset, "dictionary size \(count) is out of range") }
            let keyRefs = try references(count * 2, start: start, at: offset)
            let valueRefs = keyRefs + count * refSize
            return try container(ref, depth: depth, at: offset) { (reader) throws(PlistError) -> (PlistNode, Int) in
                var entries: [PlistDictionary.Entry] = []
                entries.reserveCapacity(count)
                var seen: Set<String> = []
                var height = 1
                for i in 0..<count {
                    let key = try reader.object(reader.reference(keyRefs + i * reader.refSize), depth: depth + 1)
                    guard case .string(let name) = key.value else {
                        throw reader.error(at: Int(key.position.column) - 1,
                                           "dictionary key is \(key.value.typeName), not string")
                    }
                    guard seen.insert(name).inserted else {
                        throw PlistError(.duplicateKey, "duplicate key '\(name)' in one dictionary",
                                         line: 1, column: Int(key.position.column))
                    }
                    let valueRef = reader.reference(valueRefs + i * reader.refSize)
                    let value = try reader.object(valueRef, depth: depth + 1)
                    height = max(height, 1 + reader.height(of: valueRef))
                    entries.append(.init(key: name, keyPosition: key.position, value: value))
                }
                return (PlistNode(.dictionary(PlistDictionary(entries)), at: position), height)
            }
        default:
            throw error(at: offset, "unknown object marker 0x\(hex(marker))")
        }
    }

    /// Reads a container's children with cycle and depth checks around them.
    private mutating func container(
        _ ref: Int, depth: Int, at offset: Int,
        _ body: (inout BinaryPlistReader) throws(PlistError) -> (PlistNode, Int)
    ) throws(PlistError) -> (PlistNode, Int) {
        guard depth < maxDepth else {
            throw PlistError(.refused, "nesting deeper than \(maxDepth) levels; refused",
                             line: 1, column: offset + 1)
        }
        guard inProgress.insert(ref).inserted else {
            throw error(at: offset, "object \(ref) contains itself (a reference cycle)")
        }
        let read = try body(&self)
        inProgress.remove(ref)
        return read
    }

    /// Levels of containers from an object read whole down (0 for a scalar).
    private func height(of ref: Int) -> Int { done[ref]?.height ?? 0 }

    // MARK: - Bytes

    /// The object count in a marker's low nibble, or in the integer object after it when 0xF.
    private func length(_ low: Int, at offset: Int) throws(PlistError) -> (Int, Int) {
        if low != 0xF { return (low, offset + 1) }
        let intMarker = try need(offset + 1, 1, at: offset)
        let marker = bytes[intMarker]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw error(at: offset + 1, "object length is not an integer (marker 0x\(hex(marker)))")
        }
        let width = 1 << Int(marker & 0x0F)
        let start = try need(intMarker + 1, width, at: offset)
        let value = bigEndian(at: start, width: width)
        guard value <= UInt64(bytes.count) else {
            throw error(at: offset, "object length \(value) is larger than the file")
        }
        return (Int(value), start + width)
    }

    /// The start of `count` references, checked to lie inside the object area.
    private func references(_ count: Int, start: Int, at offset: Int) throws(PlistError) -> Int {
        guard count <= (bytes.count - min(start, bytes.count)) / refSize else {
            throw error(at: offset, "\(count) references run past the end of the file")
        }
        return try need(start, count * refSize, at: offset)
    }

    private func reference(_ at: Int) -> Int {
        Int(clamping: bigEndian(at: at, width: refSize))
    }

    /// `start` when `count` bytes from it lie inside the object area before the offset table.
    private func need(_ start: Int, _ count: Int, at offset: Int) throws(PlistError) -> Int {
        let end = offsetTable > 0 ? offsetTable : bytes.count
        guard count >= 0, start <= end, count <= end - start else {
            throw error(at: offset, "object runs past the end of the object area (byte \(end))")
        }
        return start
    }

    private func bigEndian(at start: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<width { value = value << 8 | UInt64(bytes[start + i]) }
        return value
    }

    private func error(at offset: Int, _ message: String) -> PlistError {
        PlistError(.invalidStructure, "binary property list: \(message)", line: 1, column: offset + 1)
    }

    private func hex(_ byte: UInt8) -> String { PlistScalars.hex(byte) }

}

extension PlistReal {
    /// A 4-byte real, written as the `Float` it is (0.99, not 0.9900000095367432).
    static func single(_ value: Float) -> PlistReal {
        value.isFinite ? PlistReal(text: value.description, doubleValue: Double(value)) : PlistReal(Double(value))
    }
}
