import Diagnostics
import XCTest
@testable import IAPCatalog

/// The collector keeps what sorting every finding and keeping the first `limit` kept, and builds
/// a finding only when it may keep it.
final class FindingCollectorTests: XCTestCase {
    let rule = PlaceholderPrefixRule.description

    func at(_ line: Int, _ column: Int = 2) -> SourceLocation {
        SourceLocation(path: "IAP_ProductIDs.plist", line: line, column: column)
    }

    /// Offers a finding at `line` saying `message` (by default where it is), counting the builds.
    func offer(_ line: Int, _ message: String? = nil, to collector: inout FindingCollector, builds: inout Int) {
        let location = at(line)
        collector.add(at: location) {
            builds += 1
            return rule.finding(message ?? "at \(line)", at: location)
        }
    }

    func lines(_ found: [Diagnostic]) -> [String] {
        found.map { "\($0.location.line): \($0.message)" }
    }

    func summary(_ more: Int, of all: Int, first limit: Int) -> String {
        "\(more) more 'placeholder-prefix' findings not shown (\(all) in all, the first \(limit) above): "
            + "one cause is likely behind them all; fix it and run again"
    }

    func testFewerThanTheLimitAreAllKeptInTheOrderOffered() {
        var collector = FindingCollector(limit: 3)
        var builds = 0
        for line in [7, 5] { offer(line, to: &collector, builds: &builds) }
        XCTAssertEqual(lines(collector.findings(of: rule)), ["7: at 7", "5: at 5"])
        XCTAssertEqual(collector.count, 2)
        XCTAssertEqual(builds, 2)
    }

    func testExactlyTheLimitIsKeptWithoutASummary() {
        var collector = FindingCollector(limit: 3)
        var builds = 0
        for line in [9, 4, 6] { offer(line, to: &collector, builds: &builds) }
        XCTAssertEqual(lines(collector.findings(of: rule)), ["9: at 9", "4: at 4", "6: at 6"])
        XCTAssertEqual(builds, 3)
    }

    func testOneOverTheLimitKeepsTheFirstInOutputOrderAndASummaryAtTheFirst() {
        var collector = FindingCollector(limit: 3)
        var builds = 0
        for line in [4, 1, 3, 2] { offer(line, to: &collector, builds: &builds) }
        let found = collector.findings(of: rule)
        XCTAssertEqual(lines(found), ["1: at 1", "2: at 2", "3: at 3", "1: " + summary(1, of: 4, first: 3)])
        XCTAssertEqual(found.last?.location.description, "IAP_ProductIDs.plist:1:2")
        XCTAssertEqual(found.last?.severity, .warning)
        XCTAssertEqual(found.last?.ruleID, "placeholder-prefix")
        // 2 is before 3, the last kept once 1 came: built.
        XCTAssertEqual(builds, 4)
    }

    func testOffersOutOfOrderKeepTheSmallest() {
        var collector = FindingCollector(limit: 3)
        var builds = 0
        for line in [10, 2, 8, 1, 9, 3, 7, 4, 6, 5] { offer(line, to: &collector, builds: &builds) }
        XCTAssertEqual(lines(collector.findings(of: rule)), ["1: at 1", "2: at 2", "3: at 3", "1: " + summary(7, of: 10, first: 3)])
        XCTAssertEqual(collector.count, 10)
        // Full after 10, 2, 8 (largest 10): 1 built (largest 8), 9 not, 3 built (largest 3), then none.
        XCTAssertEqual(builds, 5)
    }

    func testAtTheSameLocationTheMessageDecides() {
        var collector = FindingCollector(limit: 2)
        var builds = 0
        offer(1, "b", to: &collector, builds: &builds)
        offer(2, "m", to: &collector, builds: &builds)
        // At the last kept one's location: built, and kept only when its message sorts first.
        offer(2, "z", to: &collector, builds: &builds)
        offer(2, "a", to: &collector, builds: &builds)
        offer(2, "m", to: &collector, builds: &builds)
        XCTAssertEqual(builds, 5)
        XCTAssertEqual(lines(collector.findings(of: rule)), ["1: b", "2: a", "1: " + summary(3, of: 5, first: 2)])
    }

    func testEqualFindingsKeepTheOneOfferedFirst() {
        // Same location and message, told apart by their fix: the first offered is kept, as a
        // stable sort of every finding keeps it.
        var collector = FindingCollector(limit: 1)
        collector.add(rule.finding("same", at: at(3), fix: SuggestedFix("first")))
        collector.add(rule.finding("same", at: at(3), fix: SuggestedFix("second")))
        let found = collector.findings(of: rule)
        XCTAssertEqual(found.first?.fix?.message, "first")
        XCTAssertEqual(found.map(\.message), ["same", summary(1, of: 2, first: 1)])
    }

