import Diagnostics
import XCTest
@testable import IAPCatalog

/// A rule that fires on most of a large catalog reports the first hundred findings and one summary;
/// the findings are the same whatever the number of threads the rules run on.
final class FindingsAtScaleTests: XCTestCase {
    /// `count` placeholder IDs, one per line from line 5, listed in reverse line order so that
    /// "the first hundred" must mean output order, not the order a rule met them in.
    func placeholderCatalog(_ count: Int) -> Catalog {
        let occurrences = (0..<count).reversed().map { i in
            ProductOccurrence(id: "com.example.coins.pack\(i)", location: SourceLocation(path: "IAP_ProductIDs.plist", line: 5 + i, column: 2),
                              role: .productList)
        }
        return Catalog(name: "big", files: [], bundleID: Located("com.acme.app", at: SourceLocation(path: "--bundle-id")),
                       products: CatalogLoader.merge(occurrences), loadDiagnostics: [])
    }

    func placeholderFindings(_ catalog: Catalog, _ options: ValidationOptions) -> [Diagnostic] {
        CatalogValidator(options: options).validate(catalog).filter { $0.ruleID == "placeholder-prefix" }
    }

    func testARuleThatFiresOnEveryProductReportsTheFirstHundredAndASummary() {
        let found = placeholderFindings(placeholderCatalog(250), ValidationOptions())
        XCTAssertEqual(found.count, 101)
        XCTAssertEqual(found.filter { $0.message.hasPrefix("product ID ") }.map(\.location.line), Array(5...104))
        let summary = found.filter { !$0.message.hasPrefix("product ID ") }
        XCTAssertEqual(summary.map(\.message), [
            "150 more 'placeholder-prefix' findings not shown (250 in all, the first 100 above): one cause is likely behind them all; fix it and run again",
        ])
        XCTAssertEqual(summary.map(\.location.description), ["IAP_ProductIDs.plist:5:2"])
        XCTAssertEqual(summary.map(\.severity), [.warning])
    }

    func testAtTheLimitEveryFindingIsReported() {
        let found = placeholderFindings(placeholderCatalog(100), ValidationOptions())
        XCTAssertEqual(found.count, 100)
        XCTAssertTrue(found.allSatisfy { $0.message.hasPrefix("product ID ") })
    }

    func testNoLimitReportsEveryFinding() {
        XCTAssertEqual(placeholderFindings(placeholderCatalog(250), ValidationOptions(findingsPerRule: nil)).count, 250)
        XCTAssertEqual(placeholderFindings(placeholderCatalog(250), ValidationOptions(findingsPerRule: 10)).count, 11)
    }

    func testFindingsAreTheSameOnOneThreadAndOnFour() {
        // Large enough for the rules to run in parallel (2,000 products and up).
        let catalog = placeholderCatalog(3_000)
        let one = CatalogValidator(options: ValidationOptions(jobs: 1)).validate(catalog)
        let four = CatalogValidator(options: ValidationOptions(jobs: 4)).validate(catalog)
        // Every ID is a placeholder (the first hundred and a summary), and no kind is declared (one summary).
        XCTAssertEqual(Dictionary(grouping: one, by: \.ruleID).mapValues(\.count), ["placeholder-prefix": 101, "undeclared-kind": 1])
        XCTAssertEqual(one, four)
    }
}
