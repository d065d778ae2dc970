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
        // The floor: one write per resource. The subscription's price is one write in each of the
        // fake's 7 territories (USA's, and its equalization in the 6 others).
        let written = try writes(log)
        XCTAssertEqual(written.map { "\($0["method"]!) \($0["path"]!)" }, [
            "POST /v1/subscriptionGroups", "POST /v1/subscriptions", "POST /v1/subscriptionLocalizations",
        ] + Array(repeating: "POST /v1/subscriptionPrices", count: 7) + [
            "POST /v2/inAppPurchases", "POST /v1/inAppPurchaseLocalizations", "POST /v1/inAppPurchasePriceSchedules", "POST /v1/inAppPurchaseAvailabilities",
        ])
        XCTAssertTrue(try requests(log).allSatisfy { ($0["requestValid"] as? Bool) == true && ($0["responseValid"] as? Bool) == true })
        let store = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        let gems = try XCTUnwrap((store["inAppPurchases"] as? [[String: Any]])?.first)
        XCTAssertEqual(gems["productId"] as? String, "com.acme.shop.gems")
        XCTAssertEqual(gems["inAppPurchaseType"] as? String, "CONSUMABLE")
        let manual = (gems["prices"] as? [[String: Any]] ?? []).filter { ($0["manual"] as? Bool) == true }
        XCTAssertEqual(manual.map { "\($0["territory"]!) \($0["customerPrice"]!)" }.sorted(), ["GBR 0.89", "USA 0.99"])
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
        XCTAssertEqual(runs.count, 15, runs.map(\.stderr).joined())
        XCTAssertTrue(runs[0].stderr.contains("stopped at step 1 (create the subscription group 'Club'): App Store Connect answered 500 to POST /v1/subscriptionGroups"), runs[0].stderr)
        XCTAssertTrue(runs[1].stderr.contains("iap: resuming the apply journaled in"), runs[1].stderr)
        // Each of the 14 writes made once: none refused as a duplicate, none sent twice.
        let written = try writes(log)
        XCTAssertEqual(written.count, 14)
        XCTAssertEqual(Set(written.map { $0["status"] as? Int }), [500])
        let journal = try String(contentsOfFile: plan + ".journal", encoding: .utf8)
        XCTAssertEqual(journal.split(separator: "\n").filter { $0.contains("\"event\":\"start\"") }.count, 14)
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
