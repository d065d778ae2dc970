import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import XCTest

/// `iap check`, `iap init`, `iap.yml`, report formats in one run, baselines and exit statuses,
/// the way CI uses them.
final class CIEndToEndTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ text: String, _ name: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func ids(_ ids: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>
        \(ids.map { "\t<string>\($0)</string>" }.joined(separator: "\n"))
        </array>
        </plist>

        """
    }

    // MARK: iap.yml

    func testEveryConfigurationErrorAtOnceWithLineAndKeyPath() throws {
        try write("""
        bundle-id: com.acme.app
        catalogs: [Store]
        rules:
          similar-ids: loud
          display-name-too-long:
            severity: warning
            limit: thirty
          similar-idz: off
        lint:
          include-tests: maybe
        generate:
          - style: enum
        reports: [pdf]

        """, "iap.yml")
        let result = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, """
        iap: error: iap.yml:4:16: rules.similar-ids: expected off, info, warning or error, found "loud"
        iap.yml:7:12: rules.display-name-too-long.limit: expected an integer, found "thirty"
        iap.yml:8:3: rules.similar-idz: no such rule; did you mean 'similar-ids'? (iap rules lists them)
        iap.yml:10:18: lint.include-tests: expected true or false, found "maybe"
        iap.yml:12:5: generate[0].output: missing: the file to keep up to date
        iap.yml:13:11: reports[0]: unknown report format 'pdf'; formats: text, json, sarif, github, junit, checkstyle, markdown, gitlab
        iap.yml: 6 errors; fix the file (see docs/ci.md)

        """)
        // Not YAML at all: the line of the problem.
        try write("rules:\n  - a\n b: [\n", "iap.yml")
        let broken = try IAPRunner.run(["validate"], in: folder)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.hasPrefix("iap: error: iap.yml:3:2: not valid YAML: "), broken.stderr)
    }

    /// `${NAME}` in `bundle-id` is an error now (ConfigurationBoundaryTests): a value expanded
    /// there would be quoted in findings.
    func testUnknownKeyWarnsWithTheNearest() throws {
        try write(ids(["com.acme.app.coins", "com.other.gems"]), "Store/IAP_ProductIDs.plist")
        try write("bundle-id: com.acme.app\ncatalog: [Store]\ncatalogs: [Store]\nrules: {undeclared-kind: off}\n", "iap.yml")
        let result = try IAPRunner.run(["validate"], in: folder)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, """
        Store/IAP_ProductIDs.plist:6:2: warning: product ID 'com.other.gems' does not start with the bundle ID 'com.acme.app.' [missing-bundle-prefix]
        iap.yml:1: note: bundle ID from here
        Store/IAP_ProductIDs.plist:6:2: note: fix: use 'com.acme.app.gems' for new products (existing IDs cannot be renamed)

        """)
        XCTAssertEqual(result.stderr, """
        iap.yml:2:1: warning: catalog: unknown key, ignored; did you mean 'catalogs'?
        1 file checked: 0 errors, 1 warning, 0 infos, 2 products in 1 catalog

        """)
    }

    func testConfiguredSeveritiesFoundUpwardAndWithConfigFlag() throws {
        try write(ids(["com.acme.app.goldpack", "com.acme.app.goldpak", "com.acme.app.mystery"]), "Store/IAP_ProductIDs.plist")
        try write("bundle-id: com.acme.app\ncatalogs: [Store]\nrules:\n  similar-ids: error\n  undeclared-kind: off\n", "iap.yml")
        // Found from a subfolder upward, up to the repository root; paths stay relative to the
        // file, shown from where iap runs, and the file is named first.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let result = try IAPRunner.run(["validate"], in: folder.appendingPathComponent("Store"))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("iap: using ../iap.yml, found above the working folder\n"), result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").first,
                       "../Store/IAP_ProductIDs.plist:6:2: error: product ID 'com.acme.app.goldpak' is one edit away from 'com.acme.app.goldpack': a typo? [similar-ids]")
        XCTAssertFalse(result.stdout.contains("undeclared-kind"))
        let explicit = try IAPRunner.run(["validate", "--config", folder.appendingPathComponent("iap.yml").path], in: IAPRunner.packageRoot)
        XCTAssertEqual(explicit.status, 1)
        XCTAssertTrue(explicit.stdout.contains("error: product ID 'com.acme.app.goldpak'"))
        let missing = try IAPRunner.run(["check", "--config", "nope.yml"], in: folder)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "iap: error: nope.yml: configuration file not found\n")
    }

    // MARK: check and init

    func testCheckWithoutConfigurationValidatesCatalogs() throws {
        let result = try IAPRunner.run(["check"])
        XCTAssertEqual(result.status, 1)
        let counts = IAPRunner.counts(ofText: result.stdout)
        XCTAssertEqual(result.stderr, """
        iap: no iap.yml here or above; validating ./catalogs (iap init writes one)
        20 catalog files (10043 products in 7 catalogs) checked: \(counts.summary)

        """)
        let verbose = try IAPRunner.run(["check", "--verbose"])
        XCTAssertTrue(verbose.stderr.hasPrefix("iap: passed over catalogs/broken/Decoy_Products.plist: not a product list"), verbose.stderr)
        // A repository with no catalogs/ folder: its catalogs are found by content.
        try write(ids(["com.acme.app.coins", "com.acme.app.coins"]), "App/Store/IAP_ProductIDs.plist")
        let walked = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(walked.status, 1)
        XCTAssertTrue(walked.stdout.contains("\nApp/Store/IAP_ProductIDs.plist:6:2: error: product ID 'com.acme.app.coins' is listed 2 times"), walked.stdout)
        XCTAssertTrue(walked.stderr.hasPrefix("iap: no iap.yml here or above; validating the catalogs found under . (iap init writes one)\n"), walked.stderr)
    }

    func testAConfigurationWithoutCatalogsStillLints() throws {
        try write("let price = \"$0.99\"\n", "App/Shop.swift")
        try write("lint:\n  paths: [App]\n", "iap.yml")
        let result = try IAPRunner.run(["check", "--strict"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "App/Shop.swift:1:13: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        XCTAssertEqual(result.stderr, """
        iap: no catalog found under .: only lint runs, and product titles and IDs in the sources are not checked against a catalog (name the catalogs in iap.yml if there are some)
        1 source file checked: 0 errors, 1 warning, 0 infos

        """)
    }

    func testCheckRunsGenerationAndLintAsConfigured() throws {
        let shop = IAPRunner.packageRoot.appendingPathComponent("Examples/ShopApp")
        for name in ["iap.yml", "Store/IAP_ProductIDs.plist", "Store/Metadata.plist", "App/ProductID.swift", "App/StoreView.swift",
                     "Store/Shop.storekit"] {
            try write(try String(contentsOf: shop.appendingPathComponent(name), encoding: .utf8), name)
        }
        let clean = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertTrue(clean.stderr.hasSuffix("3 catalog files (3 products in 1 catalog), 2 generated files, 2 source files checked: 0 errors, 1 warning, 0 infos\n"),
                      clean.stderr)
        // The StoreKit configuration edited by hand in Xcode: stale, with the command that fixes it.
        let storekit = try read("Store/Shop.storekit")
        try write(storekit.replacingOccurrences(of: "\"displayPrice\" : \"0.99\"", with: "\"displayPrice\" : \"1.99\""), "Store/Shop.storekit")
        let edited = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(edited.status, 1)
        XCTAssertTrue(edited.stdout.contains("Store/Shop.storekit: error: Store/Shop.storekit is stale: run iap storekit to update it [stale-generated-file]\n"),
                      edited.stdout)
        // It is also a catalog file, so its edited price is drift from the metadata plist.
        XCTAssertTrue(edited.stdout.contains("price in USA is 1.99 USD in Shop.storekit but 0.99 USD in Metadata.plist [catalog-drift]\n"), edited.stdout)
        try write(storekit, "Store/Shop.storekit")
        XCTAssertEqual(clean.stdout, "App/StoreView.swift:7:20: warning: the literal shows a price ('$4.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        let strict = try IAPRunner.run(["check", "--strict"], in: folder)
        XCTAssertEqual(strict.status, 1)
        // A product added to the catalog but not to the generated file: stale, one report, exit 1.
        try write(try read("Store/IAP_ProductIDs.plist").replacingOccurrences(of: "</array>", with: "\t<string>com.acme.shop.gems</string>\n</array>"),
                  "Store/IAP_ProductIDs.plist")
        let stale = try IAPRunner.run(["check", "--format", "json"], in: folder)
        XCTAssertEqual(stale.status, 1)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stale.stdout.utf8)) as? [String: Any])
        let rules = (document["findings"] as? [[String: Any]])?.compactMap { $0["ruleID"] as? String }
        // gems has no price, so the .storekit file is not checked but the missing fact is said.
        XCTAssertEqual(rules, ["stale-generated-file", "hardcoded-price", "missing-metadata", "storekit-missing-field", "undeclared-kind"])
    }

    func testInitWritesAStarterThatCheckRuns() throws {
        try write(ids(["com.acme.app.coins.pack"]), "Store/IAP_ProductIDs.plist")
        try write(RuleExampleText.metadata, "Store/Metadata.plist")
        try write("let price = \"$0.99\"\n", "App/Shop.swift")
        let first = try IAPRunner.run(["init"], in: folder)
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stderr, "iap: wrote iap.yml; run iap check\n")
        let text = try read("iap.yml")
        XCTAssertTrue(text.contains("catalogs:\n  - Store\n"), text)
        XCTAssertTrue(text.contains("lint:\n  paths:\n    - App\n"), text)
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, "App/Shop.swift:1:13: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        let again = try IAPRunner.run(["init"], in: folder)
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(again.stderr, "iap: error: iap.yml exists; pass --force to replace it, or --stdout to see the starter\n")
    }

    // MARK: Reports

    func testSeveralReportsInOneRunEachWrittenWhole() throws {
        let out = folder.path
        let result = try IAPRunner.run(["validate", "catalogs/broken", "--format", "json",
                                        "--report", "sarif:\(out)/iap.sarif", "--report", "junit:\(out)/junit.xml",
                                        "--report", "checkstyle:\(out)/checkstyle.xml", "--report", "gitlab:\(out)/gl.json",
                                        "--report", "markdown:\(out)/report.md", "--report", "github:\(out)/github.txt",
                                        "--report", "text:\(out)/report.txt"])
        XCTAssertEqual(result.status, 1)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
        for name in ["iap.sarif", "gl.json"] {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))), name)
        }
        for name in ["junit.xml", "checkstyle.xml"] {
            let parser = XMLParser(data: try Data(contentsOf: folder.appendingPathComponent(name)))
            XCTAssertTrue(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        }
        let text = try IAPRunner.run(["validate", "catalogs/broken"])
        let counts = IAPRunner.counts(ofText: text.stdout)
        XCTAssertEqual(try read("github.txt").split(separator: "\n").count, counts.findings)
        XCTAssertTrue(try read("report.md").hasPrefix("## iap validate: \(counts.summary)\n"))
        XCTAssertEqual(try read("report.txt"), text.stdout)
        // Into a folder that does not exist: status 2, nothing half-written.
        let missing = try IAPRunner.run(["validate", "catalogs/FakeGame", "--report", "sarif:\(out)/no/such/x.sarif"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasSuffix("iap: error: output folder '\(out)/no/such' does not exist; create it first (it is not created silently)\n"), missing.stderr)
        // Usage errors: status 64.
        XCTAssertEqual(try IAPRunner.run(["validate", "--format", "pdf"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["lint", "--report", "pdf:x.pdf"]).status, 64)
    }

    func testSARIFIsValidAgainstTheSchema() throws {
        let schema = try Prerequisite.shared("schemas/sarif-schema-2.1.0.json")
        try Prerequisite.python(["jsonschema"], install: "python3 -m pip install jsonschema; .ci/run installs it")
        let outputs: [(String, [String])] = [
            ("validate", ["validate", "catalogs/broken", "catalogs/broken/Decoy_Products.plist", "--format", "sarif"]),
            ("lint", ["lint", "Examples/LintDemo", "--catalog", "catalogs/FakeGame", "--format", "sarif"]),
            ("check", ["check", "--config", "Examples/ShopApp/iap.yml", "--format", "sarif"]),
        ]
        for (name, arguments) in outputs {
            let result = try IAPRunner.run(arguments)
            XCTAssertTrue([0, 1].contains(result.status), result.stderr)
            let file = folder.appendingPathComponent("\(name).sarif")
            try result.stdout.write(to: file, atomically: true, encoding: .utf8)
            let check = try IAPRunner.runProgram("/usr/bin/env", ["python3", "-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            document = json.load(open(sys.argv[2]))
            jsonschema.Draft7Validator(schema).validate(document)
            run = document["runs"][0]
            assert run["results"], "no results"
            assert all(r["partialFingerprints"] for r in run["results"])
            assert all(rule["helpUri"] and rule["fullDescription"]["text"] for rule in run["tool"]["driver"]["rules"])
            print(len(run["results"]))
            """, schema.path, file.path])
            XCTAssertEqual(check.status, 0, "\(name): \(check.stderr)")
        }
    }

    func testGitHubAnnotationsAndStepSummary() throws {
        let summary = folder.appendingPathComponent("summary.md")
        try "".write(to: summary, atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["validate", "catalogs/broken", "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n")
        let counts = IAPRunner.counts(ofText: try IAPRunner.run(["validate", "catalogs/broken"]).stdout)
        XCTAssertEqual(lines.count, counts.findings)
        // The most severe first: the errors, then warnings, then notices.
        XCTAssertGreaterThan(counts.errors, 0)
        XCTAssertEqual(lines.prefix(counts.errors).filter { $0.hasPrefix("::error ") }.count, counts.errors)
        XCTAssertFalse(lines[counts.errors].hasPrefix("::error "))
        XCTAssertTrue(lines.last!.hasPrefix("::notice "))
        XCTAssertEqual(lines[0], "::error file=catalogs/broken/Broken.storekit,line=16,col=7,title=iap kind-conflict::'com.acme.broken.shield' is declared non-consumable here (type NonConsumable) but consumable in catalogs/broken/Metadata.plist:283:4 (kind = consumable) [kind-conflict]%0Acatalogs/broken/Metadata.plist:283:4: declared consumable here")
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("## iap validate: \(counts.summary)\n"), markdown)
        // One row per finding under one header row.
        XCTAssertEqual(markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }.count, counts.findings + 1)
    }

    // MARK: Baselines

    func testBaselineHoldsBackKnownFindingsAndCountsFixedOnes() throws {
        try write(ids(["com.acme.app.coins", "com.acme.app.coins", "com.example.boost", "com.acme.app.goldpack", "com.acme.app.goldpak"]),
                  "Store/IAP_ProductIDs.plist")
        try write("bundle-id: com.acme.app\ncatalogs: [Store]\nrules:\n  undeclared-kind: off\n", "iap.yml")
        let written = try IAPRunner.run(["validate", "--write-baseline", "baseline.json"], in: folder)
        XCTAssertEqual(written.status, 1)
        XCTAssertTrue(written.stderr.hasSuffix("iap: wrote the baseline baseline.json (3 findings)\n"), written.stderr)
        let baseline = try read("baseline.json")
        XCTAssertEqual(baseline, """
        {
          "findings": [
            {
              "count": 1,
              "path": "Store/IAP_ProductIDs.plist",
              "rule": "duplicate-id",
              "subject": "com.acme.app.coins"
            },
            {
              "count": 1,
              "path": "Store/IAP_ProductIDs.plist",
              "rule": "placeholder-prefix",
              "subject": "com.example.boost"
            },
            {
              "count": 1,
              "path": "Store/IAP_ProductIDs.plist",
              "rule": "similar-ids",
              "subject": "com.acme.app.goldpak"
            }
          ],
          "version": 1
        }

        """)
        // Rewriting gives the same bytes.
        _ = try IAPRunner.run(["validate", "--write-baseline", "baseline.json"], in: folder)
        XCTAssertEqual(try read("baseline.json"), baseline)

        let held = try IAPRunner.run(["validate", "--baseline", "baseline.json"], in: folder)
        XCTAssertEqual(held.status, 0)
        XCTAssertEqual(held.stdout, "")
        XCTAssertTrue(held.stderr.hasSuffix("iap: baseline baseline.json: 3 findings held back, 0 new findings, 0 baselined findings fixed\n"), held.stderr)

        // Lines move (a comment above): still held back. A new placeholder is new.
        try write(ids(["com.acme.app.coins", "com.acme.app.coins", "com.example.boost", "com.example.extra",
                       "com.acme.app.goldpack", "com.acme.app.goldpak"]).replacingOccurrences(of: "<array>", with: "<!-- moved -->\n<array>"),
                  "Store/IAP_ProductIDs.plist")
        let new = try IAPRunner.run(["validate", "--baseline", "baseline.json"], in: folder)
        XCTAssertEqual(new.status, 0)
        XCTAssertEqual(new.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }, [
            "Store/IAP_ProductIDs.plist:9:2: warning: product ID 'com.example.extra' uses the placeholder prefix 'com.example.' [placeholder-prefix]",
        ])
        XCTAssertTrue(new.stderr.hasSuffix("iap: baseline baseline.json: 3 findings held back, 1 new finding, 0 baselined findings fixed\n"), new.stderr)

        // Two fixed: reported, and an error with --fail-on-fixed-baseline.
        try write(ids(["com.acme.app.coins", "com.acme.app.goldpack", "com.acme.app.goldpak"]), "Store/IAP_ProductIDs.plist")
        let fixed = try IAPRunner.run(["validate", "--baseline", "baseline.json"], in: folder)
        XCTAssertEqual(fixed.status, 0)
        XCTAssertTrue(fixed.stderr.hasSuffix("""
        iap: baseline baseline.json: 1 finding held back, 0 new findings, 2 baselined findings fixed
        iap: 2 baselined findings are fixed; shrink the baseline with --write-baseline baseline.json

        """), fixed.stderr)
        let failing = try IAPRunner.run(["validate", "--baseline", "baseline.json", "--fail-on-fixed-baseline"], in: folder)
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.contains("iap: error: 2 baselined findings are fixed; rewrite the baseline"), failing.stderr)

        // The same fingerprint is SARIF's partialFingerprints.
        let sarif = try IAPRunner.run(["validate", "--format", "sarif"], in: folder)
        XCTAssertTrue(sarif.stdout.contains("\"partialFingerprints\":{\"iapFingerprint/v1\":\""), sarif.stdout)
        // A broken baseline file: status 2, what to do.
        try write("{\"findings\": 3}", "bad.json")
        let bad = try IAPRunner.run(["validate", "--baseline", "bad.json"], in: folder)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr.split(separator: "\n").last, "iap: error: bad.json: not an iap baseline (no \"version\"); recreate it with --write-baseline bad.json")
    }

    func testBaselineIsCountAware() throws {
        try write("let a = \"$0.99\"\nlet b = \"$0.99\"\n", "App/Shop.swift")
        XCTAssertEqual(try IAPRunner.run(["lint", "App", "--write-baseline", "b.json"], in: folder).status, 0)
        XCTAssertTrue(try read("b.json").contains("\"count\": 2,"))
        try write("// moved\nlet a = \"$0.99\"\nlet b = \"$0.99\"\nlet c = \"$0.99\"\n", "App/Shop.swift")
        let result = try IAPRunner.run(["lint", "App", "--baseline", "b.json", "--strict"], in: folder)
        XCTAssertEqual(result.status, 1)
        // Of three occurrences, two are baselined: the last one is new.
        XCTAssertEqual(result.stdout, "App/Shop.swift:4:9: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
    }

    // MARK: Exit statuses

    func testExitStatusTable() throws {
        XCTAssertEqual(try IAPRunner.run(["validate", "catalogs/SpeakEnglish"]).status, 0)
        XCTAssertEqual(try IAPRunner.run(["validate", "catalogs/broken"]).status, 1)
        XCTAssertEqual(try IAPRunner.run(["validate", "--strict", "catalogs/broken/Legacy_ProductIDs.plist"]).status, 1)
        XCTAssertEqual(try IAPRunner.run(["validate", "catalogs/broken/Legacy_ProductIDs.plist"]).status, 0)
        XCTAssertEqual(try IAPRunner.run(["validate", "no/such/path"]).status, 2)
        XCTAssertEqual(try IAPRunner.run(["plist", "lint", "no/such.plist"]).status, 2)
        XCTAssertEqual(try IAPRunner.run(["validate", "--no-such-option"]).status, 64)
        XCTAssertEqual(try IAPRunner.run(["check", "--format", "nope"]).status, 64)
    }
}

