import IAPCatalog
import XCTest
@testable import IAPTool

/// `rules.ID.limit` in `iap.yml` reaches every rule that takes a limit, not only the two the
/// command line names (following docs/contributing.md once, a new rule's limit was accepted and
/// then never used).
final class ValidateLimitsTests: XCTestCase {
    func testEveryConfiguredLimitReachesTheRules() throws {
        var configuration = Configuration()
        configuration.limits = ["some-new-rule": 7, DisplayNameTooLongRule.id: 20]
        var job = ValidateJob(configuration: configuration)
        var options = try job.options()
        XCTAssertEqual(options.limits["some-new-rule"], 7)
        XCTAssertEqual(options.limits[DisplayNameTooLongRule.id], 20)
        // A limit set nowhere is the rule's own default, which only the rule states.
        XCTAssertNil(options.limits[DescriptionTooLongRule.id])
        XCTAssertEqual(options.descriptionLimit, 55)
        // The command line's --display-name-limit wins over the file's.
        job.displayNameLimit = 30
        options = try job.options()
        XCTAssertEqual(options.limits[DisplayNameTooLongRule.id], 30)
        XCTAssertEqual(options.limits["some-new-rule"], 7)
    }
}
