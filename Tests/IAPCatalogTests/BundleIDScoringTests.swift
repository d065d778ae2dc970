import Foundation
import XCTest
@testable import IAPCatalog

/// Bundle-ID candidates are scored against the product IDs through one trie of the candidates
/// (`CandidatePrefixes`): the counts are the ones comparing every pair gives, and the work is the
/// IDs' walks, each only as far as a candidate reaches — counted here, never timed.
final class BundleIDScoringTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure replays.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Strings of pieces that join into other clusters when put together: `\r` + `\n`, a letter
    /// and a combining accent, U+0600 (a prepended mark, which joins the dot after it), `é` both
    /// ways; and characters canonically equal to ASCII ones (U+037E is ";", U+212A is "K").
    static let pieces = ["a", "b", ".", ".", "A", "\r", "\n", "\r\n", "e", "\u{301}", "é", "e\u{301}", "\u{600}", "ß",
                         ";", "\u{37E}", "K", "\u{212A}"]

    static func random(_ generator: inout Generator, upTo length: Int) -> String {
        (0..<Int.random(in: 0...length, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    func testCountsAreTheOnesComparingEveryPairGives() {
        var generator = Generator(state: 32)
        for _ in 0..<20 {
            let candidates = (0..<30).map { _ in Self.random(&generator, upTo: 5) }
            let ids = (0..<200).map { _ in Self.random(&generator, upTo: 9) }
            var prefixes = CandidatePrefixes(candidates: candidates)
            for id in ids { prefixes.count(id) }
            for (index, candidate) in candidates.enumerated() {
                XCTAssertEqual(prefixes.matches(index), ids.filter { $0.hasPrefix(candidate + ".") }.count, candidate.debugDescription)
                XCTAssertEqual(prefixes.commonPrefix(index), ids.map { zip($0, candidate).prefix { $0 == $1 }.count }.max() ?? 0,
                               candidate.debugDescription)
                XCTAssertEqual(prefixes.length(index), candidate.count, candidate.debugDescription)
            }
        }
    }

    /// 2,000 candidates against 4,000 IDs: each ID takes the steps of its own candidate and a dot
    /// (57,780 in all), where comparing every pair was 8,000,000 comparisons of whole strings.
    func testEachIDWalksOnlyAsFarAsItsCandidate() {
        let candidates = (0..<2_000).map { "com.acme.t\($0)" }
        let ids = (0..<4_000).map { "com.acme.t\($0 % 2_000).item\($0)" }
        var prefixes = CandidatePrefixes(candidates: candidates)
        for id in ids { prefixes.count(id) }
        XCTAssertEqual(prefixes.steps, ids.indices.map { "com.acme.t\($0 % 2_000).".count }.reduce(0, +))
        XCTAssertEqual(prefixes.steps, 57_780)
        for index in candidates.indices {
            XCTAssertEqual(prefixes.matches(index), 2)
            XCTAssertEqual(prefixes.commonPrefix(index), candidates[index].count)
        }
    }

    /// The resolver over an XcodeGen spec of 2,000 application targets picks the one most IDs
    /// start with, doing the same count of steps.
    func testTheResolverScoresThousandsOfTargetsInOneWalkOfTheIDs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-scoring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("project.yml")
        let targets = (0..<2_000).map { "  T\($0):\n    type: application\n    settings:\n      base:\n        PRODUCT_BUNDLE_IDENTIFIER: com.acme.t\($0)\n" }
        try ("targets:\n" + targets.joined()).write(to: spec, atomically: true, encoding: .utf8)
        let ids = (0..<4_000).map { "com.acme.t\($0 % 2_000).item\($0)" } + ["COM.ACME.T1234.extra"]
        let resolver = BundleIDResolver(bundles: [], projects: [spec.path], configurations: [], productIDs: ids)
        XCTAssertEqual(resolver.candidates.count, 2_000)
        XCTAssertEqual(resolver.bundleID?.value, "com.acme.t1234")
        XCTAssertEqual(resolver.bundleID?.location.line, 6_176)
        XCTAssertEqual(resolver.scoringSteps, 57_780 + "com.acme.t1234.".count)
    }
}