    func testAFindingAfterTheLastKeptIsCountedAndNeverBuilt() {
        var collector = FindingCollector(limit: 2)
        var builds = 0
        offer(1, to: &collector, builds: &builds)
        offer(2, to: &collector, builds: &builds)
        for line in 3...10_000 { offer(line, to: &collector, builds: &builds) }
        XCTAssertEqual(builds, 2)
        XCTAssertEqual(collector.count, 10_000)
        // A later column of the same line, or a later path, is after too.
        collector.add(at: at(2, 3)) { builds += 1; return rule.finding("later column", at: at(2, 3)) }
        let laterPath = SourceLocation(path: "Z.plist", line: 1, column: 1)
        collector.add(at: laterPath) { builds += 1; return rule.finding("later path", at: laterPath) }
        XCTAssertEqual(builds, 2)
        // Before the last kept: built and kept.
        offer(0, to: &collector, builds: &builds)
        XCTAssertEqual(builds, 3)
        XCTAssertEqual(lines(collector.findings(of: rule)), ["0: at 0", "1: at 1", "0: " + summary(10_001, of: 10_003, first: 2)])
    }

    func testWithoutALimitEveryFindingIsBuiltAndKeptInTheOrderOffered() {
        var collector = FindingCollector(limit: nil)
        var builds = 0
        for line in [3, 1, 2, 1] { offer(line, to: &collector, builds: &builds) }
        XCTAssertEqual(builds, 4)
        XCTAssertEqual(lines(collector.findings(of: rule)), ["3: at 3", "1: at 1", "2: at 2", "1: at 1"])
    }

    /// `capped` (what `iap convert` caps with) keeps what sorting all and keeping the first does.
    func testCappedKeepsWhatSortingEveryFindingKeeps() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<50 {
            let found = (0..<next(40)).map { _ in
                rule.finding("m\(next(3))", at: SourceLocation(path: ["A.plist", "B.plist"][next(2)], line: next(6), column: next(3)))
            }
            let limit = 1 + next(12)
            let expected: [Diagnostic]
            if found.count <= limit {
                expected = found
            } else {
                let sorted = found.enumerated().sorted { a, b in
                    let (x, y) = (a.element, b.element)
                    let kx = (x.location.path, x.location.line, x.location.column), ky = (y.location.path, y.location.line, y.location.column)
                    if kx != ky { return kx < ky }
                    if x.message != y.message { return x.message < y.message }
                    return a.offset < b.offset
                }.map(\.element)
                expected = Array(sorted.prefix(limit)) + [rule.finding(summary(found.count - limit, of: found.count, first: limit), at: sorted[0].location)]
            }
            XCTAssertEqual(CatalogValidator.capped(found, of: rule, to: limit), expected, "round \(round)")
            XCTAssertEqual(CatalogValidator.capped(found, of: rule, to: nil), found)
        }
    }

    func testARuleOverFiftyThousandPlaceholderIDsKeepsAHundredAndCountsTheRest() {
        let occurrences = (0..<50_000).map { i in
            ProductOccurrence(id: "com.example.coins.pack\(i)", location: SourceLocation(path: "IAP_ProductIDs.plist", line: 5 + i, column: 2),
                              role: .productList)
        }
        let catalog = Catalog(name: "big", files: [], bundleID: Located("com.acme.app", at: SourceLocation(path: "--bundle-id")),
                              products: CatalogLoader.merge(occurrences), loadDiagnostics: [])
        var collector = FindingCollector(limit: 100)
        PlaceholderPrefixRule().check(catalog, options: ValidationOptions(), into: &collector)
        XCTAssertEqual(collector.count, 50_000)
        let found = collector.findings(of: PlaceholderPrefixRule.description)
        XCTAssertEqual(found.count, 101)
        XCTAssertEqual(found.prefix(100).map(\.location.line), Array(5...104))
        XCTAssertEqual(found[0].message, "product ID 'com.example.coins.pack0' uses the placeholder prefix 'com.example.'")
        XCTAssertEqual(found[100].message, summary(49_900, of: 50_000, first: 100))
        XCTAssertEqual(found[100].location.description, "IAP_ProductIDs.plist:5:2")
        // The same as the rule's findings, every one built, capped afterwards.
        XCTAssertEqual(found, CatalogValidator.capped(PlaceholderPrefixRule().check(catalog, options: ValidationOptions()),
                                                      of: PlaceholderPrefixRule.description, to: 100))
    }
}
