import Foundation
import XCTest

/// `-o FILE` in every command that reports findings (`validate`, `check`, `lint`, `plist lint`,
/// `asc diff`): the report that would go to stdout, in its `--format`, written to FILE instead;
/// stdout empty, the summary line on stderr, the same exit status. Each expectation is the output of
/// the same run without `-o`, so the file holds byte for byte what stdout would have.
final class OutputOptionTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cat"), withIntermediateDirectories: true)
        for name in ["IAP_ProductIDs.plist", "Metadata.plist", "Info.plist", "FakeGame.storekit"] {
            try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/\(name)"),
                                             to: folder.appendingPathComponent("cat/\(name)"))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try "let price = \"$0.99\"\n".write(to: folder.appendingPathComponent("Sources/Shop.swift"), atomically: false, encoding: .utf8)
        try "bundle-id: com.appcoda.FakeGame\ncatalogs: [cat]\nlint: {paths: [Sources]}\n"
            .write(to: folder.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func iap(_ arguments: [String]) throws -> IAPRunner.Result {
        try IAPRunner.runProgram("/usr/bin/timeout", ["60", IAPRunner.binary.path] + arguments, in: folder)
    }

    func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }

    /// Every reporting command, in text and in another format: the file is what stdout was, stdout
    /// is empty, stderr is what it was plus (for a format other than text) the summary line that
    /// text output has, and the status is the same.
    func testTheFileHoldsWhatStdoutWouldHaveInEveryCommandAndFormat() throws {
        let commands: [[String]] = [
            ["validate", "cat"],
            ["check"],
            ["lint", "Sources", "--catalog", "cat"],
            ["plist", "lint", "cat/Info.plist", "cat/Metadata.plist"],
        ]
        var checked = 0
        for command in commands {
            let plain = try iap(command)
            XCTAssertNotEqual(plain.stdout, "", "\(command)")
            for (format, file) in [("text", "out.txt"), ("sarif", "out.sarif"), ("json", "out.json"), ("junit", "out.xml")] {
                let formatted = format == "text" ? plain : try iap(command + ["--format", format])
                let written = try iap(command + ["--format", format, "-o", file])
                XCTAssertEqual(written.status, plain.status, "\(command) \(format): \(written.stderr)")
                XCTAssertEqual(written.stdout, "", "\(command) \(format)")
                XCTAssertEqual(try text(file), formatted.stdout, "\(command) \(format)")
                // The summary a text run says on stderr, said with -o whatever the format.
                XCTAssertEqual(written.stderr, plain.stderr, "\(command) \(format)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 4 * 4)
    }

    /// The long name, and `iap.yml`'s `format:` (`check`'s) choosing the form when --format is not given.
    func testTheLongNameAndTheConfiguredFormat() throws {
        let sarif = try iap(["validate", "cat", "--format", "sarif"])
        XCTAssertEqual(try iap(["validate", "cat", "--format", "sarif", "--output", "long.sarif"]).status, sarif.status)
        XCTAssertEqual(try text("long.sarif"), sarif.stdout)
        let checked = try iap(["check", "--format", "sarif"])
        try "bundle-id: com.appcoda.FakeGame\ncatalogs: [cat]\nlint: {paths: [Sources]}\nformat: sarif\n"
            .write(to: folder.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try iap(["check", "-o", "configured.sarif"]).status, checked.status)
        XCTAssertEqual(try text("configured.sarif"), checked.stdout)
    }

    /// With --report: both written, each in its own format, as separate runs write them.
    func testWithReportBothAreWritten() throws {
        let sarif = try iap(["validate", "cat", "--format", "sarif"])
        let junit = try iap(["validate", "cat", "--format", "junit"])
        let both = try iap(["validate", "cat", "--format", "sarif", "-o", "main.sarif", "--report", "junit:side.xml"])
        XCTAssertEqual(both.status, sarif.status, both.stderr)
        XCTAssertEqual(both.stdout, "")
        XCTAssertEqual(try text("main.sarif"), sarif.stdout)
        XCTAssertEqual(try text("side.xml"), junit.stdout)
        // The same file twice is refused before anything runs.
        let twice = try iap(["validate", "cat", "--format", "sarif", "-o", "same.sarif", "--report", "sarif:same.sarif"])
        XCTAssertEqual(twice.status, 64)
        XCTAssertEqual(twice.stderr, "iap: error: -o same.sarif: --report sarif:same.sarif writes the same file; give one of them another path\n")
        XCTAssertFalse(exists("same.sarif"))
    }

    /// A name that says another format than the report's is refused (exit 64) before anything is
    /// written: a text report in `out.sarif` would fail the SARIF upload far from this run.
    func testANameForAnotherFormatIsRefused() throws {
        let cases: [([String], String)] = [
            (["-o", "out.sarif"], "iap: error: -o out.sarif: 'out.sarif' is named for sarif, but the report is text; add --format sarif, or name the file for text\n"),
            (["--format", "json", "-o", "out.xml"], "iap: error: -o out.xml: 'out.xml' is named for junit or checkstyle, but the report is json; add --format junit or --format checkstyle, or name the file for json\n"),
            (["--format", "junit", "-o", "OUT.JSON"], "iap: error: -o OUT.JSON: 'OUT.JSON' is named for json or sarif or gitlab, but the report is junit; add --format json or --format sarif or --format gitlab, or name the file for junit\n"),
            (["--report", "text:out.md"], "iap: error: --report text:out.md: 'out.md' is named for markdown, but the report is text; write markdown:out.md, or name the file for text\n"),
        ]
        for (arguments, message) in cases {
            let result = try iap(["validate", "cat"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            if arguments[0] == "--report" {
                // Refused while the arguments are parsed, as argument-parser says it (with the usage after).
                XCTAssertTrue(result.stderr.hasPrefix(message.replacingOccurrences(of: "iap: error: ", with: "Error: ")), "\(arguments): \(result.stderr)")
            } else {
                XCTAssertEqual(result.stderr, message, "\(arguments)")
            }
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["Sources", "cat", "iap.yml"])
        // Names that say nothing, and the ones that fit, are taken: SARIF is JSON.
        for (format, name) in [("text", "out.log"), ("text", "out"), ("sarif", "out.json"), ("markdown", "out.markdown"), ("github", "out.txt")] {
            XCTAssertNotEqual(try iap(["validate", "cat", "--format", format, "-o", name]).status, 64, "\(format) \(name)")
            XCTAssertTrue(exists(name), name)
        }
    }

    /// Where the file cannot be written: a clear error naming it, exit 2, the other outputs
    /// written, nothing left half-written, and what stood there untouched.
    func testAPathThatCannotBeWrittenIsAClearErrorWithExit2() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dangling").path, withDestinationPath: "nowhere/x.txt")
        let cases: [(String, String)] = [
            ("dir", "cannot write 'dir': it is a folder; name a file inside it"),
            ("dangling", "cannot write 'dangling': it is a link to 'nowhere/x.txt', which does not exist; create that file first, or remove the link"),
            ("missing/out.txt", "output folder 'missing' does not exist; create it first (it is not created silently)"),
        ]
        let plain = try iap(["validate", "cat"])
        for (path, message) in cases {
            let result = try iap(["validate", "cat", "-o", path, "--report", "junit:side.xml"])
            XCTAssertEqual(result.status, 2, path)
            XCTAssertEqual(result.stdout, "", path)
            XCTAssertEqual(result.stderr, plain.stderr + "iap: error: \(message)\n", path)
            XCTAssertTrue(exists("side.xml"), path)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("side.xml"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("dir").path), [])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("dangling").path), "nowhere/x.txt")
        XCTAssertFalse(exists("missing"))
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains(".iap-") }, [])
    }

    /// A folder iap may not write in (as a user without root: root writes anywhere).
    func testAFolderWithoutWritePermissionIsAClearError() throws {
        guard geteuid() != 0 else { throw XCTSkip("running as root: a folder's mode does not stop root writing in it") }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(locked.path, 0o555), 0)
        defer { chmod(locked.path, 0o755) }
        let result = try iap(["validate", "cat", "-o", "locked/out.txt"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasSuffix("iap: error: cannot write 'locked/out.txt': Permission denied\n"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), [])
    }

    /// A run that fails before it reports writes no file: nothing half-written or stale.
    func testAFailedRunWritesNoFile() throws {
        let result = try iap(["validate", "no-such-catalog", "-o", "out.txt"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(exists("out.txt"))
    }
}
