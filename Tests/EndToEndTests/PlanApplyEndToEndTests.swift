import Foundation
import TestSupport
import XCTest

/// `iap asc plan` and `iap asc apply` against the fake App Store Connect, which takes writes,
/// validates each against Apple's OpenAPI document and enforces App Store Connect's rules.
extension ASCEndToEndTests {
    /// An app with no in-app purchase yet, and products the store may add.
    static func shopStore(_ iaps: [[String: Any]] = []) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["apps": [["id": "1500000000", "bundleId": "com.acme.shop", "name": "Shop", "sku": "SHOP", "primaryLocale": "en-US"]],
                                                    "inAppPurchases": iaps])
    }

    /// Writes the catalog and makes the plan live; the plan's path.
    func makePlan(_ url: String, metadata: String = ShopCatalog.metadata, name: String = "plan.json") throws -> (IAPRunner.Result, String) {
        let catalog = folder.appendingPathComponent("Shop/Metadata.plist")
        try FileManager.default.createDirectory(at: catalog.deletingLastPathComponent(), withIntermediateDirectories: true)
        try metadata.write(to: catalog, atomically: true, encoding: .utf8)
        let plan = folder.appendingPathComponent(name).path
        var env = environment
        env["IAP_ASC_URL"] = url
        let result = try IAPRunner.run(["asc", "plan", "--app", "com.acme.shop", "--all-storefronts", "--availability",
                                        "--snapshot", folder.appendingPathComponent("shop.snapshot.json").path, catalog.deletingLastPathComponent().path,
                                        "--plan", plan], environment: env)
        return (result, plan)
    }

    func apply(_ url: String, _ plan: String, _ arguments: [String] = ["--confirm"]) throws -> IAPRunner.Result {
        var env = environment
        env["IAP_ASC_URL"] = url
        return try IAPRunner.run(["asc", "apply", plan] + arguments, environment: env)
    }

    /// Writes the shop's catalog, its subscription with `subscriptionExtra` (offers) added.
    func writeShop(subscriptionExtra: String) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Shop"), withIntermediateDirectories: true)
        try ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><true/>" + subscriptionExtra)
            .write(to: folder.appendingPathComponent("Shop/Metadata.plist"), atomically: true, encoding: .utf8)
    }

    /// `iap asc plan` of the written shop against the fake, pulled with every price and territory and `pulling`.
    func livePlan(_ url: String, _ name: String, pulling: [String]) throws -> IAPRunner.Result {
        var env = environment
        env["IAP_ASC_URL"] = url
        return try IAPRunner.run(["asc", "plan", "--app", "com.acme.shop", "--all-storefronts", "--availability"] + pulling
                                 + ["--snapshot", folder.appendingPathComponent("shop.snapshot.json").path, folder.appendingPathComponent("Shop").path,
                                    "--plan", folder.appendingPathComponent(name).path], environment: env)
    }

    func writes(_ log: URL) throws -> [[String: Any]] {
        try requests(log).filter { ($0["method"] as? String) != "GET" }
    }

    func testPlanOnAnEmptyAppApplyAndThePlanAfterShowsNoChange() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 50, extra: ["--state", state.path], storeJSON: Self.shopStore())
        let (planned, plan) = try makePlan(url)
        XCTAssertEqual(planned.status, 0, planned.stderr)
        XCTAssertTrue(planned.stderr.contains("plan: 8 steps to apply, 0 changes App Store Connect cannot make, 0 differences left as it is"), planned.stderr)
        // Without --confirm: what it would write, and nothing written.
        let dry = try apply(url, plan, [])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout.split(separator: "\n").first, "would create the subscription group 'Club' (step 1)")
        XCTAssertTrue(dry.stdout.hasSuffix("8 steps to write, 0 already done; nothing written: run with --confirm to write them\n"), dry.stdout)
        XCTAssertEqual(try writes(log).count, 0)

        let applied = try apply(url, plan)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 8 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        assertNoSecrets(applied)
        // The floor: one write per resource. A new subscription's first prices are one write, inline
        // with the subscription: USA's, and its equalization in the fake's 6 other territories.
        let written = try writes(log)
        XCTAssertEqual(written.map { "\($0["method"]!) \($0["path"]!)" }, [
            "POST /v1/subscriptionGroups", "POST /v1/subscriptions", "POST /v1/subscriptionLocalizations", "PATCH /v1/subscriptions/6400000002",
            "POST /v2/inAppPurchases", "POST /v1/inAppPurchaseLocalizations", "POST /v1/inAppPurchasePriceSchedules", "POST /v1/inAppPurchaseAvailabilities",
        ])
        let inline = ((written[3]["body"] as? [String: Any])?["included"] as? [[String: Any]]) ?? []
        XCTAssertEqual(inline.map { $0["id"] as? String }, ["CAN", "CHE", "DEU", "GBR", "JPN", "KOR", "USA"].map { "${price-\($0)}" })
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let gems = try XCTUnwrap((store["inAppPurchases"] as? [[String: Any]])?.first)
        XCTAssertEqual(gems["productId"] as? String, "com.acme.shop.gems")
        XCTAssertEqual(gems["inAppPurchaseType"] as? String, "CONSUMABLE")
        // GBR's 0.89 is USA's 0.99 equalized: it follows the base, set by App Store Connect.
        let prices = gems["prices"] as? [[String: Any]] ?? []
        XCTAssertEqual(prices.filter { ($0["manual"] as? Bool) == true }.map { "\($0["territory"]!) \($0["customerPrice"]!)" }, ["USA 0.99"])
        XCTAssertEqual(prices.filter { ($0["territory"] as? String) == "GBR" }.map { "\($0["customerPrice"]!) \($0["manual"]!)" }, ["0.89 0"])
        XCTAssertEqual((gems["availability"] as? [String: Any])?["territories"] as? [String], ["GBR", "USA"])

        let (again, second) = try makePlan(url, name: "again.json")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("plan: 0 steps to apply"), again.stderr)
        let nothing = try apply(url, second)
        XCTAssertEqual(nothing.stdout, "nothing to write: App Store Connect holds every step of the plan (0)\n")
        XCTAssertEqual(try writes(log).count, written.count)
    }

    func testAnApplyWhoseAnswersAreLostResumesWithoutWritingAnythingTwice() throws {
        // Every write's answer is lost (a 500 after App Store Connect made it): each run makes one
        // write and stops; the next reads App Store Connect first and goes on from there.
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 50, extra: ["--state", state.path, "--write-failure", "after:1"], storeJSON: Self.shopStore())
        let (_, plan) = try makePlan(url)
        var runs: [IAPRunner.Result] = []
        repeat {
            runs.append(try apply(url, plan))
        } while runs.last!.status == 75 && runs.count < 30
        XCTAssertEqual(runs.last?.status, 0, runs.last?.stderr ?? "")
        XCTAssertEqual(runs.count, 9, runs.map(\.stderr).joined())
        XCTAssertTrue(runs[0].stderr.contains("stopped at step 1 (create the subscription group 'Club'): App Store Connect answered 500 to POST /v1/subscriptionGroups"), runs[0].stderr)
        XCTAssertTrue(runs[1].stderr.contains("iap: resuming the apply journaled in"), runs[1].stderr)
        // Each of the 8 writes made once: none refused as a duplicate, none sent twice.
        let written = try writes(log)
        XCTAssertEqual(written.count, 8)
        XCTAssertEqual(Set(written.map { $0["status"] as? Int }), [500])
        let journal = try String(contentsOfFile: plan + ".journal", encoding: .utf8)
        XCTAssertEqual(journal.split(separator: "\n").filter { $0.contains("\"event\":\"start\"") }.count, 8)
    }

    func testAStalePlanIsRefusedNamingWhatMovedAndNothingIsWritten() throws {
        let (url, log) = try startServer(pageSize: 50, storeJSON: Self.shopStore())
        let (_, plan) = try makePlan(url)
        // Someone makes the in-app purchase by hand, named otherwise, before the plan is applied.
        let other = ShopCatalog.metadata.replacingOccurrences(of: "<string>A bag of gems</string>", with: "<string>Gems for the shop</string>")
        let (_, byHand) = try makePlan(url, metadata: other, name: "other.json")
        XCTAssertEqual(try apply(url, byHand).status, 0)
        let before = try writes(log).count
        let refused = try apply(url, plan)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("iap: error: the plan is stale: App Store Connect is not as the plan found it, so nothing was written:"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("step 1 (create the subscription group 'Club')") == false, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("make the plan again against App Store Connect now: `iap asc plan --app com.acme.shop --plan "), refused.stderr)
        XCTAssertEqual(try writes(log).count, before)
    }

    func testAKeyThatCannotWriteIsToldWhichRoleCan() throws {
        let (url, log) = try startServer(scenario: "read-only-key", pageSize: 50, storeJSON: Self.shopStore())
        let (_, plan) = try makePlan(url)
        let refused = try apply(url, plan)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("App Store Connect answered 403 to POST /v1/subscriptionGroups: FORBIDDEN_ERROR: The API key in use does not allow this request"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("`iap asc apply` needs a key with the App Manager or Admin role"), refused.stderr)
        XCTAssertEqual(try writes(log).count, 1)
    }

    func testAChangeAppStoreConnectCannotMakeIsBlockedInThePlanAndNeverAttempted() throws {
        let gems: [String: Any] = ["id": "6400000100", "app": "1500000000", "productId": "com.acme.shop.gems", "name": "Gems",
                                   "inAppPurchaseType": "NON_CONSUMABLE", "state": "APPROVED", "familySharable": false, "localizations": []]
        let (url, log) = try startServer(pageSize: 50, storeJSON: Self.shopStore([gems]))
        let (planned, plan) = try makePlan(url)
        XCTAssertEqual(planned.status, 1, planned.stderr)
        XCTAssertTrue(planned.stdout.contains("error: 'com.acme.shop.gems': not done: change the type from non-consumable to consumable: App Store Connect never changes a product's type"),
                      planned.stdout)
        let applied = try apply(url, plan)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertFalse(try writes(log).contains { ($0["path"] as? String)?.contains("inAppPurchase") ?? false })
    }
}

