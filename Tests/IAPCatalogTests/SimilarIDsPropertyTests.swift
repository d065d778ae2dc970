import Diagnostics
import XCTest
@testable import IAPCatalog

/// The fast similar-ids search (skeletons, shared-prefix cut, packed hash keys) must find exactly
/// the pairs an all-pairs comparison finds, on random catalogs full of near-duplicates.
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
            let catalog = Catalog(name: "r", files: [], bundleID: nil,
                                  products: CatalogLoader.merge(ids.enumerated().map {
                                      ProductOccurrence(id: $1, location: SourceLocation(path: "p", line: $0 + 1), role: .productList)
                                  }), loadDiagnostics: [])
            let found = Set(SimilarIDsRule().check(catalog, options: ValidationOptions()).map(\.location.line))
            var expected = Set<Int>()
            for j in ids.indices {
                for i in 0..<j {
                    let a = Array(ids[i].utf8), b = Array(ids[j].utf8)
                    let loose = { (x: [UInt8]) in x.filter { !SimilarIDsRule.isSeparator($0) }.map(SimilarIDsRule.lower) }
                    let sameLoose = loose(a) == loose(b)
                    let caseOnly = a.map(SimilarIDsRule.lower) == b.map(SimilarIDsRule.lower)
                    if (sameLoose && !caseOnly) || (!sameLoose && SimilarIDsRule.oneNonDigitEdit(a, b)) { expected.insert(j + 1) }
                }
            }
            XCTAssertEqual(found, expected, "round \(round): \(ids)")
        }
    }
}
