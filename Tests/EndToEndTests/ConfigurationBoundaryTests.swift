import Foundation
import XCTest

/// A pull request can change `iap.yml`, so the file cannot aim the tool: what it names to write,
/// and its baseline, stay inside its folder; the search for it stops at the repository root and
/// says which file it used; `${NAME}` expands only in the keys docs/ci.md lists, and an expanded
/// value never reaches a finding, a report, a file name or a message.
final class ConfigurationBoundaryTests: XCTestCase {
    var base: URL!
    var repo: URL { base.appendingPathComponent("repo") }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-boundary-\(UUID().uuidString)")
        for folder in ["repo/.git", "repo/Store", "outside"] {
            try FileManager.default.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/IAP_ProductIDs.plist"),
                                         to: repo.appendingPathComponent("Store/IAP_ProductIDs.plist"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: base)
    }

    func write(_ text: String, _ name: String) throws {
        try text.write(to: base.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    func iap(_ arguments: [String], in folder: String = "repo", environment: [String: String] = [:]) throws -> IAPRunner.Result {
        try IAPRunner.runProgram("/usr/bin/timeout", ["30", IAPRunner.binary.path] + arguments,
                                 in: base.appendingPathComponent(folder), environment: environment)
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: base.appendingPathComponent(folder).path).sorted()
    }

    // MARK: Paths that lead out

    /// What iap.yml names to read stays inside the repository (a message about a file that is not
    /// a catalog quotes its first bytes; `catalogs: [/home/runner/.ssh]` would put them in a public
    /// CI log); anywhere inside the repository is fine, above iap.yml's own folder too.
    func testWhatTheFileNamesToReadStaysInsideTheRepository() throws {
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("app"), withIntermediateDirectories: true)
        try write("token: secret-value\n", "outside/IAP_ProductIDs.plist")
        try write("""
        catalogs: [../../outside, /etc]
        lint:
          paths: [.]
          catalog: ../.git
        info-plist: /etc/passwd
        """, "repo/app/iap.yml")
        let refused = try iap(["check"], in: "repo/app")
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr, """
        iap: error: iap.yml:1:12: catalogs[0]: "../../outside" leads out of the repository ('..'): the files iap.yml names to read stay inside the repository; a path on the command line may go anywhere
        iap.yml:1:27: catalogs[1]: "/etc" is an absolute path: the files iap.yml names to read stay inside the repository; a path on the command line may go anywhere
        iap.yml:4:12: lint.catalog: "../.git" is inside .git: the files iap.yml names to read stay inside the repository; a path on the command line may go anywhere
        iap.yml:5:13: info-plist: "/etc/passwd" is an absolute path: the files iap.yml names to read stay inside the repository; a path on the command line may go anywhere
        iap.yml: 4 errors; fix the file (see docs/ci.md)

        """)
        XCTAssertFalse(refused.stdout.contains("secret") || refused.stderr.contains("secret"))
        try write("catalogs: [../Store]\n", "repo/app/iap.yml")
        let inside = try iap(["validate"], in: "repo/app")
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertTrue(inside.stdout.hasPrefix("../Store/IAP_ProductIDs.plist:"), inside.stdout)
    }

    func testWhatTheFileNamesToWriteStaysInsideItsFolder() throws {
        try write("untouched\n", "outside/victim")
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("out").path, withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("iap.sarif").path, withDestinationPath: "../outside/victim")
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("Store/deep").path, withDestinationPath: "../../outside")
        try write("""
            bundle-id: com.appcoda.FakeGame
            catalogs: [Store]
            reports:
              - sarif:../up.sarif
              - junit:\(base.path)/outside/abs.xml
              - sarif:out/a.sarif
              - sarif
              - text:.git/hooks/pre-commit
              - sarif:Store/../../up.sarif
              - sarif:Store/deep/../x.sarif
            baseline: ../baseline.json
            generate:
              - output: ../Gen.swift
              - output: out/Shop.storekit

            """, "repo/iap.yml")
        let result = try iap(["check"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        let rule = "the reports, baseline, snapshot and generated files iap.yml names stay inside its folder; a path on the command line may go anywhere"
        XCTAssertEqual(result.stderr, """
            iap: error: iap.yml:4:5: reports[0]: "../up.sarif" leads out of the folder of iap.yml ('..'): \(rule) (--report sarif:../up.sarif)
            iap.yml:5:5: reports[1]: "\(base.path)/outside/abs.xml" is an absolute path: \(rule) (--report junit:\(base.path)/outside/abs.xml)
            iap.yml:6:5: reports[2]: "out/a.sarif" leads out of the folder of iap.yml through the link 'out': \(rule) (--report sarif:out/a.sarif)
            iap.yml:7:5: reports[3]: "iap.sarif" leads out of the folder of iap.yml through the link 'iap.sarif': \(rule) (--report sarif:iap.sarif)
            iap.yml:8:5: reports[4]: ".git/hooks/pre-commit" is inside .git: \(rule) (--report text:.git/hooks/pre-commit)
            iap.yml:9:5: reports[5]: "Store/../../up.sarif" leads out of the folder of iap.yml ('..'): \(rule) (--report sarif:Store/../../up.sarif)
            iap.yml:10:5: reports[6]: "Store/deep/../x.sarif" leads out of the folder of iap.yml through the link 'Store/deep': \(rule) (--report sarif:Store/deep/../x.sarif)
            iap.yml:11:11: baseline: "../baseline.json" leads out of the folder of iap.yml ('..'): \(rule) (--baseline ../baseline.json)
            iap.yml:13:13: generate[0].output: "../Gen.swift" leads out of the folder of iap.yml ('..'): \(rule) (iap gen -o ../Gen.swift)
            iap.yml:14:13: generate[1].output: "out/Shop.storekit" leads out of the folder of iap.yml through the link 'out': \(rule) (iap storekit -o out/Shop.storekit)
            iap.yml: 10 errors; fix the file (see docs/ci.md)

            """)
        // Every command that reads the file stops on it; nothing was written anywhere.
        for arguments in [["validate"], ["gen"], ["storekit"], ["lint", "Store"], ["list"]] {
            XCTAssertEqual(try iap(arguments).status, 2, "\(arguments)")
        }
        XCTAssertEqual(try files("outside"), ["victim"])
        XCTAssertEqual(try String(contentsOf: base.appendingPathComponent("outside/victim"), encoding: .utf8), "untouched\n")
        XCTAssertEqual(try files("."), ["outside", "repo"])
        XCTAssertEqual(try files("repo/.git"), [])
    }

    func testInsideThroughALinkIsFineAndTheCommandLineMayGoAnywhere() throws {
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("build/reports"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("latest").path, withDestinationPath: "build/reports")
        try write("bundle-id: com.appcoda.FakeGame\ncatalogs: [Store]\nreports: [sarif:latest/iap.sarif, junit:./build/../j.xml]\n", "repo/iap.yml")
        let result = try iap(["check", "--report", "sarif:../outside/cli.sarif", "--write-baseline", "../outside/baseline.json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try files("repo/build/reports"), ["iap.sarif"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: repo.appendingPathComponent("j.xml").path))
        XCTAssertEqual(try files("outside"), ["baseline.json", "cli.sarif"])
    }

    /// `asc.snapshot` is read by `diff` and `check` and written by `pull`: it is confined as every
    /// path iap.yml names to write, so `ios/iap.yml` cannot have a pull overwrite `../README.md`.
    func testTheSnapshotIsConfinedAsAPathToWrite() throws {
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("ios"), withIntermediateDirectories: true)
        try write("untouched\n", "repo/README.md")
        try write("catalogs: [../Store]\nasc:\n  app: com.appcoda.FakeGame\n  snapshot: ../README.md\n", "repo/ios/iap.yml")
        let rule = "the reports, baseline, snapshot and generated files iap.yml names stay inside its folder; a path on the command line may go anywhere"
        // The key is there: nothing but iap.yml stops the pull.
        let environment = ["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34",
                           "IAP_ASC_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----", "IAP_ASC_URL": "http://127.0.0.1:9"]
        for arguments in [["asc", "pull"], ["asc", "diff"], ["asc", "diff", "--app", "com.appcoda.FakeGame"], ["check"]] {
            let result = try iap(arguments, in: "repo/ios", environment: environment)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertEqual(result.stderr, """
                iap: error: iap.yml:4:13: asc.snapshot: "../README.md" leads out of the folder of iap.yml ('..'): \(rule) (--snapshot ../README.md)
                iap.yml: 1 error; fix the file (see docs/ci.md)

                """, "\(arguments)")
        }
        XCTAssertEqual(try String(contentsOf: repo.appendingPathComponent("README.md"), encoding: .utf8), "untouched\n")
        try write("asc:\n  snapshot: .git/snapshot.json\n", "repo/iap.yml")
        let git = try iap(["asc", "diff"])
        XCTAssertEqual(git.status, 2)
        XCTAssertEqual(git.stderr, """
            iap: error: iap.yml:2:13: asc.snapshot: ".git/snapshot.json" is inside .git: \(rule) (--snapshot .git/snapshot.json)
            iap.yml: 1 error; fix the file (see docs/ci.md)

            """)
        XCTAssertEqual(try files("repo/.git"), [])
    }

    // MARK: Which file

    func testTheSearchStopsAtTheRepositoryRootAndSaysWhichFileItUsed() throws {
        // Planted above the repository: it would turn the rules off and write outside.
        try write("catalogs: [repo/Store]\nrules: {undeclared-kind: off}\nreports: [sarif:planted.sarif]\n", "iap.yml")
        let notes = "iap: no iap.yml here or above; validating the catalogs found under . (iap init writes one)\n"
        for gitIsAFile in [false, true] {
            if gitIsAFile {
                try FileManager.default.removeItem(at: repo.appendingPathComponent(".git"))
                try write("gitdir: /nonexistent/worktrees/repo\n", "repo/.git")
            }
            let root = try iap(["check"])
            XCTAssertEqual(root.status, 0, root.stderr)
            XCTAssertTrue(root.stderr.hasPrefix(notes), root.stderr)
            XCTAssertTrue(root.stdout.contains("[undeclared-kind]"), "the planted file's rules were not applied")
            let verbose = try iap(["validate", "--verbose"], in: "repo/Store")
            XCTAssertFalse(verbose.stderr.contains("iap: using"), verbose.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.appendingPathComponent("planted.sarif").path))
        // The repository's own file, from a folder below it: named first, on stderr, always.
        try write("bundle-id: com.appcoda.FakeGame\ncatalogs: [Store]\nrules: {undeclared-kind: off}\n", "repo/iap.yml")
        let below = try iap(["validate"], in: "repo/Store")
        XCTAssertEqual(below.stderr, """
            iap: using ../iap.yml, found above the working folder
            1 file checked: 0 errors, 0 warnings, 1 info, 3 products in 1 catalog

            """)
        let json = try iap(["check", "--format", "json"], in: "repo/Store")
        XCTAssertTrue(json.stderr.hasPrefix("iap: using ../iap.yml, found above the working folder\n"), json.stderr)
        XCTAssertTrue(json.stdout.hasPrefix("{"), "stdout stays the report alone")
        // In the working folder it is what anyone expects, said only with --verbose.
        let here = try iap(["validate"])
        XCTAssertFalse(here.stderr.contains("iap: using"), here.stderr)
        XCTAssertTrue(try iap(["validate", "--verbose"]).stderr.hasPrefix("iap: using iap.yml in the working folder\n"))
        XCTAssertTrue(try iap(["list", "--verbose"], in: "repo/Store").stderr.hasPrefix("iap: using ../iap.yml, found above the working folder\n"))
        XCTAssertTrue(try iap(["validate", "--verbose", "--config", "iap.yml"]).stderr.hasPrefix("iap: using iap.yml (--config)\n"))
        // Outside any repository only the working folder is searched.
        try FileManager.default.removeItem(at: repo.appendingPathComponent(".git"))
        let outside = try iap(["check"], in: "repo/Store")
        XCTAssertTrue(outside.stderr.hasPrefix("iap: no iap.yml here or above; validating the catalogs found under . (iap init writes one)\n"),
                      outside.stderr)
        XCTAssertTrue(try iap(["validate", "--verbose"]).stderr.hasPrefix("iap: using iap.yml in the working folder\n"))
    }

    // MARK: ${NAME}

    func testEnvironmentExpandsOnlyInTheListedKeysAndNeverIntoOutput() throws {
        let secret = "com.secret.TOKEN42"
        let environment = ["SECRET": secret, "IAP_FORMAT": "github", "STYLE": "enum", "STOREFRONT": "JPN"]
        // Listed keys expand.
        try write("""
            bundle-id: com.appcoda.FakeGame
            catalogs: [Store]
            format: ${IAP_FORMAT}
            generate:
              - output: Gen.swift
                style: ${STYLE}
              - output: Store.storekit
                storefront: ${STOREFRONT}

            """, "repo/iap.yml")
        XCTAssertEqual(try iap(["gen"], environment: environment).status, 0)
        XCTAssertTrue(try String(contentsOf: repo.appendingPathComponent("Gen.swift"), encoding: .utf8).contains("enum Product: String"))
        // The storefront expanded: the catalog has no yen prices for it (a value from the short
        // list of storefront codes may be shown).
        let storekit = try iap(["storekit"], environment: environment)
        XCTAssertEqual(storekit.status, 1)
        XCTAssertTrue(storekit.stderr.contains("a StoreKit configuration for JPN needs its price in JPY"), storekit.stderr)
        let check = try iap(["check"], environment: environment)
        XCTAssertTrue(check.stdout.hasPrefix("::error file="), check.stdout)
        // Elsewhere `${` is an error that names the key; a value that does not fit a listed key
        // is named by its variable. The value appears nowhere.
        try write("""
            bundle-id: ${SECRET}
            catalogs: ["Store/${SECRET}"]
            required-locales: ["${SECRET}"]
            format: ${SECRET}
            reports: ["sarif:${SECRET}.sarif"]
            generate:
              - output: Gen.swift
                style: ${SECRET}
                storefront: ${SECRET}

            """, "repo/iap.yml")
        let refused = try iap(["check"], environment: environment)
        XCTAssertEqual(refused.status, 2)
        let notHere = "environment variables are not expanded here, only in format, generate[].style, generate[].access, generate[].storefront (docs/ci.md)"
        XCTAssertEqual(refused.stderr, """
            iap: error: iap.yml:1:12: bundle-id: \(notHere); pass --bundle-id on the command line instead
            iap.yml:2:12: catalogs[0]: \(notHere); write the value itself
            iap.yml:3:20: required-locales[0]: \(notHere); write the value itself
            iap.yml:4:9: format: unknown format "${SECRET}" (its value, not shown here); formats: text, json, sarif, github, junit, checkstyle, markdown, gitlab
            iap.yml:5:11: reports[0]: \(notHere); write the value itself
            iap.yml:8:12: generate[0].style: expected constants or enum, found "${SECRET}" (its value, not shown here)
            iap.yml:9:17: generate[0].storefront: not one of the App Store's 175 storefronts (iap storefronts lists them), found "${SECRET}" (its value, not shown here)
            iap.yml: 7 errors; fix the file (see docs/ci.md)

            """)
        XCTAssertFalse(refused.stdout.contains(secret) || refused.stderr.contains(secret))
        XCTAssertFalse(try files("repo").contains { $0.contains("TOKEN") })
        // The command line is where a value from the environment goes.
        try write("catalogs: [Store]\n", "repo/iap.yml")
        XCTAssertEqual(try iap(["validate", "--bundle-id", "com.appcoda.FakeGame"]).status, 0)
    }
}