extension ASCEndToEndTests {
    func testAJournalPathThatIsNotARegularFileIsRefusedBeforeAnyWrite() throws {
        let (url, log) = try startServer(pageSize: 50, storeJSON: Self.shopStore())
        let (_, plan) = try makePlan(url)
        // A FIFO no process reads from would make a blocking open wait for ever.
        XCTAssertEqual(mkfifo(plan + ".journal", 0o600), 0)
        let fifo = try apply(url, plan)
        XCTAssertEqual(fifo.status, 2, fifo.stderr)
        XCTAssertEqual(fifo.stderr, "iap: error: the journal: cannot write '\(plan).journal': it is not a regular file, and this file is read back; "
                       + "name a regular file (or name another with --journal)\n")
        XCTAssertEqual(try writes(log).count, 0)
    }
}

extension ASCEndToEndTests {
    func testAPriceChangeKeepsPricesSetByHandAndSubscribersTheirs() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 50, extra: ["--state", state.path], storeJSON: Self.shopStore())
        // First the shop with a price in JPN that is not USA's equalized (¥160, not ¥150).
        let withYen = ShopCatalog.metadata.replacingOccurrences(of: "<key>GBR</key><string>0.89</string>",
                                                                with: "<key>GBR</key><string>0.89</string><key>JPN</key><string>160</string>")
        let (_, first) = try makePlan(url, metadata: withYen)
        XCTAssertEqual(try apply(url, first).status, 0)
        let before = try requests(log).count
        // Then new prices: USA 1.99, GBR 1.49 (its equalization would be 1.89), JPN no longer
        // named; the subscription's USA 2.99 becomes 3.99.
        let changed = ShopCatalog.metadata
            .replacingOccurrences(of: "<key>price</key><string>0.99</string>", with: "<key>price</key><string>1.99</string>")
            .replacingOccurrences(of: "<key>GBR</key><string>0.89</string>", with: "<key>GBR</key><string>1.49</string>")
            .replacingOccurrences(of: "<key>price</key><string>2.99</string>", with: "<key>price</key><string>3.99</string>")
        let (planned, second) = try makePlan(url, metadata: changed, name: "second.json")
        XCTAssertTrue(planned.stderr.contains("plan: 2 steps to apply"), planned.stderr)
        let applied = try apply(url, second)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 2 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        let written = try requests(log).dropFirst(before).filter { ($0["method"] as? String) != "GET" }
        XCTAssertEqual(written.map { "\($0["method"]!) \($0["path"]!)" }, ["POST /v1/subscriptionPrices", "POST /v1/inAppPurchasePriceSchedules"])
        // Current subscribers keep their price (no --migrate-existing-subscribers).
        let change = (written[0]["body"] as? [String: Any])?["data"] as? [String: Any]
        XCTAssertEqual((change?["attributes"] as? [String: Any])?["preserveCurrentPrice"] as? Bool, true)
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let gems = try XCTUnwrap((store["inAppPurchases"] as? [[String: Any]])?.first)
        let prices = gems["prices"] as? [[String: Any]] ?? []
        // The manual prices: the two named and the one set before in JPN, kept; the others follow USA's 1.99.
        XCTAssertEqual(prices.filter { ($0["manual"] as? Bool) == true }.map { "\($0["territory"]!) \($0["customerPrice"]!)" }.sorted(),
                       ["GBR 1.49", "JPN 160", "USA 1.99"])
        XCTAssertEqual(prices.filter { ($0["territory"] as? String) == "CAN" }.map { $0["customerPrice"] as? String }, ["2.79"])
        let (again, _) = try makePlan(url, metadata: changed, name: "third.json")
        XCTAssertTrue(again.stderr.contains("plan: 0 steps to apply"), again.stderr)
    }
}

