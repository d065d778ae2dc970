import Foundation
import TestSupport
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
        XCTAssertEqual(UnixSocket.make(at: app.appendingPathComponent("sock.plist").path), 0)
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
        // A target inside the folder named is said in the form the folder was named in; one
        // outside it, relative to where iap runs (the package root), never as an absolute path.
        // The shortest relative path: up to the folder both share, then down.
        let from = IAPRunner.packageRoot.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let to = outside.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let shared = zip(from, to).prefix { $0.0 == $0.1 }.count
        let outsideShown = (Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)).joined(separator: "/")
        XCTAssertEqual(result.stderr, """
            iap: passed over \(root.path)/Again_ProductIDs.plist: a link to \(app)/IAP_ProductIDs.plist, which is read there
            iap: passed over \(app)/Linked_ProductIDs.plist: a link to \(outsideShown)/Other_ProductIDs.plist, outside the folders checked: not followed
            iap: passed over \(app)/dead.plist: a link to nothing
            iap: passed over \(app)/loop: a link to \(root.path), a folder already checked: not walked again
            iap: passed over \(app)/pipe.plist: a FIFO, not a regular file: not read
            iap: passed over \(app)/sock.plist: a socket, not a regular file: not read
            iap: passed over \(root.path)/out: a link to \(outsideShown), outside the folders checked: not followed
            4 files checked: 0 errors, 0 warnings, 1 info, 3 products in 1 catalog

            """)
    }

    func testNamedSpecialFilesAreRefusedNotWaitedOn() throws {
        let (root, _) = try makeFolder()
        let app = root.appendingPathComponent("App").path
        let fifo = try iap(["validate", "\(app)/pipe.plist"])
        XCTAssertEqual(fifo.status, 2)
        XCTAssertEqual(fifo.stderr, "iap: error: \(app)/pipe.plist: cannot read: a FIFO, not a regular file\n")
        // A named source is reported like any finding, and the run ends with status 2: it could
        // not lint all it was asked to.
        let swift = try iap(["lint", "\(app)/Shop.swift"])
        XCTAssertEqual(swift.status, 2)
        XCTAssertEqual(swift.stdout, "\(app)/Shop.swift: error: a FIFO, not a regular file: not read [unreadable-source]\n")
        XCTAssertEqual(swift.stderr, """
            1 file checked: 1 error, 0 warnings, 0 infos
            iap: error: \(app)/Shop.swift: a FIFO, not a regular file: not read

            """)
        // A walk passes the FIFO over; with nothing else to lint, the run says so.
        let walked = try iap(["lint", app, "--catalog", app])
        XCTAssertEqual(walked.status, 2, walked.stderr)
        XCTAssertTrue(walked.stderr.hasSuffix("iap: error: no source file to lint in \(app): iap lints .swift, .m, .mm and .h files; test files and folders are skipped without --include-tests\n"), walked.stderr)
        let sales = try iap(["report", "--sales", "\(app)/pipe.plist"])
        XCTAssertEqual(sales.status, 2)
        XCTAssertEqual(sales.stderr, "iap: error: \(app)/pipe.plist: a FIFO, not a report file\n")
        // Every other file an option names is opened the same way: refused, never waited on.
        let pipe = "\(app)/pipe.plist", catalog = "\(app)/IAP_ProductIDs.plist", refused = "cannot read: a FIFO, not a regular file"
        let named: [([String], String)] = [
            (["plist", "lint", pipe], "iap: error: \(pipe): \(refused)\n"),
            (["plist", "print", pipe], "iap: error: \(pipe): \(refused)\n"),
            (["validate", catalog, "--retired", pipe], "iap: error: \(pipe): \(refused)\n"),
            (["validate", catalog, "--baseline", pipe], "iap: error: \(pipe): \(refused)\n"),
            (["check", "--config", pipe], "iap: error: \(pipe): \(refused)\n"),
            (["gen", catalog, "--template", pipe, "-o", root.appendingPathComponent("P.swift").path],
             "iap: error: template '\(pipe)': \(refused)\n"),
            (["convert", pipe, "-o", root.appendingPathComponent("P.storekit").path], "iap: error: \(pipe): \(refused)\n"),
            (["storekit", pipe, "-o", root.appendingPathComponent("P.storekit").path], "iap: error: \(pipe): \(refused)\n"),
        ]
        for (arguments, stderr) in named {
            let result = try iap(arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, stderr, arguments.joined(separator: " "))
        }
        // gen --check against a FIFO where the output should be: not "missing", and never read.
        let check = try iap(["gen", catalog, "-o", pipe, "--check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr, "iap: \(pipe) cannot be read (a FIFO, not a regular file): make it a readable file, or run iap gen \(catalog) -o \(pipe) to replace it\n")
        // A file that is not UTF-8 is not what gen writes: stale, not missing.
        let latin1 = root.appendingPathComponent("Latin1.swift")
        try Data([0x2F, 0x2F, 0x20, 0xE9, 0x0A]).write(to: latin1)
        let stale = try iap(["gen", catalog, "-o", latin1.path, "--check"])
        XCTAssertEqual(stale.status, 1)
        XCTAssertEqual(stale.stderr, "iap: \(latin1.path) is stale: run iap gen \(catalog) -o \(latin1.path) to update it\n")
        let folder = try iap(["plist", "lint", app])
        XCTAssertEqual(folder.status, 2)
        XCTAssertEqual(folder.stderr, "iap: error: \(app): cannot read: a folder, not a file\n")
    }

    /// A file that cannot be read stops every catalog command with exit 2 and the OS's reason,
    /// whether a walk found it or it was named, and is never called malformed. Tests run as root
    /// here, which reads any file, so iap runs as `nobody` through setpriv(1).
    func testUnreadableFilesStopTheRunWithTheOSReason() throws {
        let setpriv = "/usr/bin/setpriv"
        let asOther: [String]
        if getuid() != 0 {
            asOther = []
        } else if FileManager.default.isExecutableFile(atPath: setpriv) {
            asOther = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        } else {
            throw XCTSkip("running as root without setpriv(1): a file mode cannot make a file unreadable")
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-unreadable-\(UUID().uuidString)")
        let app = base.appendingPathComponent("App")
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        for name in ["IAP_ProductIDs.plist", "Metadata.plist", "Info.plist", "FakeGame.storekit"] {
            try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/\(name)"),
                                             to: app.appendingPathComponent(name))
        }
        // The build folder may sit in a folder only root can enter (a fresh clone in mktemp -d).
        let binary = base.appendingPathComponent("iap")
        try FileManager.default.copyItem(at: IAPRunner.binary, to: binary)
        for path in [base.path, app.path, binary.path] { chmod(path, 0o755) }
        for name in ["Metadata.plist", "FakeGame.storekit"] { chmod(app.appendingPathComponent(name).path, 0o000) }
        func run(_ arguments: [String]) throws -> IAPRunner.Result {
            let command = asOther + [binary.path] + arguments
            return try IAPRunner.runProgram("/usr/bin/timeout", ["30"] + command, in: base)
        }
        let storekit = "\(app.path)/FakeGame.storekit: cannot read: permission denied"
        for arguments in [["validate", app.path], ["list", app.path], ["report", app.path], ["price", "--catalog", app.path],
                          ["gen", app.path, "-o", base.appendingPathComponent("P.swift").path]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, "iap: error: \(storekit)\n", arguments.joined(separator: " "))
            XCTAssertEqual(result.stdout, "")
        }
        let metadata = "\(app.path)/Metadata.plist", denied = "cannot read: permission denied"
        let catalog = "\(app.path)/IAP_ProductIDs.plist"
        for arguments in [["validate", metadata], ["plist", "lint", catalog, metadata], ["plist", "print", metadata],
                          ["convert", metadata, "-o", base.appendingPathComponent("S.storekit").path],
                          ["storekit", app.path, "-o", base.appendingPathComponent("S.storekit").path],
                          ["validate", catalog, "--retired", metadata], ["validate", catalog, "--baseline", metadata],
                          ["check", "--config", metadata], ["init", app.path, "--stdout"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            let path = arguments.contains(app.path) ? "\(app.path)/FakeGame.storekit" : metadata
            XCTAssertEqual(result.stderr, "iap: error: \(path): \(denied)\n", arguments.joined(separator: " "))
            XCTAssertEqual(result.stdout, "", arguments.joined(separator: " "))
        }
        // lint: the catalog beside the sources cannot be read, so the titles and IDs cannot be checked.
        try "let count = 1\n".write(to: app.appendingPathComponent("Shop.swift"), atomically: true, encoding: .utf8)
        try "let price = 1\n".write(to: app.appendingPathComponent("Hidden.swift"), atomically: true, encoding: .utf8)
        for name in ["Shop.swift", "Hidden.swift"] { chmod(app.appendingPathComponent(name).path, 0o644) }
        let beside = try run(["lint", app.path])
        XCTAssertEqual(beside.status, 2)
        XCTAssertEqual(beside.stderr, "iap: error: \(storekit)\n")
        // An unreadable source is a finding, the others are linted, and the run exits 2.
        chmod(app.appendingPathComponent("Hidden.swift").path, 0o000)
        let sources = try run(["lint", "\(app.path)/Hidden.swift", "\(app.path)/Shop.swift"])
        XCTAssertEqual(sources.status, 2)
        XCTAssertEqual(sources.stdout, "\(app.path)/Hidden.swift: error: cannot read the file: Permission denied [unreadable-source]\n")
        XCTAssertEqual(sources.stderr, """
            2 files checked: 1 error, 0 warnings, 0 infos
            iap: error: \(app.path)/Hidden.swift: cannot read the file: Permission denied

            """)
        // check: the same through iap.yml's lint paths.
        let project = base.appendingPathComponent("Project")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Store"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/IAP_ProductIDs.plist"),
                                         to: project.appendingPathComponent("Store/IAP_ProductIDs.plist"))
        try "bundle-id: com.appcoda.fakegame\ncatalogs: [Store]\nrules:\n  undeclared-kind: off\nlint:\n  paths: [.]\n"
            .write(to: project.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: app.appendingPathComponent("Hidden.swift"), to: project.appendingPathComponent("Hidden.swift"))
        for path in [project.path, project.path + "/Store", project.path + "/Store/IAP_ProductIDs.plist", project.path + "/iap.yml"] {
            chmod(path, path.hasSuffix("Store") || path == project.path ? 0o755 : 0o644)
        }
        chmod(project.appendingPathComponent("Hidden.swift").path, 0o000)
        let check = try run(["check", "--config", project.appendingPathComponent("iap.yml").path])
        XCTAssertEqual(check.status, 2)
        XCTAssertEqual(check.stdout, "\(project.path)/Hidden.swift: error: cannot read the file: Permission denied [unreadable-source]\n")
        XCTAssertTrue(check.stderr.hasSuffix("""
            1 catalog file (3 products in 1 catalog), 1 source file checked: 1 error, 0 warnings, 0 infos
            iap: error: \(project.path)/Hidden.swift: cannot read the file: Permission denied

            """), check.stderr)
        // A sales report that cannot be opened: the others are totalled, and the run exits 2.
        let sales = base.appendingPathComponent("Sales")
        try FileManager.default.createDirectory(at: sales, withIntermediateDirectories: true)
        for name in ["S_D_80012345_20261102.txt", "S_D_80012345_20261105.txt"] {
            try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/Sales/\(name)"),
                                             to: sales.appendingPathComponent(name))
        }
        chmod(sales.path, 0o755)
        chmod(sales.appendingPathComponent("S_D_80012345_20261102.txt").path, 0o644)
        chmod(sales.appendingPathComponent("S_D_80012345_20261105.txt").path, 0o000)
        let report = try run(["report", "--sales", sales.path, "--format", "csv"])
        XCTAssertEqual(report.status, 2)
        XCTAssertEqual(report.stderr, """
            \(sales.path)/S_D_80012345_20261102.txt:5:1: warning: 'com.acme.puzzle.pro' was refunded for 1 of 10 units sold (10%) [high-refund-rate]
            \(sales.path)/S_D_80012345_20261102.txt:5:1: note: fix: read its reviews and check that its name, description and price say what it is
            \(sales.path)/S_D_80012345_20261105.txt: error: cannot open the report: Permission denied [unreadable-report]
            iap: error: \(sales.path)/S_D_80012345_20261105.txt: cannot open the report: Permission denied

            """)
        XCTAssertTrue(report.stdout.contains(",com.acme.puzzle.pro,"), report.stdout)
        // A report folder that cannot be listed says so, not "no report files".
        let locked = base.appendingPathComponent("Locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        chmod(locked.path, 0o000)
        let listing = try run(["report", "--sales", locked.path])
        XCTAssertEqual(listing.status, 2)
        XCTAssertEqual(listing.stderr, "iap: error: \(locked.path): cannot list folder: permission denied\n")
        // A subfolder a walk cannot list is passed over with the OS's reason; the rest is checked.
        let walk = base.appendingPathComponent("Walk")
        try FileManager.default.createDirectory(at: walk.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/IAP_ProductIDs.plist"),
                                         to: walk.appendingPathComponent("IAP_ProductIDs.plist"))
        chmod(walk.path, 0o755)
        chmod(walk.appendingPathComponent("IAP_ProductIDs.plist").path, 0o644)
        chmod(walk.appendingPathComponent("Sub").path, 0o000)
        let walked = try run(["list", walk.path, "--verbose"])
        XCTAssertEqual(walked.status, 0)
        XCTAssertTrue(walked.stderr.hasPrefix("iap: passed over \(walk.path)/Sub: a folder that cannot be listed (Permission denied)\n"), walked.stderr)
        // A read that fails after the file opened (EIO from /proc/self/mem) is the same.
        let mem = base.appendingPathComponent("IAP_ProductIDs.plist")
        try FileManager.default.createSymbolicLink(atPath: mem.path, withDestinationPath: "/proc/self/mem")
        let io = try IAPRunner.run(["validate", mem.path])
        XCTAssertEqual(io.status, 2)
        XCTAssertEqual(io.stderr, "iap: error: \(mem.path): cannot read: input/output error\n")
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

    func testTheSameValuesInIapYmlNameTheFileAndLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bad-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try "bundle-id: \"com..x\"\nrequired-locales: [en-US, xx-YY]\ngenerate:\n  - output: Shop.storekit\n    storefront: XYZ\n    locale: en-QQ\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["validate", "--config", file.path, "catalogs/FakeGame"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, """
            iap: error: \(file.path):1:12: bundle-id: not a bundle ID: use letters, digits, '-' and '.', as in com.example.app (found "com..x")
            \(file.path):2:19: required-locales: not a locale: use a language and region, as in en-US, de-DE or zh-Hans (found "xx-YY")
            \(file.path):5:17: generate[0].storefront: not one of the App Store's 175 storefronts (iap storefronts lists them), found "XYZ"
            \(file.path):6:13: generate[0].locale: not a locale: use a language and region, as in en-US, de-DE or zh-Hans (found "en-QQ")
            \(file.path): 4 errors; fix the file (see docs/ci.md)

            """)
        XCTAssertEqual(try firstLine(["lint", "Examples", "--jobs", "-3"]).1, "Error: --jobs must be a positive number of files at once (found -3)")
    }
}
