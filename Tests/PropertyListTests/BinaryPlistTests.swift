import Foundation
import TestSupport
import XCTest
@testable import PropertyList

/// The `bplist00` reader, on files CPython's `plistlib` wrote (Tests/Fixtures/BinaryPlists,
/// made by its `make.py`) and on hostile files built byte by byte here.
final class BinaryPlistTests: XCTestCase {
    static let fixtures = Prerequisite.packageRoot
        .appendingPathComponent("Tests/Fixtures/BinaryPlists")
    let reader = PlistReader()

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func testPlistlibFilesReadAsTheirXMLTwins() throws {
        for name in ["ids", "types", "shared"] {
            let binary = try reader.read(path: fixture("\(name).bplist.plist"))
            let xml = try reader.read(path: fixture("\(name).xml.plist"))
            XCTAssertEqual(binary.root, xml.root, name)
        }
    }

    func testEveryObjectTypeWithItsValue() throws {
        let root = try XCTUnwrap(reader.read(path: fixture("types.bplist.plist")).root.value.dictionaryValue)
        XCTAssertEqual(root["unicode"]?.value, .string("Münzen 100 ✓ 日本語"))
        XCTAssertEqual(root["emoji"]?.value, .string("💎 gems"))
        XCTAssertEqual(root["long"]?.value, .string("a string longer than fifteen characters"))
        XCTAssertEqual(root["byte"]?.value, .integer(.signed(255)))
        XCTAssertEqual(root["word"]?.value, .integer(.signed(65536)))
        XCTAssertEqual(root["min"]?.value, .integer(.signed(Int64.min)))
        XCTAssertEqual(root["max"]?.value, .integer(.signed(Int64.max)))
        XCTAssertEqual(root["umax"]?.value, .integer(.unsigned(UInt64.max)))
        XCTAssertEqual(root["negative"]?.value, .integer(.signed(-1)))
        XCTAssertEqual(root["price"]?.value, .real(PlistReal(0.99)))
        XCTAssertEqual(root["price"]?.value.description, "0.99")
        XCTAssertEqual(root["yes"]?.value, .bool(true))
        XCTAssertEqual(root["when"]?.value.description, "2026-11-23T10:33:33Z")
        XCTAssertEqual(root["bytes"]?.value, .data(Data([0, 1, 2] + Array(" binary".utf8))))
        XCTAssertEqual(root["many"]?.value.arrayValue?.count, 40)
        XCTAssertEqual(root.keys.first, "ascii")
    }

    func testPositionsAreByteOffsets() throws {
        // ids.bplist.plist: 8-byte header, then the array marker 0xA4 at offset 8 (column 9),
        // then four 1-byte references, then the first string's marker at offset 13.
        let root = try reader.read(path: fixture("ids.bplist.plist")).root
        XCTAssertEqual(root.position, PlistPosition(line: 1, column: 9))
        XCTAssertEqual(root.value.arrayValue?.first?.position, PlistPosition(line: 1, column: 14))
    }

    func testSharedObjectsAndUIDs() throws {
        let shared = try XCTUnwrap(reader.read(path: fixture("shared.bplist.plist")).root.value.dictionaryValue)
        XCTAssertEqual(shared["first"], shared["second"])
        XCTAssertEqual(shared["again"]?.value.arrayValue?.count, 2)
        let uid = try reader.read(path: fixture("uid.bplist.plist")).root.value
        XCTAssertEqual(uid.description, "{$top: {root: {CF$UID: 5}}, $objects: [\"$null\", {CF$UID: 1}]}")
    }

    // MARK: - Hostile files

    /// A bplist00 file from objects given as raw bytes, with 2-byte offsets and 1-byte references.
    func bplist(_ objects: [[UInt8]], top: Int = 0, count: Int? = nil, table: Int? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets += [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
            bytes += object
        }
        let tableStart = bytes.count
        bytes += offsets
        func be(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + be(count ?? objects.count) + be(top) + be(table ?? tableStart)
        return bytes
    }

    func error(_ bytes: [UInt8]) -> PlistError? { readingError(bytes) }

    func testHandBuiltFileReads() throws {
        // {"a": [true, 7]}
        let bytes = bplist([[0xD1, 1, 2], [0x51, 0x61], [0xA2, 3, 4], [0x09], [0x10, 7]])
        XCTAssertEqual(try reader.read(bytes: bytes).root.value.description, "{a: [true, 7]}")
    }

    func testCyclesAreRefused() {
        let selfArray = bplist([[0xA1, 0]])
        XCTAssertEqual(error(selfArray)?.description,
                       "1:9: binary property list: object 0 contains itself (a reference cycle)")
        let indirect = bplist([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]])
        XCTAssertEqual(error(indirect)?.description,
                       "1:9: binary property list: object 0 contains itself (a reference cycle)")
    }

