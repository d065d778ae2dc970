import Foundation
import XCTest

/// Folders as they come from pull requests and the internet: a FIFO, a socket, a folder named
/// like a plist, links that loop, lead outside or to nothing, and a second link to a catalog file.
/// Nothing is waited on, nothing read twice, and the real catalog beside them is checked as if
/// they were not there. Every run is under timeout(1), so a hang fails the test, not CI.
final class HostileFolderTests: XCTestCase {
    func makeFolder() throws -> (root: URL, outside: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-hostile-\(UUID().uuidString)")
        let root = base.appendingPathComponent("repo"), app = root.appendingPathComponent("App")
        let outside = base.appendingPathComponent("outside")
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: app.appendingPathComponent("dir.plist"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        for name in ["IAP_ProductIDs.plist", "Metadata.plist", "Info.plist", "FakeGame.storekit"] {
            try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/\(name)"),
                                             to: app.appendingPathComponent(name))
        }
        try "<plist><array><string>com.elsewhere.x</string></array></plist>\n"
            .write(to: outside.appendingPathComponent("Other_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("loop").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("Linked_ProductIDs.plist").path,
                                  withDestinationPath: outside.appendingPathComponent("Other_ProductIDs.plist").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Again_ProductIDs.plist").path, withDestinationPath: "App/IAP_ProductIDs.plist")
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("dead.plist").path, withDestinationPath: "/nonexistent/x.plist")
        XCTAssertEqual(mkfifo(app.appendingPathComponent("pipe.plist").path, 0o644), 0)
        XCTAssertEqual(mkfifo(app.appendingPathComponent("Shop.swift").path, 0o644), 0)
        let socket = try IAPRunner.runProgram("/usr/bin/env", ["python3", "-c",
            "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", app.appendingPathComponent("sock.plist").path])
        XCTAssertEqual(socket.status, 0, socket.stderr)
        return (root, outside)
    }

    func iap(_ arguments: [String]) throws -> IAPRunner.Result {
        try IAPRunner.runProgram("/usr/bin/timeout", ["30", IAPRunner.binary.path] + arguments)
    }

    func testAWalkPassesOverWhatItMustNotReadAndChecksTheRest() throws {
        let (root, outside) = try makeFolder()
        let result = try iap(["validate", "--verbose", root.path])
        let plain = try iap(["validate", "catalogs/FakeGame"])
        XCTAssertEqual(result.status, plain.status)
        // The same single finding as the catalog alone, once.
        XCTAssertEqual(result.stdout.replacingOccurrences(of: root.path + "/App", with: "catalogs/FakeGame"), plain.stdout)
        let app = root.appendingPathComponent("App").path
        XCTAssertEqual(result.stderr, """
            iap: passed over \(root.path)/Again_ProductIDs.plist: a link to \(app)/IAP_ProductIDs.plist, which is read there
            iap: passed over \(app)/Linked_ProductIDs.plist: a link to \(outside.path)/Other_ProductIDs.plist, outside the folders checked: not followed
            iap: passed over \(app)/dead.plist: a link to nothing
            iap: passed over \(app)/loop: a link to \(root.path), a folder already checked: not walked again
            iap: passed over \(app)/pipe.plist: a FIFO, not a regular file: not read
            iap: passed over \(app)/sock.plist: a socket, not a regular file: not read
            iap: passed over \(root.path)/out: a link to \(outside.path), outside the folders checked: not followed
            4 files checked: 0 errors, 0 warnings, 1 info, 3 products in 1 catalog

            """)
    }

    func testNamedSpecialFilesAreRefusedNotWaitedOn() throws {
        let (root, _) = try makeFolder()
        let app = root.appendingPathComponent("App").path
        let fifo = try iap(["validate", "\(app)/pipe.plist"])
        XCTAssertEqual(fifo.status, 2)
        XCTAssertEqual(fifo.stderr, "iap: error: \(app)/pipe.plist: cannot read: a FIFO, not a regular file\n")
        let swift = try iap(["lint", "\(app)/Shop.swift"])
        XCTAssertEqual(swift.status, 1)
        XCTAssertEqual(swift.stdout, "\(app)/Shop.swift: error: a FIFO, not a regular file: not read [unreadable-source]\n")
        // A walk passes the FIFO over; with nothing else to lint, the run says so.
        let walked = try iap(["lint", app, "--catalog", app])
        XCTAssertEqual(walked.status, 2, walked.stderr)
        XCTAssertTrue(walked.stderr.hasSuffix("iap: error: no source file to lint in \(app): iap lints .swift, .m, .mm and .h files; test files and folders are skipped without --include-tests\n"), walked.stderr)
        let sales = try iap(["report", "--sales", "\(app)/pipe.plist"])
        XCTAssertEqual(sales.status, 2)
        XCTAssertEqual(sales.stderr, "iap: error: \(app)/pipe.plist: a FIFO, not a report file\n")
    }
}

/// Option values that cannot be meant are usage errors (exit 64) that say what is wrong.
final class BadArgumentTests: XCTestCase {
    func firstLine(_ arguments: [String]) throws -> (Int32, String) {
        let result = try IAPRunner.run(arguments)
        return (result.status, String(result.stderr.split(separator: "\n").first ?? ""))
    }

    func testBadOptionValuesSayWhatIsWrong() throws {
        let cases: [([String], String)] = [
            (["validate", "catalogs/FakeGame", "--display-name-limit", "-5"],
             "Error: --display-name-limit must be a positive number of characters (found -5)"),
            (["validate", "catalogs/FakeGame", "--description-limit", "0"],
             "Error: --description-limit must be a positive number of characters (found 0)"),
            (["validate", "catalogs/FakeGame", "--bundle-id", ""],
             "Error: The value '' is invalid for '--bundle-id <bundle-id>': not a bundle ID: use letters, digits, '-' and '.', as in com.example.app"),
            (["list", "catalogs/FakeGame", "--bundle-id", "com..acme"],
             "Error: The value 'com..acme' is invalid for '--bundle-id <bundle-id>': not a bundle ID: use letters, digits, '-' and '.', as in com.example.app"),
            (["check", "--bundle-id", "com.acme app"],
             "Error: The value 'com.acme app' is invalid for '--bundle-id <bundle-id>': not a bundle ID: use letters, digits, '-' and '.', as in com.example.app"),
            (["validate", "catalogs/FakeGame", "--require-locale", "xx_YY"],
             "Error: The value 'xx_YY' is invalid for '--require-locale <require-locale>': not a locale: use a language and region, as in en-US, de-DE or zh-Hans"),
        ]
        for (arguments, expected) in cases {
            let (status, line) = try firstLine(arguments)
            XCTAssertEqual(status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(line, expected)
        }
        for locale in ["en-US", "de_DE", "zh-Hans", "es-419", "pt-BR"] {
            XCTAssertEqual(try IAPRunner.run(["validate", "catalogs/FakeGame", "--require-locale", locale]).status, 0, locale)
        }
    }
}