extension ASCEndToEndTests {
    func testCheckPlansTheCatalogAgainstTheSnapshotWhenIapYmlAsks() throws {
        let root = folder.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Shop"), withIntermediateDirectories: true)
        try ShopCatalog.metadata.write(to: root.appendingPathComponent("Shop/Metadata.plist"), atomically: true, encoding: .utf8)
        try #"{"app":{"bundleId":"com.acme.shop","id":"1500000000"},"format":"iap-asc-snapshot","inAppPurchases":[],"subscriptionGroups":[],"version":1}"#
            .write(to: root.appendingPathComponent("shop.snapshot.json"), atomically: true, encoding: .utf8)
        let yml = root.appendingPathComponent("iap.yml")
        try "catalogs: [Shop]\nasc:\n  snapshot: shop.snapshot.json\n  plan: true\n".write(to: yml, atomically: true, encoding: .utf8)
        let planned = try IAPRunner.run(["check"], in: root)
        // The drift's two missing products (errors), and the plan's 8 steps (infos).
        XCTAssertEqual(planned.status, 1, planned.stderr)
        XCTAssertEqual(planned.stderr, "1 catalog file (2 products in 1 catalog) checked: 2 errors, 0 warnings, 8 infos\n")
        let steps = planned.stdout.split(separator: "\n").filter { $0.hasSuffix("[asc-plan-change]") }
        XCTAssertEqual(steps.count, 8)
        XCTAssertTrue(steps.contains("Shop/Metadata.plist:12: info: step 7: set the price of 'com.acme.shop.gems' in GBR, USA: GBR '0.89', USA '0.99' [asc-plan-change]"),
                      planned.stdout)
        // Without the key the plan is not made: check is as before.
        try "catalogs: [Shop]\nasc:\n  snapshot: shop.snapshot.json\n".write(to: yml, atomically: true, encoding: .utf8)
        let unplanned = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(unplanned.stderr, "1 catalog file (2 products in 1 catalog) checked: 2 errors, 0 warnings, 0 infos\n")
        XCTAssertFalse(unplanned.stdout.contains("asc-plan"))
        // A plan needs a snapshot to plan against.
        try "catalogs: [Shop]\nasc:\n  plan: true\n".write(to: yml, atomically: true, encoding: .utf8)
        let refused = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr, "iap: error: iap.yml:3:9: asc.plan: iap check plans the catalog against the snapshot: name it in asc.snapshot "
                       + "(`iap asc pull --app APP --snapshot AppStoreConnect.snapshot.json` writes one)\niap.yml: 1 error; fix the file (see docs/ci.md)\n")
    }
}