    func testOutOfRangeOffsetsAndReferences() {
        XCTAssertEqual(error(bplist([[0xA1, 9]]))?.message,
                       "binary property list: object reference 9 is out of range (the file has 1 objects)")
        XCTAssertEqual(error(bplist([[0x09]], top: 3))?.message,
                       "binary property list: top object 3 is out of range (the file has 1 objects)")
        XCTAssertEqual(error(bplist([[0x09]], count: 1_000_000))?.message,
                       "binary property list: trailer gives 1000000 objects, which cannot fit in the file")
        XCTAssertEqual(error(bplist([[0x09]], table: 4000))?.message,
                       "binary property list: offset table at byte 4000 does not fit before the trailer for 1 objects")
        // A string that claims more bytes than the file has.
        XCTAssertEqual(error(bplist([[0x5F, 0x12, 0x7F, 0xFF, 0x61]]))?.message,
                       "binary property list: object runs past the end of the object area (byte 13)")
        XCTAssertEqual(error(bplist([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]]))?.message,
                       "binary property list: object length 2147483647 is larger than the file")
        XCTAssertEqual(error(Array("bplist00".utf8) + [0x08])?.message,
                       "binary property list: file of 9 bytes is too short to hold its trailer")
    }

    func testValuesAPlistCannotHoldAreRefused() {
        XCTAssertEqual(error(bplist([[0x00]]))?.message, "binary property list: null object: property lists have no null value")
        XCTAssertEqual(error(bplist([[0x70]]))?.message, "binary property list: unknown object marker 0x70")
        XCTAssertEqual(error(bplist([[0x52, 0x61, 0xC3]]))?.message, "binary property list: ASCII string holds a byte above 0x7F")
        XCTAssertEqual(error(bplist([[0x61, 0xD8, 0x00]]))?.message, "binary property list: UTF-16 string holds an unpaired surrogate")
        XCTAssertEqual(error(bplist([[0xD1, 1, 1], [0x10, 1]]))?.message, "binary property list: dictionary key is integer, not string")
        XCTAssertEqual(error(bplist([[0xD2, 1, 1, 2, 2], [0x51, 0x61], [0x09]]))?.description,
                       "1:14: duplicate key 'a' in one dictionary")
        XCTAssertEqual(error(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40))?.message,
                       "binary property list version '15' is not supported (only bplist00)")
    }

    func testDeepNestingAndExponentialSharingAreBounded() {
        // 200 arrays, each holding the next: deeper than the 128 levels allowed.
        var chain: [[UInt8]] = (0..<199).map { (i: Int) -> [UInt8] in [0xA1, UInt8(i + 1)] }
        chain.append([0x09])
        let deep = bplist(chain)
        XCTAssertEqual(error(deep)?.kind, .refused)
        XCTAssertEqual(error(deep)?.message, "nesting deeper than 128 levels; refused")
        // 60 arrays, each holding the next twice: 2^60 values if expanded.
        let start = Date()
        var objects: [[UInt8]] = (0..<59).map { (i: Int) -> [UInt8] in [0xA2, UInt8(i + 1), UInt8(i + 1)] }
        objects.append([0x09])
        let wide = bplist(objects)
        XCTAssertEqual(error(wide)?.message, "shared objects expand to more than 1000056 values; refused")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    /// A string referenced many times is read once and shared; the tree it expands to is still
    /// bounded, and refused at the shared object past its budget (issue 22: a 100 kB file whose
    /// references all named one 50 kB string took 2.47 GB).
    func testASharedStringIsReadOnceAndItsExpansionIsBudgeted() throws {
        func sharing(_ references: Int, of length: Int) -> [UInt8] {
            let array: [UInt8] = [0xAF, 0x11, UInt8(references >> 8), UInt8(references & 0xFF)] + Array(repeating: 1, count: references)
            let string: [UInt8] = [0x5F, 0x11, UInt8(length >> 8), UInt8(length & 0xFF)] + Array(repeating: 0x61, count: length)
            return bplist([array, string])
        }
        // 200 references to a 40,000-byte string: 8 MB of text, read as one string.
        let fine = try reader.read(bytes: sharing(200, of: 40_000)).root
        let items = try XCTUnwrap(fine.value.arrayValue)
        XCTAssertEqual(items.count, 200)
        XCTAssertTrue(items.allSatisfy { $0.value == .string(String(repeating: "a", count: 40_000)) })
        XCTAssertEqual(Set(items.map(\.position)), [PlistPosition(line: 1, column: 213)])
        // 20,000 references: 800 MB of text from a 60,052-byte file.
        let start = Date()
        let bomb = sharing(20_000, of: 40_000)
        XCTAssertEqual(bomb.count, 60_052)
        XCTAssertEqual(error(bomb)?.description,
                       "1:20013: shared strings and data expand to more than 17017424 bytes (16 MiB and 4 per byte of the file); refused")
        XCTAssertEqual(error(bomb)?.kind, .refused)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    /// A container read once and referenced again deeper still counts at its new depth.
    func testASharedContainerReusedDeeperIsRefusedPastTheDepthLimit() {
        // Object 0: [c0, d0]; c0 → c1 → … → c99 → true (object 101); d0 → … → d49 → c0.
        var objects: [[UInt8]] = [[0xA2, 1, 102]]
        objects += (0..<100).map { (i: Int) -> [UInt8] in [0xA1, UInt8(i + 2)] }
        objects.append([0x09])
        objects += (0..<50).map { (j: Int) -> [UInt8] in [0xA1, j == 49 ? 1 : UInt8(103 + j)] }
        let bytes = bplist(objects)
        // Read once, c0 is 100 levels deep; under d49 it would reach level 150.
        XCTAssertEqual(error(bytes)?.description, "1:12: nesting deeper than 128 levels; refused")
        // Without the second path it reads.
        XCTAssertNil(error(bplist([[0xA1, 1]] + objects[1...101])))
    }

    /// A date past what the XML form writes is refused where it is, never a trap when printed.
    func testADateOutsideTheYearsAPlistWritesIsRefused() throws {
        func date(_ seconds: Double) -> [UInt8] {
            [0x33] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds.bitPattern >> ($0 * 8)) }
        }
        XCTAssertEqual(error(bplist([date(1e300)]))?.description,
                       "1:9: binary property list: date 1e+300 s from 2001-01-01 is outside the years 0000 to 9999 a plist date can write")
        XCTAssertEqual(error(bplist([date(-1e300)]))?.message,
                       "binary property list: date -1e+300 s from 2001-01-01 is outside the years 0000 to 9999 a plist date can write")
        let last = ISO8601.secondsSince1970.upperBound - Date.timeIntervalBetween1970AndReferenceDate
        XCTAssertEqual(try reader.read(bytes: bplist([date(last)])).root.value.description, "9999-12-31T23:59:59Z")
        XCTAssertNotNil(error(bplist([date(last + 1)])))
        // Dates made in code are written as the nearest the form holds.
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: 1e300)), "9999-12-31T23:59:59Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: -1e300)), "0000-01-01T00:00:00Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
    }

    func testEveryTruncationOfARealFileIsAnErrorNotACrash() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("types.bplist.plist"))))
        for length in 0..<whole.count {
            XCTAssertNotNil(error(Array(whole.prefix(length))), "prefix of \(length) bytes")
        }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            var mutated = whole
            for _ in 0..<3 { mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next()) }
            _ = error(mutated) // must return, valid or not
        }
    }

    func testSizeLimitIsADiagnostic() {
        let small = PlistReader(maxBytes: 100)
        let big = Array("<plist><string>".utf8) + [UInt8](repeating: 0x61, count: 200) + Array("</string></plist>".utf8)
        XCTAssertThrowsError(try small.read(bytes: big)) { error in
            XCTAssertEqual((error as? PlistError)?.message,
                           "file is larger than 100 bytes, the most iap reads; split the catalog into several files")
        }
    }
}
