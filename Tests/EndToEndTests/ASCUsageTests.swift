import Foundation
import TestSupport
import XCTest

/// `iap asc` takes what the command line leaves out from `iap.yml`'s `asc:` section (the tool
/// library does, `ASCJob.PullRequest` and `ASCJob.diffSnapshot`); what neither gives is a usage
/// error naming both places, before any request.
final class ASCUsageTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-asc-usage" }

    func testWhatNeitherTheCommandLineNorIapYmlGivesIsNamed() throws {
        let cases: [([String], String)] = [
            (["asc", "pull"], "iap: error: name the app: --app BUNDLE_ID (or its Apple ID), or asc: app: in iap.yml\n"),
            (["asc", "pull", "--app", "com.acme.app"], "iap: error: name what to write: --snapshot FILE (or asc: snapshot: in iap.yml), or -o FILE.storekit\n"),
            (["asc", "diff"], "iap: error: name the snapshot: --snapshot FILE, or asc: snapshot: in iap.yml\n"),
        ]
        for (arguments, message) in cases {
            let result = try IAPRunner.run(arguments, in: folder)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr, message)
        }
    }

    func testIapYmlGivesTheAppAndTheSnapshot() throws {
        // The app and snapshot come from iap.yml: the pull goes on to need a key, which the
        // environment lacks here: the error is about the key, not about what was left out.
        try write("iap.yml", "asc:\n  app: com.acme.app\n  snapshot: asc.json\n")
        let pull = try IAPRunner.run(["asc", "pull"], in: folder, environment: ["IAP_ASC_ISSUER_ID": "", "IAP_ASC_KEY_ID": "",
                                                                             "IAP_ASC_PRIVATE_KEY": "", "IAP_ASC_PRIVATE_KEY_PATH": ""])
        XCTAssertEqual(pull.status, 2)
        XCTAssertTrue(pull.stderr.hasPrefix("iap: error: no App Store Connect API key: set IAP_ASC_ISSUER_ID, "), pull.stderr)
        let diff = try IAPRunner.run(["asc", "diff"], in: folder)
        XCTAssertEqual(diff.status, 2)
        XCTAssertEqual(diff.stderr, "iap: error: cannot read the snapshot asc.json: no such file or directory\n")
    }
}