extension ASCEndToEndTests {
    /// docs/catalog-as-code.md's transcripts (```text blocks whose first line is `$ iap asc …`),
    /// run in order in a folder holding the shop's catalog (`Shop`), against the fake with an
    /// empty app: each block's lines after the command are its output, stdout then stderr.
    func testTheCatalogAsCodeTranscriptsAreWhatTheFakeAnswers() throws {
        let page = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("docs/catalog-as-code.md"), encoding: .utf8)
        var transcripts: [(command: String, output: String)] = []
        var block: [String]?
        for line in page.components(separatedBy: "\n") {
            if line == "```text" { block = []; continue }
            if line == "```", let lines = block {
                if let first = lines.first, first.hasPrefix("$ iap asc ") {
                    transcripts.append((String(first.dropFirst(6)), lines.dropFirst().map { $0 + "\n" }.joined()))
                }
                block = nil
                continue
            }
            block?.append(line)
        }
        XCTAssertEqual(transcripts.map { $0.command.split(separator: " ").prefix(2).joined(separator: " ") }, ["asc plan", "asc apply", "asc apply", "asc plan"])
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("Shop"), withIntermediateDirectories: true)
        try ShopCatalog.metadata.write(to: work.appendingPathComponent("Shop/Metadata.plist"), atomically: true, encoding: .utf8)
        // Pages as long as each operation's `limit` asks (up to 8,000 price points).
        let (url, _) = try startServer(pageSize: 8000, storeJSON: Self.shopStore())
        var env = environment
        env["IAP_ASC_URL"] = url
        for (command, expected) in transcripts {
            let (line, status) = ReadmeTests.exitStatus(of: command)
            let result = try IAPRunner.run(line.split(separator: " ").map(String.init), in: work, environment: env)
            XCTAssertEqual(result.stdout + result.stderr, expected, "docs/catalog-as-code.md: iap \(line)")
            XCTAssertEqual(result.status, status, "docs/catalog-as-code.md: iap \(line) exits \(result.status)")
        }
    }
}

extension ASCEndToEndTests {
    func testAnApplyKilledAtEachWriteInTurnResumesWithoutWritingAnythingTwice() throws {
        // The shop's apply is 8 writes. For each N: apply is killed as soon as App Store Connect
        // has made the Nth (while it waits on its next request: 150 ms an answer), with SIGKILL,
        // or SIGINT for the 4th (iap has no handler: it dies as at SIGKILL). The next run
        // resumes from the journal and makes the other writes, each once.
        for n in 1...8 {
            let (url, log) = try startServer(pageSize: 8000, extra: ["--latency-ms", "150"], storeJSON: Self.shopStore())
            let (_, plan) = try makePlan(url, name: "plan-\(n).json")
            var env = environment
            env["IAP_ASC_URL"] = url
            let process = Process()
            process.executableURL = IAPRunner.binary
            process.arguments = ["asc", "apply", plan, "--confirm"]
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, try writes(log).count < n, Date() < deadline { usleep(2000) }
            kill(process.processIdentifier, n == 4 ? SIGINT : SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "run \(n) ended before it was killed")
            XCTAssertEqual(try writes(log).count, n, "run \(n): killed after its \(n)th write")
            let resumed = try apply(url, plan)
            XCTAssertEqual(resumed.status, 0, "run \(n): \(resumed.stderr)")
            XCTAssertTrue(resumed.stderr.hasPrefix("iap: resuming the apply journaled in \(plan).journal\n"), resumed.stderr)
            // Killed after the last write (in the reading back), the resumed run finds every step done.
            let said = n == 8 ? "nothing to write: App Store Connect holds every step of the plan (8)\n"
                : "applied \(8 - n) step\(8 - n == 1 ? "" : "s") (\(n) already done); read back: App Store Connect holds every step of the plan"
            XCTAssertTrue(resumed.stdout.hasPrefix(said), "run \(n): \(resumed.stdout)")
            let written = try writes(log)
            XCTAssertEqual(written.count, 8, "run \(n)")
            XCTAssertTrue(written.allSatisfy { [200, 201].contains($0["status"] as? Int ?? 0) }, "run \(n): \(written.map { $0["status"] ?? "" })")
        }
    }
}

