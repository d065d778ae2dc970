import Diagnostics
import Foundation
import IAPTool
import XCTest

/// How every command ends: the failure, the parts and the files of a run, and the status each gives.
final class CommandOutcomeTests: XCTestCase {
    func testAFailureIsItsMessageAndItsStatus() {
        let usage = CommandOutcome(.usage("give an AMOUNT, or --catalog PATH"))
        XCTAssertEqual(usage.stderr, "iap: error: give an AMOUNT, or --catalog PATH\n")
        XCTAssertEqual(usage.stdout, "")
        XCTAssertEqual(usage.status, .usage)
        XCTAssertEqual(CommandOutcome(.cannotRun("x: no such file")).status, .cannotRun)
    }

    func testAFailureAfterNotesKeepsThemAndTheWorseStatus() {
        var outcome = CommandOutcome(stderr: "iap: passed over a.plist: not a catalog\n", status: .findings)
        outcome.fail(.cannotRun("no catalog found in ."))
        XCTAssertEqual(outcome.stderr, "iap: passed over a.plist: not a catalog\niap: error: no catalog found in .\n")
        XCTAssertEqual(outcome.status, .cannotRun)
        outcome.fail(ToolFailure("late", status: .findings))
        XCTAssertEqual(outcome.status, .cannotRun, "a failure never lowers the status")
    }

    func testPartsAreSaidInOrderWithTheWorseStatus() {
        var first = CommandOutcome(stdout: "a\n", stderr: "one\n", status: .clean)
        first.closing = "wrote a\n"
        var second = CommandOutcome(stdout: "b\n", stderr: "two\n", status: .findings)
        second.closing = "wrote b\n"
        second.errors = "iap: error: b\n"
        first.append(second)
        XCTAssertEqual(first.stdout, "a\nb\n")
        XCTAssertEqual(first.stderr, "one\ntwo\n")
        XCTAssertEqual(first.closing, "wrote a\nwrote b\n")
        XCTAssertEqual(first.errors, "iap: error: b\n")
        XCTAssertEqual(first.status, .findings)
        first.append(CommandOutcome())
        XCTAssertEqual(first.status, .findings, "a clean part never lowers the status")
    }

    func testFilesAreWrittenWithTheirNotesAndAFileNotWrittenIsStatus2() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-outcome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("iap.sarif").path
        let summary = folder.appendingPathComponent("summary.md").path
        try "# before\n".write(toFile: summary, atomically: true, encoding: .utf8)
        var outcome = CommandOutcome(stdout: "results\n", status: .findings)
        outcome.closing = "4 files checked\n"
        outcome.errors = "iap: error: x.swift: cannot read\n"
        outcome.files = [
            OutputContent(path: report, content: "{}\n", note: "iap: wrote the report"),
            OutputContent(path: folder.appendingPathComponent("missing/iap.xml").path, content: "<x/>\n"),
            OutputContent(path: summary, content: "## iap\n", append: true, label: "the job summary (GITHUB_STEP_SUMMARY)"),
            OutputContent(path: folder.path, content: "## iap\n", append: true, label: "the job summary (GITHUB_STEP_SUMMARY)"),
        ]
        let ended = outcome.writingFiles()
        XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "{}\n")
        XCTAssertEqual(try String(contentsOfFile: summary, encoding: .utf8), "# before\n## iap\n")
        XCTAssertEqual(ended.written, [report])
        XCTAssertEqual(ended.files.count, 0)
        XCTAssertEqual(ended.closing, "4 files checked\niap: wrote the report\n")
        let errors = ended.errors.split(separator: "\n").map(String.init)
        XCTAssertEqual(errors.count, 3, ended.errors)
        XCTAssertEqual(errors[0], "iap: error: x.swift: cannot read")
        XCTAssertTrue(errors[1].hasPrefix("iap: error: output folder '\(folder.path)/missing' does not exist"), errors[1])
        XCTAssertTrue(errors[2].hasPrefix("iap: error: the job summary (GITHUB_STEP_SUMMARY): "), errors[2])
        XCTAssertEqual(ended.status, .cannotRun)
        XCTAssertEqual(ended.stdout, "results\n")
    }

    func testFilesAllWrittenKeepTheStatus() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-outcome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var outcome = CommandOutcome(status: .findings)
        outcome.files = [OutputContent(path: folder.appendingPathComponent("a.json").path, content: "{}\n")]
        XCTAssertEqual(outcome.writingFiles().status, .findings)
        XCTAssertEqual(CommandOutcome().writingFiles().status, .clean)
    }

    /// `price` and `plist print` ended with literal codes (64, 1); they end through the table now.
    func testJobsEndWithTheTablesStatuses() throws {
        var price = PriceJob()
        price.amount = "0.99"
        price.currency = "EURO"
        price.locale = "de_DE"
        let refused = price.run()
        XCTAssertEqual(refused.status, .usage)
        XCTAssertEqual(refused.stderr, "iap: error: 'EURO' is not an ISO 4217 currency code Foundation knows (e.g. USD, EUR, JPY)\n")
        price.currency = "EUR"
        XCTAssertEqual(price.run().stdout, "0,99\u{A0}€\n")
        XCTAssertEqual(price.run().status, .clean)
        XCTAssertEqual(PriceJob().run().stderr, "iap: error: give an AMOUNT, or --catalog PATH\n")
        XCTAssertEqual(PriceJob().run().status, .usage)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-outcome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.plist").path
        try "<plist><dict>".write(toFile: broken, atomically: true, encoding: .utf8)
        let printed = PlistJob.print(broken, format: .json)
        XCTAssertEqual(printed.status, .findings)
        XCTAssertTrue(printed.stderr.hasPrefix("\(broken):1:"), printed.stderr)
        XCTAssertEqual(PlistJob.print(folder.appendingPathComponent("none.plist").path, format: .json).status, .cannotRun)
        let linted = PlistJob.lint([broken, folder.appendingPathComponent("none.plist").path], plan: ReportPlan())
        XCTAssertEqual(linted.status, .cannotRun)
        XCTAssertEqual(linted.stdout, "", "nothing is reported when a file could not be looked at")
    }
}
