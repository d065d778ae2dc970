import Diagnostics
import XCTest
@testable import IAPCatalog

/// The load's and the ID rules' fast paths against the plain definitions they stand for, on random
/// IDs made of kind words, letters, digit runs and separators.
final class FastPathPropertyTests: XCTestCase {
    static let pieces = ["non", "consumable", "Consumable", "coins", "pro", "sub", "month", "ly", "p1m", "gem", "life",
                         "x", "q", "abc", "zz", "7", "42", "0001", "é", "Pro", "upgrade", "lifetime", "yearly"]
    static let separators = [".", "_", "-", "", ""]

    func randomID(_ rng: inout Rng) -> String {
        var id = ""
        for _ in 0..<(1 + rng.next() % 5) {
            id += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
            id += Self.separators[Int(rng.next() % UInt64(Self.separators.count))]
        }
        return id
    }

    /// Without digit runs (which the cache folds), the byte-level inference (segments cached,
    /// unique segments told from words by a table) says what inferring from the whole ID says.
    func testCachedKindInferenceEqualsInferringFromTheID() {
        var rng = Rng(seed: 7)
        var classifier = Classifier()
        var inferred = 0
        for _ in 0..<5_000 {
            let id = randomID(&rng)
            let bytes = Array(id.utf8)
            guard !zip(bytes, bytes.dropFirst()).contains(where: { $0.0 >= 0x30 && $0.0 <= 0x39 && $0.1 >= 0x30 && $0.1 <= 0x39 }) else { continue }
            let fast = classifier.inferID(id), plain = KindInference.infer(from: id)
            XCTAssertEqual(fast?.0, plain?.0, id)
            XCTAssertEqual(fast?.1, plain?.1, id)
            if plain != nil { inferred += 1 }
        }
        XCTAssertGreaterThan(inferred, 1_000)
    }

    /// With digit runs, a shared classifier (its caches warm) says what a fresh one says, and IDs
    /// that differ only in the digits of a run say the same.
    func testCachesChangeNothing() {
        var rng = Rng(seed: 9)
        var shared = Classifier()
        for _ in 0..<5_000 {
            let id = randomID(&rng)
            var fresh = Classifier()
            let warm = shared.inferID(id), cold = fresh.inferID(id)
            XCTAssertEqual(warm?.0, cold?.0, id)
            XCTAssertEqual(warm?.1, cold?.1, id)
            let renumbered = id.replacingOccurrences(of: "0001", with: "987654")
            var other = Classifier()
            XCTAssertEqual(other.inferID(renumbered)?.0, cold?.0, renumbered)
        }
    }

    /// A text the word table rules out yields no word.
    func testTheWordTableNeverRulesOutAWord() {
        var rng = Rng(seed: 11)
        for _ in 0..<5_000 {
            let text = randomID(&rng)
            if KindInference.infer(from: text) != nil { XCTAssertTrue(KindInference.mayHoldWord(Array(text.utf8)), text) }
        }
    }

    /// Grouping by hashes finds the same repeats when every hash collides.
    func testRepeatsAreTheSameWhenEveryHashCollides() {
        let ids = ["a.Coins", "b", "A.coins", "B", "a.COINS", "c", "b"]
        func repeats(_ hashes: [UInt64]) -> [[Int]] {
            var found: [[Int]] = []
            IDKeys.forEachRepeat(ids, hashes: hashes, .lower) { found.append([$0, $1]) }
            return found.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }
        }
        let expected = [[1, 3], [0, 2], [0, 4], [1, 6]]
        XCTAssertEqual(repeats(ids.map { IDKeys.hash($0, .lower) }), expected.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) })
        XCTAssertEqual(repeats(Array(repeating: 42, count: ids.count)), expected.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) })
    }

    /// similar-ids on 1,500 letter IDs of mixed lengths (substitutions, insertions, same-length
    /// families) finds exactly what all pairs find.
    func testSimilarIDsOnLettersMatchesAllPairs() {
        var rng = Rng(seed: 3)
        var ids: [String] = []
        var seen = Set<String>()
        while ids.count < 1_500 {
            let word = String(decoding: (0..<(3 + Int(rng.next() % 3))).map { _ in UInt8(0x61 + rng.next() % 6) }, as: UTF8.self)
            if seen.insert(word).inserted { ids.append("com.acme.app." + word) }
        }
        let products = CatalogLoader.merge(ids.enumerated().map {
            ProductOccurrence(id: $1, location: SourceLocation(path: "p", line: $0 + 1), role: .productList)
        })
        let catalog = Catalog(name: "r", files: [], bundleID: nil, products: products, loadDiagnostics: [])
        let found = Set(SimilarIDsRule().check(catalog, options: ValidationOptions()).map(\.location.line))
        var expected = Set<Int>()
        let bytes = ids.map { Array($0.utf8) }
        for j in ids.indices {
            for i in 0..<j where SimilarIDsRule.oneNonDigitEdit(bytes[i], bytes[j]) { expected.insert(j + 1) }
        }
        XCTAssertGreaterThan(expected.count, 100)
        XCTAssertEqual(found, expected)
    }
}

struct Rng {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
