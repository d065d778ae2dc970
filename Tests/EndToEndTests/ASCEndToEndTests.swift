import Crypto
import Foundation
import TestSupport
import XCTest

/// `iap asc pull` and `diff` against the fake App Store Connect in Tests/Fixtures/asc, which
/// validates every request and response against Apple's OpenAPI document and verifies each
/// token with the key's public half. Skips, saying why, when openapi-core is not installed.
final class ASCEndToEndTests: XCTestCase {
    static let snapshotExample = "Examples/AppStoreConnect/RazeFaces.snapshot.json"
    /// An issuer ID of App Store Connect's shape (a UUID); the fake server checks each token's.
    static let issuer = "69a6de70-03db-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    var folder: URL!
    var servers: [Process] = []

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-asc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for server in servers where server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The example snapshot as the fake server's store: the same app, products and localizations.
    /// `prices`: product ID → USA price, and product ID → introductory offer, added to the store.
    func store(salesReports: [[String: Any]] = [], prices: [String: String] = [:], offers: [String: [String: Any]] = [:]) throws -> Data {
        let data = try Data(contentsOf: IAPRunner.packageRoot.appendingPathComponent(Self.snapshotExample))
        let snapshot = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let app = try XCTUnwrap(snapshot["app"] as? [String: Any])
        let appID = try XCTUnwrap(app["id"] as? String)
        var next = 7_000_000
        func localizations(_ list: Any?) -> [[String: Any]] {
            (list as? [[String: Any]] ?? []).map { l in
                next += 1
                return l.merging(["id": "\(next)"]) { a, _ in a }
            }
        }
        let purchases = (snapshot["inAppPurchases"] as? [[String: Any]] ?? []).map { p -> [String: Any] in
            var item = p
            item["app"] = appID
            item["inAppPurchaseType"] = p["type"]
            item["type"] = nil
            item["localizations"] = localizations(p["localizations"])
            Self.storeReview(&item)
            if let id = p["productId"] as? String, let price = prices[id] {
                item["prices"] = [["territory": "USA", "currency": "USD", "customerPrice": price, "proceeds": "0.50", "manual": true]]
            }
            return item
        }
        let groups = (snapshot["subscriptionGroups"] as? [[String: Any]] ?? []).map { g -> [String: Any] in
            var group = g
            group["app"] = appID
            group["localizations"] = localizations(g["localizations"])
            group["subscriptions"] = (g["subscriptions"] as? [[String: Any]] ?? []).map { s -> [String: Any] in
                var item = s
                item["subscriptionPeriod"] = s["period"]
                item["period"] = nil
                item["localizations"] = localizations(s["localizations"])
                Self.storeReview(&item)
                if let id = s["productId"] as? String, let price = prices[id] {
                    item["prices"] = [["territory": "USA", "currency": "USD", "customerPrice": price, "proceeds": "0.50"]]
                }
                if let id = s["productId"] as? String, let offer = offers[id] { item["introductoryOffers"] = [offer] }
                return item
            }
            return group
        }
        return try JSONSerialization.data(withJSONObject: ["apps": [app], "inAppPurchases": purchases, "subscriptionGroups": groups,
                                                           "salesReports": salesReports])
    }

    /// A snapshot product's `review` as the fake server's store says it: `reviewScreenshot` and
    /// `availability` (its territories, when the snapshot has them, else every storefront's).
    static func storeReview(_ item: inout [String: Any]) {
        guard let review = item.removeValue(forKey: "review") as? [String: Any] else { return }
        item["reviewScreenshot"] = review["screenshot"] as? Bool ?? false
        if var availability = review["availability"] as? [String: Any] {
            if availability["territories"] == nil { availability["territories"] = ["CAN", "GBR", "JPN", "USA"] }
            item["availability"] = availability
        }
    }

    /// What the fake server and iap's requests to it need and lack, if anything: found once.
    static let fakeServerMissing = Prerequisite.fakeASCMissing()
        ?? (Prerequisite.loads(Prerequisite.libcurlNames) ? nil : "libcurl (libcurl.so.4) cannot be loaded (apt-get install libcurl4; .ci/run installs it)")