extension ASCEndToEndTests {
    func testASubscriptionsIntroductoryOfferIsMadeInEveryTerritoryItHasAPriceIn() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 8000, extra: ["--state", state.path], storeJSON: Self.shopStore())
        // Three months at 0.99 each, in USD: the USA's price; elsewhere its equalization.
        try writeShop(subscriptionExtra: "<key>introductoryOffer</key><dict><key>paymentMode</key><string>pay-as-you-go</string><key>period</key>"
                      + "<string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>0.99</string></dict>")
        func plan(_ name: String) throws -> IAPRunner.Result { try livePlan(url, name, pulling: ["--storefront", "USA"]) }
        let planned = try plan("plan.json")
        XCTAssertTrue(planned.stdout.contains("info: step 5: add the introductory offer of 'com.acme.shop.club.monthly': duration 'ONE_MONTH', mode 'PAY_AS_YOU_GO', periods '3', price '0.99' [asc-plan-change]"),
                      planned.stdout)
        let applied = try apply(url, folder.appendingPathComponent("plan.json").path)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 9 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        // One write more than the shop's 8: the offers in every territory, inline with the subscription.
        let written = try writes(log).map { "\($0["method"]!) \($0["path"]!)" }
        XCTAssertEqual(written.count, 9)
        XCTAssertEqual(written[4], "PATCH /v1/subscriptions/6400000002")
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let club = try XCTUnwrap(((store["subscriptionGroups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first)
        let offers = (club["introductoryOffers"] as? [[String: Any]] ?? []).map { "\($0["territory"]!) \($0["offerMode"]!) \($0["duration"]!)×\($0["numberOfPeriods"]!) \($0["customerPrice"]!)" }
        XCTAssertEqual(offers.sorted(), ["CAN 1.39", "CHE 0.99", "DEU 0.99", "GBR 0.89", "JPN 150", "KOR 1390", "USA 0.99"].map { entry in
            let parts = entry.split(separator: " ")
            return "\(parts[0]) PAY_AS_YOU_GO ONE_MONTH×3 \(parts[1])"
        })
        XCTAssertTrue(try plan("again.json").stderr.contains("plan: 0 steps to apply"))
    }
}

extension ASCEndToEndTests {
    func testAServerThatFailsEveryThirdWriteIsAppliedByRunningAgainEachWriteMadeOnce() throws {
        // Every 3rd write is refused with a 500 before App Store Connect makes it: each run stops
        // there (exit 75, try again), and the next goes on; nothing is written twice or refused.
        let (url, log) = try startServer(pageSize: 8000, extra: ["--write-failure", "before:3"], storeJSON: Self.shopStore())
        let (_, plan) = try makePlan(url)
        var statuses: [Int32] = []
        repeat {
            statuses.append(try apply(url, plan).status)
        } while statuses.last == 75 && statuses.count < 20
        let written = try writes(log)
        let made = written.filter { [200, 201].contains($0["status"] as? Int ?? 0) }
        let failed = written.filter { ($0["status"] as? Int) == 500 }
        XCTAssertEqual(made.count, 8)
        XCTAssertEqual(written.count, made.count + failed.count)
        // Writes 3, 6 and 9 of those sent fail: 8 made take 11 sent, so 3 runs stop and a 4th ends.
        XCTAssertEqual(failed.count, 3)
        XCTAssertEqual(statuses, [75, 75, 75, 0])
    }
}

extension ASCEndToEndTests {
    func testPromotionalOffersAreMadeWithTheirPricesAndPulledWithTheSubscriptions() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 8000, extra: ["--state", state.path], storeJSON: Self.shopStore())
        try writeShop(subscriptionExtra: "<key>promotionalOffers</key><array>"
            + "<dict><key>id</key><string>WINBACK1</string><key>referenceName</key><string>Come back</string><key>paymentMode</key><string>pay-up-front</string>"
            + "<key>period</key><string>P3M</string><key>price</key><string>4.99</string></dict>"
            + "<dict><key>id</key><string>FREEMONTH</string><key>referenceName</key><string>A free month</string><key>paymentMode</key><string>free-trial</string>"
            + "<key>period</key><string>P1M</string></dict></array>")
        func plan(_ name: String) throws -> IAPRunner.Result { try livePlan(url, name, pulling: ["--promotional-offers"]) }
        XCTAssertTrue(try plan("plan.json").stderr.contains("plan: 10 steps to apply"))
        let applied = try apply(url, folder.appendingPathComponent("plan.json").path)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 10 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        // One write an offer, after the subscription's prices.
        let written = try writes(log).map { "\($0["method"]!) \($0["path"]!)" }
        XCTAssertEqual(Array(written[3...5]), ["PATCH /v1/subscriptions/6400000002", "POST /v1/subscriptionPromotionalOffers", "POST /v1/subscriptionPromotionalOffers"])
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let club = try XCTUnwrap(((store["subscriptionGroups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first)
        let made = club["promotionalOffers"] as? [[String: Any]] ?? []
        XCTAssertEqual(made.map { $0["offerCode"] as? String }, ["WINBACK1", "FREEMONTH"])
        // In each of the fake's 7 territories (where the subscription has a price): the paid one at
        // 4.99 in USA and its equalization elsewhere, the free one without a price.
        let paid = (made.first?["prices"] as? [[String: Any]] ?? []).map { "\($0["territory"]!) \($0["customerPrice"]!)" }
        XCTAssertEqual(paid, ["CAN 6.99", "CHE 4.99", "DEU 4.99", "GBR 4.89", "JPN 750", "KOR 6990", "USA 4.99"])
        XCTAssertEqual((made.last?["prices"] as? [[String: Any]] ?? []).map { $0.keys.sorted() }, Array(repeating: ["territory"], count: 7))
        // Planned again: nothing; the offers come with the list of subscriptions (no request more).
        let before = try requests(log).count
        let again = try plan("again.json")
        XCTAssertTrue(again.stderr.contains("plan: 0 steps to apply"), again.stderr)
        XCTAssertFalse(try requests(log).dropFirst(before).contains { ($0["path"] as? String)?.hasSuffix("/promotionalOffers") ?? false })
        let snapshot = try String(contentsOf: folder.appendingPathComponent("shop.snapshot.json"), encoding: .utf8)
        XCTAssertTrue(snapshot.contains(#""code" : "FREEMONTH""#), snapshot)
    }
}

extension ASCEndToEndTests {
    /// A day `days` after today, in UTC (`YYYY-MM-DD`).
    static func day(in days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(Double(days) * 86_400))
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func testAPriceChangeWithAStartDateIsScheduledAndThenDone() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 50, extra: ["--state", state.path], storeJSON: Self.shopStore())
        let (_, first) = try makePlan(url)
        XCTAssertEqual(try apply(url, first).status, 0)
        let before = try requests(log).count
        // New prices from a day ahead: gems USA 1.99 and GBR 1.49, the subscription's USA 3.99.
        let later = Self.day(in: 400)
        let start = "<key>priceStartDate</key><string>\(later)</string>"
        let changed = ShopCatalog.metadata
            .replacingOccurrences(of: "<key>price</key><string>0.99</string>", with: "<key>price</key><string>1.99</string>" + start)
            .replacingOccurrences(of: "<key>GBR</key><string>0.89</string>", with: "<key>GBR</key><string>1.49</string>")
            .replacingOccurrences(of: "<key>price</key><string>2.99</string>", with: "<key>price</key><string>3.99</string>" + start)
        let (planned, second) = try makePlan(url, metadata: changed, name: "second.json")
        XCTAssertTrue(planned.stderr.contains("plan: 2 steps to apply"), planned.stderr)
        XCTAssertTrue(planned.stdout.contains("set the price of 'com.acme.shop.club.monthly' in USA from \(later)"), planned.stdout)
        XCTAssertTrue(planned.stdout.contains("set the price of 'com.acme.shop.gems' in GBR, USA from \(later)"), planned.stdout)
        let applied = try apply(url, second)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 2 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        let written = try requests(log).dropFirst(before).filter { ($0["method"] as? String) != "GET" }
        XCTAssertEqual(written.map { "\($0["method"]!) \($0["path"]!)" }, ["POST /v1/subscriptionPrices", "POST /v1/inAppPurchasePriceSchedules"])
        let change = (written[0]["body"] as? [String: Any])?["data"] as? [String: Any]
        XCTAssertEqual((change?["attributes"] as? [String: Any])?["startDate"] as? String, later)
        // Today's prices until the day, the new ones from it; GBR's 0.89 is USA's equalization
        // (no manual price) until its manual 1.49 starts.
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let gems = try XCTUnwrap((store["inAppPurchases"] as? [[String: Any]])?.first)
        let manual = (gems["prices"] as? [[String: Any]] ?? []).filter { ($0["manual"] as? Bool) == true }
        XCTAssertEqual(manual.map { "\($0["territory"]!) \($0["customerPrice"]!) \($0["startDate"] as? String ?? "-") \($0["endDate"] as? String ?? "-")" }.sorted(),
                       ["GBR 1.49 \(later) -", "USA 0.99 - \(later)", "USA 1.99 \(later) -"])
        XCTAssertEqual((gems["prices"] as? [[String: Any]] ?? []).filter { ($0["territory"] as? String) == "GBR" && ($0["manual"] as? Bool) == false }
            .map { "\($0["customerPrice"]!) \($0["endDate"] as? String ?? "-")" }, ["0.89 \(later)"])
        // The snapshot keeps the change ahead beside today's price, and the plan is done.
        let (again, _) = try makePlan(url, metadata: changed, name: "third.json")
        XCTAssertTrue(again.stderr.contains("plan: 0 steps to apply"), again.stderr)
        let snapshot = try String(contentsOf: folder.appendingPathComponent("shop.snapshot.json"), encoding: .utf8)
        XCTAssertTrue(snapshot.contains("\"USA\" : \"0.99 USD\""), snapshot)
        XCTAssertTrue(snapshot.contains("\"USA\" : \"\(later) 1.99 USD\""), snapshot)
        XCTAssertTrue(snapshot.contains("\"USA\" : \"\(later) 3.99 USD\""), snapshot)

        // A start date that has passed: planned (a snapshot does not know today), never written.
        let passed = changed.replacingOccurrences(of: later, with: "2020-01-01").replacingOccurrences(of: "3.99", with: "4.99")
        let (late, third) = try makePlan(url, metadata: passed, name: "late.json")
        XCTAssertTrue(late.stderr.contains("plan: 2 steps to apply"), late.stderr)
        let writesBefore = try writes(log).count
        let refused = try apply(url, third)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the price change of 'com.acme.shop.club.monthly' starts on 2020-01-01, and today is \(Self.day(in: 0)): "
                                              + "App Store Connect schedules a change only after today; change priceStartDate in the catalog"), refused.stderr)
        XCTAssertEqual(try writes(log).count, writesBefore)
    }
}

extension ASCEndToEndTests {
    func testWinBackOffersAreMadeWithTheirEligibilityAndAPlanPulledWithOffersApplies() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 8000, extra: ["--state", state.path], storeJSON: Self.shopStore())
        let later = Self.day(in: 30)
        let offers = "<key>winBackOffers</key><array>"
            + "<dict><key>id</key><string>COMEBACK</string><key>referenceName</key><string>Come back</string><key>paymentMode</key><string>pay-as-you-go</string>"
            + "<key>period</key><string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>0.99</string>"
            + "<key>paidMonths</key><integer>2</integer><key>lapsedMonths</key><dict><key>min</key><integer>1</integer><key>max</key><integer>12</integer></dict>"
            + "<key>waitMonths</key><integer>6</integer><key>startDate</key><string>\(later)</string><key>priority</key><string>high</string></dict>"
            + "</array>"
        try writeShop(subscriptionExtra: offers)
        func plan(_ name: String) throws -> IAPRunner.Result { try livePlan(url, name, pulling: ["--promotional-offers", "--win-back-offers"]) }
        let planned = try plan("plan.json")
        XCTAssertTrue(planned.stderr.contains("plan: 9 steps to apply"), planned.stderr)
        XCTAssertTrue(planned.stdout.contains("step 5: add the win-back offer 'COMEBACK' of 'com.acme.shop.club.monthly': code 'COMEBACK', "
                                              + "duration 'ONE_MONTH', lapsedMaxMonths '12', lapsedMinMonths '1', mode 'PAY_AS_YOU_GO', name 'Come back', "
                                              + "paidMonths '2', periods '3', price '0.99', priority 'HIGH', startDate '\(later)', waitMonths '6'"), planned.stdout)
        let applied = try apply(url, folder.appendingPathComponent("plan.json").path)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 9 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        // One write, after the subscription's prices.
        XCTAssertEqual(try writes(log).map { "\($0["method"]!) \($0["path"]!)" }[3...4], ["PATCH /v1/subscriptions/6400000002", "POST /v1/winBackOffers"])
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let club = try XCTUnwrap(((store["subscriptionGroups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first)
        let made = try XCTUnwrap((club["winBackOffers"] as? [[String: Any]])?.first)
        XCTAssertEqual(made["customerEligibilityTimeSinceLastSubscribedInMonths"] as? [String: Int], ["minimum": 1, "maximum": 12])
        XCTAssertEqual(made["customerEligibilityWaitBetweenOffersInMonths"] as? Int, 6)
        XCTAssertEqual(made["priority"] as? String, "HIGH")
        // In each of the fake's 7 territories: 0.99 in USA and its equalization elsewhere.
        let prices = (made["prices"] as? [[String: Any]] ?? []).map { "\($0["territory"]!) \($0["customerPrice"]!)" }
        XCTAssertEqual(prices.count, 7)
        XCTAssertTrue(prices.contains("USA 0.99"), "\(prices)")
        // Planned again: nothing. A later change (the subscription's name), planned against a
        // snapshot pulled with both kinds of offer, is applied: the plan says how it was pulled.
        XCTAssertTrue(try plan("again.json").stderr.contains("plan: 0 steps to apply"))
        try writeShop(subscriptionExtra: offers + "<key>reviewNote</key><string>Subscribe in Settings.</string>")
        XCTAssertTrue(try plan("note.json").stderr.contains("plan: 1 step to apply"))
        let noted = try apply(url, folder.appendingPathComponent("note.json").path)
        XCTAssertEqual(noted.status, 0, noted.stderr)
        XCTAssertTrue(noted.stdout.hasPrefix("applied 1 step (0 already done)"), noted.stdout)
    }
}

extension ASCEndToEndTests {
    func testOfferCodesAreMadeWithTheirPricesAndWhoMayRedeemThem() throws {
        let state = folder.appendingPathComponent("state.json")
        let (url, log) = try startServer(pageSize: 8000, extra: ["--state", state.path], storeJSON: Self.shopStore())
        try writeShop(subscriptionExtra: "<key>offerCodes</key><array>"
            + "<dict><key>referenceName</key><string>Spring 2027</string><key>paymentMode</key><string>pay-up-front</string>"
            + "<key>period</key><string>P3M</string><key>price</key><string>4.99</string>"
            + "<key>eligibility</key><array><string>expired</string><string>new</string></array>"
            + "<key>customCodes</key><array><dict><key>code</key><string>SPRING27</string><key>numberOfCodes</key><integer>500</integer>"
            + "<key>expirationDate</key><string>\(Self.day(in: 90))</string></dict></array></dict>"
            + "<dict><key>referenceName</key><string>Free month</string><key>paymentMode</key><string>free-trial</string>"
            + "<key>period</key><string>P1M</string><key>eligibility</key><array><string>existing</string></array>"
            + "<key>stackable</key><true/></dict></array>")
        func plan(_ name: String) throws -> IAPRunner.Result { try livePlan(url, name, pulling: ["--offer-codes"]) }
        let planned = try plan("plan.json")
        XCTAssertTrue(planned.stderr.contains("plan: 11 steps to apply"), planned.stderr)
        XCTAssertTrue(planned.stdout.contains("add the offer code 'Spring 2027' of 'com.acme.shop.club.monthly': "
                                              + "customerEligibilities 'NEW,EXPIRED', duration 'THREE_MONTHS', mode 'PAY_UP_FRONT', name 'Spring 2027', "
                                              + "offerEligibility 'REPLACE_INTRO_OFFERS', periods '1', price '4.99'"), planned.stdout)
        let applied = try apply(url, folder.appendingPathComponent("plan.json").path)
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertTrue(applied.stdout.hasPrefix("applied 11 steps (0 already done); read back: App Store Connect holds every step of the plan"), applied.stdout)
        // One write a campaign, after the subscription's prices, and one for its custom code.
        XCTAssertEqual(try writes(log).map { "\($0["method"]!) \($0["path"]!)" }[3...6],
                       ["PATCH /v1/subscriptions/6400000002", "POST /v1/subscriptionOfferCodes", "POST /v1/subscriptionOfferCodeCustomCodes",
                        "POST /v1/subscriptionOfferCodes"])
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let club = try XCTUnwrap(((store["subscriptionGroups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first)
        let made = club["offerCodes"] as? [[String: Any]] ?? []
        XCTAssertEqual(made.map { "\($0["name"]!) \(($0["customerEligibilities"] as? [String] ?? []).joined(separator: ",")) \($0["offerEligibility"]!)" },
                       ["Spring 2027 NEW,EXPIRED REPLACE_INTRO_OFFERS", "Free month EXISTING STACK_WITH_INTRO_OFFERS"])
        // In each of the fake's 7 territories: the paid one at 4.99 in USA and its equalization
        // elsewhere, the free one without a price.
        let paid = (made.first?["prices"] as? [[String: Any]] ?? []).map { "\($0["territory"]!) \($0["customerPrice"]!)" }
        XCTAssertEqual(paid, ["CAN 6.99", "CHE 4.99", "DEU 4.99", "GBR 4.89", "JPN 750", "KOR 6990", "USA 4.99"])
        XCTAssertEqual((made.last?["prices"] as? [[String: Any]] ?? []).map { $0.keys.sorted() }, Array(repeating: ["territory"], count: 7))
        let custom = (made.first?["customCodes"] as? [[String: Any]] ?? []).map { "\($0["customCode"]!) \($0["numberOfCodes"]!) \($0["expirationDate"]!)" }
        XCTAssertEqual(custom, ["SPRING27 500 \(Self.day(in: 90))"])
        // Planned again: nothing; one request more for the subscription that has offer codes
        // (they come with their custom codes).
        let before = try requests(log).count
        XCTAssertTrue(try plan("again.json").stderr.contains("plan: 0 steps to apply"))
        XCTAssertEqual(try requests(log).dropFirst(before).compactMap { $0["path"] as? String }.filter { $0.hasSuffix("/offerCodes") },
                       ["/v1/subscriptions/6400000002/offerCodes"])
        let snapshot = try String(contentsOf: folder.appendingPathComponent("shop.snapshot.json"), encoding: .utf8)
        XCTAssertTrue(snapshot.contains(#""offerEligibility" : "STACK_WITH_INTRO_OFFERS""#), snapshot)
    }

    func testASubscriptionWithMoreOfferCodesThanItsListIncludesIsReadWhole() throws {
        var store = try XCTUnwrap(JSONSerialization.jsonObject(with: try self.store()) as? [String: Any])
        var groups = try XCTUnwrap(store["subscriptionGroups"] as? [[String: Any]])
        var subscriptions = try XCTUnwrap(groups[0]["subscriptions"] as? [[String: Any]])
        // 51: one more than a list includes a subscription.
        subscriptions[0]["offerCodes"] = (1...51).map { n -> [String: Any] in
            ["id": "\(8_000_000 + n)", "name": String(format: "Code %02d", n), "customerEligibilities": ["NEW"], "offerEligibility": "REPLACE_INTRO_OFFERS",
             "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1, "active": n != 51]
        }
        groups[0]["subscriptions"] = subscriptions
        store["subscriptionGroups"] = groups
        let (url, log) = try startServer(pageSize: 8000, storeJSON: try JSONSerialization.data(withJSONObject: store))
        let snapshot = folder.appendingPathComponent("pulled.json")
        var env = environment
        env["IAP_ASC_URL"] = url
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.razeware.RazeFaces", "--offer-codes", "--snapshot", snapshot.path], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        let pulled = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        let all = (pulled["subscriptionGroups"] as? [[String: Any]] ?? []).flatMap { $0["subscriptions"] as? [[String: Any]] ?? [] }
        let codes = try XCTUnwrap(all.first { $0["id"] as? String == subscriptions[0]["id"] as? String }?["offerCodes"] as? [[String: Any]])
        XCTAssertEqual(codes.count, 51)
        XCTAssertEqual(codes.last.map { "\($0["name"]!) \($0["active"]!)" }, "Code 51 0")
        // The other subscriptions have none, and say so (an empty list, not "not pulled").
        XCTAssertEqual(all.filter { ($0["offerCodes"] as? [Any])?.isEmpty == true }.count, all.count - 1)
        // One request more, for the subscription with more than its list included.
        let more = try requests(log).compactMap { $0["path"] as? String }.filter { $0.hasSuffix("/offerCodes") }
        XCTAssertEqual(more, ["/v1/subscriptions/\(subscriptions[0]["id"]!)/offerCodes"])
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
    }
}

extension ASCEndToEndTests {
    func testAnOfferCodeWhoseAnswerIsLostGetsItsCustomCodeOnTheNextRunMadeOnce() throws {
        // Every 2nd write is made but its answer lost (a 500 after App Store Connect made it): the
        // run stops, and the next reads what was made and goes on.
        let (url, log) = try startServer(pageSize: 8000, extra: ["--write-failure", "after:2"], storeJSON: Self.shopStore())
        try writeShop(subscriptionExtra: "<key>offerCodes</key><array>"
            + "<dict><key>referenceName</key><string>Spring</string><key>paymentMode</key><string>free-trial</string>"
            + "<key>period</key><string>P1M</string><key>eligibility</key><array><string>new</string></array>"
            + "<key>customCodes</key><array><dict><key>code</key><string>SPRING</string><key>numberOfCodes</key><integer>10</integer></dict>"
            + "<dict><key>code</key><string>FRIENDS</string><key>numberOfCodes</key><integer>3</integer></dict></array></dict></array>")
        XCTAssertTrue(try livePlan(url, "plan.json", pulling: ["--offer-codes"]).stderr.contains("plan: 11 steps to apply"))
        var statuses: [Int32] = []
        repeat {
            statuses.append(try apply(url, folder.appendingPathComponent("plan.json").path).status)
        } while statuses.last == 75 && statuses.count < 20
        XCTAssertEqual(statuses.last, 0)
        // Each write once: the first custom code's answer is lost, and the next run, which finds
        // the offer code and that custom code by reading App Store Connect, makes only the second.
        XCTAssertEqual(try writes(log).map { "\($0["path"]!) \($0["status"]!)" }, [
            "/v1/subscriptionGroups 201", "/v1/subscriptions 500", "/v1/subscriptionLocalizations 201", "/v1/subscriptions/6400000002 500",
            "/v1/subscriptionOfferCodes 201", "/v1/subscriptionOfferCodeCustomCodes 500", "/v1/subscriptionOfferCodeCustomCodes 201",
            "/v2/inAppPurchases 500", "/v1/inAppPurchaseLocalizations 201", "/v1/inAppPurchasePriceSchedules 500", "/v1/inAppPurchaseAvailabilities 201"])
        XCTAssertEqual(statuses, [75, 75, 75, 75, 75, 0])
        let words = try writes(log).filter { ($0["path"] as? String) == "/v1/subscriptionOfferCodeCustomCodes" }
            .map { ((($0["body"] as? [String: Any])?["data"] as? [String: Any])?["attributes"] as? [String: Any])?["customCode"] as? String }
        XCTAssertEqual(words, ["SPRING", "FRIENDS"])
        XCTAssertTrue(try livePlan(url, "again.json", pulling: ["--offer-codes"]).stderr.contains("plan: 0 steps to apply"))
    }
}
