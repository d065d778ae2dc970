import Diagnostics
import XCTest
@testable import IAPCatalog

/// The fast similar-ids search (skeleton groups by sort, shared-prefix cut, packed hash keys) must
/// find exactly the pairs an all-pairs comparison finds, on random catalogs full of near-duplicates.
final class SimilarIDsPropertyTests: XCTestCase {
    func testMatchesAllPairsOnRandomCatalogs() {
        var rng = Rng(seed: 42)
        for round in 0..<60 {
            let alphabet = Array("aab.l1_-Lx9".utf8)
            var ids: [String] = []
            let base = round % 2 == 0 ? "com.acme.app." : ""
            while ids.count < 60 {
                var id = Array((base + "lev").utf8)
                for _ in 0..<(1 + rng.next() % 4) { id.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
                let text = String(decoding: id, as: UTF8.self)
                if !ids.contains(text) { ids.append(text) }
            }
            let found = SimilarIDsRule().check(Self.catalog(ids), options: ValidationOptions())
            XCTAssertEqual(Set(found.map(\.location.line)), Set(Self.allPairs(ids).map(\.later)), "round \(round): \(ids)")
            XCTAssertEqual(Self.pairs(found), Self.allPairs(ids), "round \(round): \(ids)")
        }
    }

    /// Two numbered families of a few hundred IDs each, a letter apart: more than 10,000 pairs of
    /// IDs between two skeletons, so the search pairs IDs by their digits. It must still find
    /// exactly the pairs (which earlier ID each finding names included) all pairs find.
    func testNumberedFamiliesMatchAllPairs() {
        var rng = Rng(seed: 7)
        var ids: [String] = []
        var seen = Set<String>()
        let words = ["pack", "pass", "pac", "Pack"]
        while ids.count < 1_000 {
            let separator = rng.next() % 8 == 0 ? "_" : ""
            let id = "com.acme.app.\(words[Int(rng.next() % 4)])\(separator)\(100 + rng.next() % 300)"
            if seen.insert(id).inserted { ids.append(id) }
        }
        assertMatchesAllPairs(ids, atLeast: 200)
    }

    /// Many skeletons sharing one substitution key (`packa` … `packZ`, and a letter inserted or
    /// substituted before the last): long runs of equal hashes, sorted apart from their neighbours.
    func testManySkeletonsOneEditApartMatchAllPairs() {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
        var seen = Set<String>()
        let ids = (letters.map { "com.acme.app.pack" + $0 } + letters.prefix(20).map { "com.acme.app.pac" + $0 + "k" }
            + letters.prefix(10).map { "com.acme.app.pac" + $0 }).filter { seen.insert($0).inserted }
        assertMatchesAllPairs(ids, atLeast: 1_000)
    }

    /// The rule's findings on `ids` are exactly the all-pairs check's, and there are enough of them
    /// for the case to mean something.
    func assertMatchesAllPairs(_ ids: [String], atLeast minimum: Int, file: StaticString = #filePath, line: UInt = #line) {
        let found = SimilarIDsRule().check(Self.catalog(ids), options: ValidationOptions())
        let expected = Self.allPairs(ids)
        XCTAssertGreaterThan(expected.count, minimum, file: file, line: line)
        XCTAssertEqual(found.count, expected.count, file: file, line: line)
        XCTAssertEqual(Self.pairs(found), expected, file: file, line: line)
    }

    /// Skeleton groups are the same when every skeleton hash collides: IDs of equal hash are
    /// compared, not assumed equal.
    func testSkeletonGroupsAreTheSameWhenEveryHashCollides() {
        let ids = ["a1", "b", "a2", "a#", "b", "a12", "c3", "a9", "c", "a#"]
        // Groups by skeleton string, numbered in order of their first ID.
        var numbers: [String: Int32] = [:]
        var representatives: [Int] = []
        let expected = ids.enumerated().map { i, id -> Int32 in
            let skeleton = String(decoding: id.utf8.map { SimilarIDsRule.isDigit($0) ? 0x23 : $0 }, as: UTF8.self)
            if let g = numbers[skeleton] { return g }
            numbers[skeleton] = Int32(representatives.count)
            representatives.append(i)
            return Int32(representatives.count - 1)
        }
        XCTAssertEqual(expected, [0, 1, 0, 0, 1, 2, 3, 0, 4, 0])
        for groups in [SimilarIDsRule.skeletonGroups(ids), SimilarIDsRule.skeletonGroups(ids, hash: { _ in 42 }),
                       SimilarIDsRule.skeletonGroups(ids, hash: { UInt64($0.utf8.count) << 40 })] {
            XCTAssertEqual(groups.group, expected)
            XCTAssertEqual(groups.representatives, representatives)
        }
        XCTAssertEqual(SimilarIDsRule.skeletonGroups([]).representatives, [])
        var rng = Rng(seed: 5)
        let alphabet = ["a", "1", "#", "9", "é", "B"]
        let words = (0..<300).map { _ in (0..<(rng.next() % 4)).map { _ in alphabet[Int(rng.next() % 6)] }.joined() }
        for (a, b) in Array(zip(words, words.dropFirst())) + Array(zip(words, words.reversed())) {
            XCTAssertEqual(SimilarIDsRule.sameSkeleton(a, b), IDKeys.equal(a, b, .skeleton), "\(a) \(b)")
        }
    }

    /// Pairing a large family by digits gives the same pairs, in the same order, when every digit
    /// hash collides.
    func testSameDigitsPairsWhenEveryDigitHashCollides() {
        let ids = ["p1", "q1", "p2", "p12", "q12", "p21", "q2", "q21", "p", "q", "q1"]
        let left: ArraySlice<Int> = [0, 2, 3, 5, 8], right: ArraySlice<Int> = [1, 4, 6, 7, 9, 10]
        let expected = [[0, 1], [3, 4], [2, 6], [5, 7], [8, 9], [0, 10]]
        for hash in [SimilarIDsRule.digitHash, { _ in 42 }, { UInt64($0.utf8.count) }] as [(String) -> UInt64] {
            XCTAssertEqual(SimilarIDsRule.sameDigitsPairs(ids, left, right, hash: hash).map { [$0.0, $0.1] }, expected)
        }
        XCTAssertTrue(SimilarIDsRule.sameDigits("a1b2", "12"))
        XCTAssertFalse(SimilarIDsRule.sameDigits("a1b2", "1"))
        XCTAssertFalse(SimilarIDsRule.sameDigits("a1", "a2"))
        XCTAssertTrue(SimilarIDsRule.sameDigits("ab", ""))
    }

    static func catalog(_ ids: [String]) -> Catalog {
        Catalog(name: "r", files: [], bundleID: nil,
                products: CatalogLoader.merge(ids.enumerated().map {
                    ProductOccurrence(id: $1, location: SourceLocation(path: "p", line: $0 + 1), role: .productList)
                }), loadDiagnostics: [])
    }

    struct Found: Hashable {
        let later: Int, earlier: Int, loose: Bool
    }

    /// Each finding as the lines of the two IDs it names (the later is where it is).
    static func pairs(_ found: [Diagnostic]) -> Set<Found> {
        Set(found.map { Found(later: $0.location.line, earlier: $0.related.first?.location.line ?? 0, loose: $0.message.contains("separators")) })
    }

    /// What similar-ids finds, by comparing all pairs: each later ID equal to an earlier one once
    /// separators and case are ignored, paired with the earliest that differs in more than case;
    /// and every other pair one edit apart outside the digits.
    static func allPairs(_ ids: [String]) -> Set<Found> {
        let bytes = ids.map { Array($0.utf8) }
        let lowered = bytes.map { $0.map(SimilarIDsRule.lower) }
        let loose = lowered.map { $0.filter { !SimilarIDsRule.isSeparator($0) } }
        var expected = Set<Found>()
        for j in ids.indices {
            if let i = (0..<j).first(where: { loose[$0] == loose[j] && lowered[$0] != lowered[j] }) {
                expected.insert(Found(later: j + 1, earlier: i + 1, loose: true))
            }
            for i in 0..<j where loose[i] != loose[j] && SimilarIDsRule.oneNonDigitEdit(bytes[i], bytes[j]) {
                expected.insert(Found(later: j + 1, earlier: i + 1, loose: false))
            }
        }
        return expected
    }
}