/// A metadata plist declaring the init test's product, so the run has no undeclared-kind info.
enum RuleExampleText {
    static let metadata = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    	<key>IAPCatalogMetadata</key>
    	<integer>1</integer>
    	<key>products</key>
    	<dict>
    		<key>com.acme.app.coins.pack</key>
    		<dict>
    			<key>kind</key>
    			<string>consumable</string>
    		</dict>
    	</dict>
    </dict>
    </plist>

    """
}

/// docs/ci.md's pre-commit hook, installed in a temporary git repository.
final class PreCommitHookTests: XCTestCase {
    func testHookStopsACommitWithErrorsAndLetsAFixedOneThrough() throws {
        let repo = FileManager.default.temporaryDirectory.appendingPathComponent("iap-hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("Store"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: repo) }
        func git(_ arguments: [String]) throws -> IAPRunner.Result {
            try IAPRunner.runProgram("/usr/bin/env", ["git"] + arguments, in: repo,
                                     environment: ["IAP": IAPRunner.binary.path, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com",
                                                   "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.com"])
        }
        guard try IAPRunner.runProgram("/usr/bin/env", ["git", "--version"]).status == 0 else { throw XCTSkip("git is not installed") }
        XCTAssertEqual(try git(["init", "-q"]).status, 0)
        let hook = repo.appendingPathComponent(".git/hooks/pre-commit")
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("scripts/pre-commit"), to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        func list(_ ids: [String]) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
                + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n"
        }
        try "bundle-id: com.acme.app\ncatalogs: [Store]\nrules: {undeclared-kind: off}\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        try list(["com.acme.app.coins", "com.acme.app.coins"]).write(to: repo.appendingPathComponent("Store/IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try git(["add", "."]).status, 0)
        let refused = try git(["commit", "-q", "-m", "duplicate"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("error: product ID 'com.acme.app.coins' is listed 2 times"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pre-commit: iap check failed (exit 1)"), refused.stderr)
        XCTAssertNotEqual(try git(["rev-parse", "HEAD"]).status, 0, "nothing was committed")

        try list(["com.acme.app.coins", "com.acme.app.gems"]).write(to: repo.appendingPathComponent("Store/IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try git(["add", "."]).status, 0)
        let accepted = try git(["commit", "-q", "-m", "fixed"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(try git(["rev-parse", "HEAD"]).status, 0)
        // A commit that touches no catalog or source file does not run iap.
        try "notes\n".write(to: repo.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try git(["add", "README.txt"]).status, 0)
        let unrelated = try IAPRunner.runProgram("/usr/bin/env", ["git", "commit", "-q", "-m", "notes"], in: repo,
                                                 environment: ["IAP": "/nonexistent/iap", "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com",
                                                               "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.com"])
        XCTAssertEqual(unrelated.status, 0, unrelated.stderr)
    }
}