    /// Starts the fake server; its base URL, or a skip, saying why, when its OpenAPI document in
    /// ../shared, python3, openapi-core, cryptography or libcurl is missing.
    func startServer(scenario: String = "ok", pageSize: Int = 2, extra: [String] = [], salesReports: [[String: Any]] = [],
                     prices: [String: String] = [:], offers: [String: [String: Any]] = [:], storeJSON: Data? = nil,
                     function: String = #function) throws -> (url: String, log: URL) {
        if let missing = Self.fakeServerMissing { throw Prerequisite.skip(missing, function: function) }
        let storePath = folder.appendingPathComponent("store-\(servers.count).json")
        try (storeJSON ?? store(salesReports: salesReports, prices: prices, offers: offers)).write(to: storePath)
        let keyPath = folder.appendingPathComponent("public.pem")
        try key.publicKey.pemRepresentation.write(to: keyPath, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("requests-\(servers.count).jsonl")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/asc/fake_asc.py").path,
                            "--store", storePath.path, "--public-key", keyPath.path, "--issuer", Self.issuer, "--key-id", "KEY1234567",
                            "--scenario", scenario, "--page-size", "\(pageSize)", "--log", log.path] + extra
        let out = Pipe(), err = Pipe()
        server.standardOutput = out
        server.standardError = err
        try server.run()
        servers.append(server)
        // The first line is "PORT n"; an exit before it is a missing validator (3) or a failure.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.waitUntilExit()
            let why = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if server.terminationStatus == 3 { throw Prerequisite.skip("the fake App Store Connect cannot run: \(why)", function: function) }
            XCTFail("the fake App Store Connect did not start (exit \(server.terminationStatus)): \(why)")
            throw XCTSkip("no server")
        }
        return ("http://127.0.0.1:\(port)", log)
    }

    var environment: [String: String] {
        ["IAP_ASC_ISSUER_ID": Self.issuer, "IAP_ASC_KEY_ID": "KEY1234567", "IAP_ASC_PRIVATE_KEY": key.pemRepresentation, "IAP_ASC_PRIVATE_KEY_PATH": ""]
    }

    func pull(_ url: String, timeout: Int = 10) throws -> (IAPRunner.Result, URL) {
        let snapshot = folder.appendingPathComponent("pulled.json")
        var env = environment
        env["IAP_ASC_URL"] = url
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.razeware.RazeFaces", "--snapshot", snapshot.path, "--timeout", "\(timeout)"],
                                       environment: env)
        return (result, snapshot)
    }

    /// The requests the fake has logged, one JSON line each. A line the fake is still writing
    /// (no newline yet: a test polls the log while a run goes on) is not one yet.
    func requests(_ log: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: log, encoding: .utf8)
        var lines = text.split(separator: "\n")
        if !text.isEmpty, !text.hasSuffix("\n") { lines.removeLast() }
        return try lines.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func assertNoSecrets(_ result: IAPRunner.Result, file: StaticString = #filePath, line: UInt = #line) {
        for text in [result.stdout, result.stderr] {
            XCTAssertFalse(text.contains("PRIVATE KEY") || text.contains("eyJ") || text.contains("Bearer"), text, file: file, line: line)
        }
    }

    func testPullWritesTheExampleSnapshotOverPagesOfValidRequests() throws {
        let (url, log) = try startServer(pageSize: 2)
        let (result, snapshot) = try pull(url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, """
        iap: pulled 4 in-app purchases and 2 subscriptions in 1 group of 'RazeFaces', com.razeware.RazeFaces, Apple ID 1234567890 in 5 requests
        iap: wrote \(snapshot.path)

        """)
        // What pull writes is the example the docs diff against, byte for byte.
        XCTAssertEqual(try String(contentsOf: snapshot, encoding: .utf8),
                       try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent(Self.snapshotExample), encoding: .utf8))
        let sent = try requests(log)
        // The app, two pages of two in-app purchases, the groups, the group's subscriptions.
        XCTAssertEqual(sent.map { $0["path"] as? String ?? "" }, [
            "/v1/apps", "/v1/apps/1234567890/inAppPurchasesV2", "/v1/apps/1234567890/inAppPurchasesV2",
            "/v1/apps/1234567890/subscriptionGroups", "/v1/subscriptionGroups/21000001/subscriptions",
        ])
        XCTAssertTrue(sent.allSatisfy { $0["status"] as? Int == 200 && $0["requestValid"] as? Bool == true && $0["responseValid"] as? Bool == true },
                      "\(sent)")
        assertNoSecrets(result)
    }

    func testThePulledSnapshotDiffsAsSARIF() throws {
        let (url, _) = try startServer(pageSize: 200)
        let (pulled, snapshot) = try pull(url)
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        XCTAssertTrue(pulled.stderr.contains(" in 4 requests\n"), pulled.stderr)
        let diff = try IAPRunner.run(["asc", "diff", "--snapshot", snapshot.path, "catalogs/RazeFaces", "--format", "sarif"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        XCTAssertEqual(results.compactMap { $0["ruleId"] as? String }.sorted(),
                       ["asc-drift", "asc-extra-product", "asc-missing-product", "asc-product-not-ready"])
        XCTAssertEqual(results.first { $0["ruleId"] as? String == "asc-missing-product" }?["level"] as? String, "error")
    }

    func testARateLimitIsWaitedOut() throws {
        let (url, log) = try startServer(scenario: "rate-limit-once", pageSize: 200)
        let (result, _) = try pull(url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(" in 5 requests\n"), result.stderr)
        XCTAssertEqual(try requests(log).map { $0["status"] as? Int ?? 0 }, [429, 200, 200, 200, 200])
    }

    func testUnauthorizedAndForbiddenSayWhatToDoAndWriteNothing() throws {
        for (scenario, status, hint) in [("unauthorized", 401, "check the key: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID and the private key must belong together"),
                                         ("forbidden", 403, "the key's role does not allow this")] {
            let (url, _) = try startServer(scenario: scenario)
            let (result, snapshot) = try pull(url)
            XCTAssertEqual(result.status, 2, scenario)
            XCTAssertTrue(result.stderr.hasPrefix("iap: error: App Store Connect answered \(status) to GET /v1/apps: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(hint), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: snapshot.path))
            assertNoSecrets(result)
        }
    }

    func testATokenFromAnotherKeyIsRefusedByTheServer() throws {
        let (url, log) = try startServer()
        var env = environment
        env["IAP_ASC_URL"] = url
        env["IAP_ASC_PRIVATE_KEY"] = P256.Signing.PrivateKey().pemRepresentation
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.razeware.RazeFaces", "--snapshot", folder.appendingPathComponent("x.json").path],
                                       environment: env)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("iap: error: App Store Connect answered 401 to GET /v1/apps: NOT_AUTHORIZED: "), result.stderr)
        XCTAssertEqual(try requests(log).count, 1)
    }

    func testServerErrorsAreRetriedThenGivenUp() throws {
        let (url, log) = try startServer(scenario: "server-error-always")
        let (result, _) = try pull(url)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("iap: error: App Store Connect answered 503 to GET /v1/apps (after 4 tries): "), result.stderr)
        XCTAssertEqual(try requests(log).count, 4)
        let (once, onceLog) = try startServer(scenario: "server-error-once", pageSize: 200)
        XCTAssertEqual(try pull(once).0.status, 0)
        XCTAssertEqual(try requests(onceLog).map { $0["status"] as? Int ?? 0 }.first, 500)
    }

    func testBrokenBodiesAreErrorsNotEmptySnapshots() throws {
        let (malformed, _) = try startServer(scenario: "malformed-json")
        let (result, snapshot) = try pull(malformed)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "iap: error: App Store Connect's answer to GET /v1/apps cannot be read: the body is not valid JSON: line 1, column 44: expected a value, found ']'\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshot.path))
        let (truncated, _) = try startServer(scenario: "truncated-json")
        let cut = try pull(truncated).0
        XCTAssertEqual(cut.status, 2)
        XCTAssertTrue(cut.stderr.hasPrefix("iap: error: "), cut.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshot.path))
    }

    func testAHugeBodyIsCutOffAndASlowServerTimesOut() throws {
        let (huge, _) = try startServer(scenario: "huge", extra: ["--huge-mb", "100"])
        let big = try pull(huge).0
        XCTAssertEqual(big.status, 2)
        XCTAssertEqual(big.stderr, "iap: error: App Store Connect's answer to GET /v1/apps cannot be read: the response is larger than 64 MB; not read further\n")
        let (slow, _) = try startServer(scenario: "slow")
        let late = try pull(slow, timeout: 1).0
        XCTAssertEqual(late.status, 2)
        XCTAssertEqual(late.stderr, "iap: error: cannot reach App Store Connect for GET /v1/apps (4 tries): no answer within 1 s\n")
    }

    func testCheckComparesTheCatalogWithTheSnapshotIAPYMLNames() throws {
        let repo = folder.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/RazeFaces"), to: repo.appendingPathComponent("RazeFaces"))
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent(Self.snapshotExample),
                                         to: repo.appendingPathComponent("RazeFaces.snapshot.json"))
        try "catalogs:\n  - RazeFaces\nasc:\n  snapshot: RazeFaces.snapshot.json\n  app: com.razeware.RazeFaces\n  private-key-variable: IAP_ASC_MY_KEY\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let check = try IAPRunner.run(["check"], in: repo)
        XCTAssertEqual(check.status, 1, check.stderr)
        let rules = check.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }.compactMap { $0.firstMatch(of: /\[(asc-[a-z-]+)\]$/).map { String($0.1) } }
        XCTAssertEqual(rules.sorted(), ["asc-drift", "asc-extra-product", "asc-missing-product", "asc-product-not-ready"])
        XCTAssertTrue(check.stdout.contains("RazeFaces/IAP_ProductIDs.plist:8:2: error: 'com.razeware.razefaces.nightlyrage' is not in App Store Connect (app 'RazeFaces', RazeFaces.snapshot.json)"), check.stdout)
        // pull takes the app, the snapshot and the key's variable from iap.yml.
        let pull = try IAPRunner.run(["asc", "pull"], in: repo, environment: ["IAP_ASC_ISSUER_ID": "i", "IAP_ASC_KEY_ID": "K", "IAP_ASC_PRIVATE_KEY": "",
                                                                         "IAP_ASC_MY_KEY": "", "IAP_ASC_PRIVATE_KEY_PATH": ""])
        XCTAssertEqual(pull.status, 2)
        XCTAssertEqual(pull.stderr, "iap: error: no App Store Connect API key: set IAP_ASC_MY_KEY or IAP_ASC_PRIVATE_KEY_PATH: an App Store Connect API key (Users and Access › Integrations › App Store Connect API) with the App Manager, Developer or Finance role\n")
    }

    func testIAPYMLNamesTheKeysVariableAndNeverHoldsTheKey() throws {
        let repo = folder.appendingPathComponent("keyed")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        try "asc:\n  private-key-variable: \"-----BEGIN PRIVATE KEY-----MIGTAgEAMBMG\"\n".write(to: repo.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let result = try IAPRunner.run(["asc", "diff", "--snapshot", "x.json"], in: repo)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("iap.yml:2:25: asc.private-key-variable: expected the name of an environment variable that starts with IAP_ASC_, "), result.stderr)
        XCTAssertFalse(result.stderr.contains("MIGTAgEAMBMG"), result.stderr)
    }

    func testDiffPullsFirstWhenGivenTheApp() throws {
        let (url, _) = try startServer(pageSize: 200)
        var env = environment
        env["IAP_ASC_URL"] = url
        let snapshot = folder.appendingPathComponent("online.json")
        let diff = try IAPRunner.run(["asc", "diff", "--app", "com.razeware.RazeFaces", "--snapshot", snapshot.path, "catalogs/RazeFaces"], environment: env)
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stderr.hasPrefix("iap: pulled 4 in-app purchases and 2 subscriptions in 1 group of 'RazeFaces', com.razeware.RazeFaces, Apple ID 1234567890 in 4 requests\niap: wrote \(snapshot.path)\n"), diff.stderr)
        XCTAssertTrue(diff.stdout.contains("\(snapshot.path):58:7: info: 'com.razeware.razefaces.retro' is in App Store Connect"), diff.stdout)
        XCTAssertEqual(try String(contentsOf: snapshot, encoding: .utf8),
                       try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent(Self.snapshotExample), encoding: .utf8))
    }

    func testSalesReportsAreFetchedOnceThenTotalledAsTheFilesAre() throws {
        let fixtures = IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/Sales")
        let days = ["2026-11-02": "S_D_80012345_20261102.txt", "2026-11-04": "S_D_80012345_20261105.txt"]
        let reports = try days.map { date, file -> [String: Any] in
            ["vendorNumber": "80012345", "reportType": "SALES", "reportSubType": "SUMMARY", "frequency": "DAILY", "reportDate": date,
             "version": "1_1", "content": try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)]
        }
        let (url, log) = try startServer(salesReports: reports)
        var env = environment
        env["IAP_ASC_URL"] = url
        let cache = folder.appendingPathComponent("reports").path
        let arguments = ["report", "--sales", cache, "--fetch", "sales", "--vendor", "80012345", "--from", "2026-11-02", "--to", "2026-11-04", "--format", "csv"]
        let first = try IAPRunner.run(arguments, environment: env)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.hasPrefix("iap: fetched 2 reports into \(cache)\niap: App Store Connect has no report for 2026-11-03 (no sales, or not published yet)\n"), first.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache).sorted(), ["S_D_80012345_20261102.txt.gz", "S_D_80012345_20261104.txt.gz"])
        // The fetched reports total as the same reports read from files do.
        let local = try IAPRunner.run(["report", "--sales"] + days.values.sorted().map { fixtures.appendingPathComponent($0).path } + ["--format", "csv"])
        XCTAssertEqual(first.stdout.split(separator: "\n").filter { !$0.contains("S_D_") }, local.stdout.split(separator: "\n").filter { !$0.contains("S_D_") })
        XCTAssertFalse(first.stdout.isEmpty)
        // Again: only the day without a report is asked for.
        let second = try IAPRunner.run(arguments, environment: env)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.hasPrefix("iap: fetched 0 reports into \(cache) (2 already there)\n"), second.stderr)
        let sent = try requests(log)
        XCTAssertEqual(sent.map { $0["status"] as? Int ?? 0 }, [200, 404, 200, 404])
        XCTAssertTrue(sent.allSatisfy { $0["requestValid"] as? Bool == true }, "\(sent)")
        assertNoSecrets(first)
    }

    /// A nightly job on days without sales: each day is said, the folder stays empty, the report
    /// is written with empty totals, exit 0 (docs/asc.md, "Sales and finance reports").
    func testDaysWithoutSalesAreSaidAndTheEmptyTotalsWritten() throws {
        let (url, log) = try startServer()
        var env = environment
        env["IAP_ASC_URL"] = url
        let cache = folder.appendingPathComponent("reports").path
        let csv = folder.appendingPathComponent("sales.csv").path
        let result = try IAPRunner.run(["report", "--sales", cache, "--fetch", "sales", "--vendor", "80012345", "--from", "2026-11-02",
                                        "--to", "2026-11-03", "--format", "csv", "-o", csv], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, """
            iap: fetched 0 reports into \(cache)
            iap: App Store Connect has no report for 2026-11-02, 2026-11-03 (no sales, or not published yet)
            iap: no sales to total: \(cache) holds no report yet (App Store Connect has none for the dates asked); the totals are empty
            iap: wrote \(csv): 0 reports read: 0 rows, 0 unreadable, 0 products, 0 errors, 0 warnings, 0 infos

            """)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache), [])
        XCTAssertEqual(try String(contentsOfFile: csv, encoding: .utf8),
                       "date,product,title,product_type,type_category,storefront,customer_currency,units_sold,units_refunded,units_restored,"
                       + "customer_total,proceeds_currency,proceeds\r\n")
        XCTAssertEqual(try requests(log).map { $0["status"] as? Int ?? 0 }, [404, 404])
        assertNoSecrets(result)
    }

    func testPricesPulledForAStorefrontMakeAStoreKitFileAndAreCompared() throws {
        // girlfriendofdrummer (MISSING_METADATA) has no price schedule yet: App Store Connect answers 404 for it.
        let prices = ["com.razeware.razefaces.angrybirds": "1.99",
                      "com.razeware.razefaces.retro": "0.99", "com.razeware.razefaces.swiftshopping": "0.99",
                      "com.razeware.razefaces.club.monthly": "2.99", "com.razeware.razefaces.club.yearly": "29.99"]
        let offers: [String: [String: Any]] = [
            "com.razeware.razefaces.club.monthly": ["territory": "USA", "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1],
            "com.razeware.razefaces.club.yearly": ["territory": "USA", "offerMode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH", "numberOfPeriods": 3,
                                                   "customerPrice": "0.99", "currency": "USD"],
        ]
        let (url, log) = try startServer(pageSize: 200, prices: prices, offers: offers)
        var env = environment
        env["IAP_ASC_URL"] = url
        let snapshot = folder.appendingPathComponent("priced.json").path
        let storeKit = folder.appendingPathComponent("RazeFaces.storekit").path
        let pull = try IAPRunner.run(["asc", "pull", "--app", "com.razeware.RazeFaces", "--storefront", "USA", "--snapshot", snapshot, "-o", storeKit],
                                     environment: env)
        XCTAssertEqual(pull.status, 0, pull.stderr)
        // 4 without prices; 1 per in-app purchase (its manual prices in USA, its base territory; a 404
        // for the one without a schedule); 1 per subscription (its prices in USA) and 1 more for each
        // that has introductory offers (both).
        XCTAssertEqual(pull.stderr, """
        iap: pulled 4 in-app purchases and 2 subscriptions in 1 group of 'RazeFaces', com.razeware.RazeFaces, Apple ID 1234567890 in 12 requests
        iap: warning: 1 product without a price in USA in App Store Connect left out of \(storeKit): 'com.razeware.razefaces.girlfriendofdrummer'
        iap: wrote \(snapshot)
        iap: wrote \(storeKit) (5 products)

        """)
        let sent = try requests(log)
        XCTAssertTrue(sent.allSatisfy { $0["requestValid"] as? Bool == true && $0["responseValid"] as? Bool == true })
        XCTAssertEqual(sent.filter { $0["status"] as? Int == 404 }.map { $0["path"] as? String ?? "" },
                       ["/v1/inAppPurchasePriceSchedules/6450001003/manualPrices"])
        // The StoreKit configuration reads back as a catalog with the pulled prices and offers.
        let list = try IAPRunner.run(["list", storeKit, "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("\"com.razeware.razefaces.club.yearly\""), list.stdout)
        let text = try String(contentsOfFile: storeKit, encoding: .utf8)
        XCTAssertTrue(text.contains("\"displayPrice\" : \"29.99\""), text)
        XCTAssertTrue(text.contains("\"paymentMode\" : \"free\""), text)
        // The diff compares prices and offers in USA: Angry Birds costs 1.99 there, 0.99 in the catalog.
        let diff = try IAPRunner.run(["asc", "diff", "--snapshot", snapshot, "catalogs/RazeFaces"])
        let drift = diff.stdout.split(separator: "\n").filter { $0.hasSuffix("[asc-drift]") }
        XCTAssertEqual(drift.count, 3, diff.stdout)
        XCTAssertTrue(drift.contains { $0.contains("'com.razeware.razefaces.girlfriendofdrummer': the price in USA is 0.99 USD here (catalogs/RazeFaces/") && $0.contains(") but none (no price in USA today) in App Store Connect (") }, diff.stdout)
        XCTAssertTrue(drift.contains { $0.contains("'com.razeware.razefaces.angrybirds': the price in USA is 0.99 USD here (catalogs/RazeFaces/") && $0.contains(") but 1.99 USD in App Store Connect (") }, diff.stdout)
    }

    /// The network stack is loaded by the runs that talk to App Store Connect, not by every run:
    /// FoundationNetworking would load libcurl and 30 libraries more into `iap validate` (12 ms).
    func testTheBinaryLoadsNoNetworkLibraryAtStartUp() throws {
        #if os(Linux)
        let ldd = try IAPRunner.runProgram("/usr/bin/ldd", [IAPRunner.binary.path])
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        for library in ["libcurl", "FoundationNetworking", "libgnutls"] {
            XCTAssertFalse(ldd.stdout.contains(library), "iap links \(library) at start-up:\n\(ldd.stdout)")
        }
        #endif
    }

    func testABaselineKeepsKnownDriftQuiet() throws {
        let baseline = folder.appendingPathComponent("asc-baseline.json").path
        let arguments = ["asc", "diff", "--snapshot", Self.snapshotExample, "catalogs/RazeFaces"]
        let first = try IAPRunner.run(arguments + ["--write-baseline", baseline])
        XCTAssertEqual(first.status, 1, first.stderr)
        let again = try IAPRunner.run(arguments + ["--baseline", baseline])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
    }
}
