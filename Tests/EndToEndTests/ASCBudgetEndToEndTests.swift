import Foundation
import XCTest

/// The request budget of `iap asc pull` against the fake App Store Connect: the requests a pull
/// with prices takes (docs/asc.md's formula), the same snapshot on any number of connections, and
/// a pull that stops at the hour's limit, writes a partial snapshot no command takes for a whole
/// one, and finishes with `--resume` without asking again for what it has.
extension ASCEndToEndTests {
    /// A store of generated products: `base` in-app purchases priced by hand in USA (their base
    /// territory), `equalized` whose USA price is automatic (base CAN), `unscheduled` with no price
    /// schedule yet; groups of subscriptions, `withOffers` of each group's having an introductory
    /// offer in USA.
    func generatedStore(base: Int, equalized: Int, unscheduled: Int, groups: Int, perGroup: Int, withOffers: Int) throws -> Data {
        var purchases: [[String: Any]] = []
        var number = 0
        func product(_ kind: String) -> (id: String, productId: String, localizations: [[String: Any]]) {
            number += 1
            let productId = "com.acme.budget.\(kind)\(number)"
            return ("\(6_500_000_000 + number)", productId,
                    [["id": "\(8_000_000 + number)", "locale": "en-US", "name": "Item \(number)", "description": "Item number \(number)", "state": "APPROVED"]])
        }
        for (kind, count) in [("base", base), ("equalized", equalized), ("unscheduled", unscheduled)] {
            for _ in 0..<count {
                let p = product(kind)
                var item: [String: Any] = ["id": p.id, "app": "1234567890", "productId": p.productId, "name": p.productId,
                                           "inAppPurchaseType": "CONSUMABLE", "state": kind == "unscheduled" ? "MISSING_METADATA" : "APPROVED",
                                           "familySharable": false, "localizations": p.localizations]
                switch kind {
                case "base": item["prices"] = [["territory": "USA", "currency": "USD", "customerPrice": "0.99", "proceeds": "0.70", "manual": true]]
                case "equalized": item["prices"] = [["territory": "CAN", "currency": "CAD", "customerPrice": "1.39", "proceeds": "0.97", "manual": true],
                                                    ["territory": "USA", "currency": "USD", "customerPrice": "0.99", "proceeds": "0.70", "manual": false]]
                default: break
                }
                purchases.append(item)
            }
        }
        var groupList: [[String: Any]] = []
        for g in 0..<groups {
            var subscriptions: [[String: Any]] = []
            for s in 0..<perGroup {
                let p = product("sub")
                var item: [String: Any] = ["id": p.id, "productId": p.productId, "name": p.productId, "state": "APPROVED",
                                           "subscriptionPeriod": "ONE_MONTH", "groupLevel": s + 1, "familySharable": false,
                                           "localizations": p.localizations,
                                           "prices": [["territory": "USA", "currency": "USD", "customerPrice": "2.99", "proceeds": "2.09"]]]
                if s < withOffers {
                    item["introductoryOffers"] = [["territory": "USA", "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1]]
                }
                subscriptions.append(item)
            }
            groupList.append(["id": "\(21_000_000 + g)", "app": "1234567890", "referenceName": "Group \(g)", "subscriptions": subscriptions])
        }
        let app: [String: Any] = ["id": "1234567890", "bundleId": "com.acme.budget", "name": "Budget"]
        return try JSONSerialization.data(withJSONObject: ["apps": [app], "inAppPurchases": purchases, "subscriptionGroups": groupList])
    }

    func startStoreServer(_ store: Data, pageSize: Int, extra: [String] = []) throws -> (url: String, log: URL) {
        let path = folder.appendingPathComponent("generated-\(servers.count).json")
        try store.write(to: path)
        return try startServer(pageSize: pageSize, extra: ["--store", path.path] + extra)
    }

    func pullBudget(_ url: String, snapshot: String, extra: [String] = []) throws -> IAPRunner.Result {
        var env = environment
        env["IAP_ASC_URL"] = url
        return try IAPRunner.run(["asc", "pull", "--app", "com.acme.budget", "--storefront", "USA", "--snapshot", snapshot] + extra, environment: env)
    }

    func testAPullWithPricesTakesOneRequestPerProductPlusThePages() throws {
        let (base, equalized, unscheduled, groups, perGroup, withOffers, page) = (7, 3, 2, 2, 4, 1, 3)
        let store = try generatedStore(base: base, equalized: equalized, unscheduled: unscheduled, groups: groups, perGroup: perGroup, withOffers: withOffers)
        let (url, log) = try startStoreServer(store, pageSize: page)
        let snapshot = folder.appendingPathComponent("budget.json").path
        let result = try pullBudget(url, snapshot: snapshot)
        XCTAssertEqual(result.status, 0, result.stderr)
        // docs/asc.md: the app, the pages of each list, one request per product for its price, one
        // more per in-app purchase whose storefront price is automatic and per subscription with
        // introductory offers. A purchase without a price schedule costs its one (a 404).
        func pages(_ n: Int) -> Int { max(1, (n + page - 1) / page) }
        let purchases = base + equalized + unscheduled
        let expected = 1 + pages(purchases) + pages(groups) + groups * pages(perGroup)
            + purchases + equalized + groups * perGroup + groups * withOffers
        XCTAssertTrue(result.stderr.contains(" in \(expected) requests\n"), "expected \(expected): \(result.stderr)")
        let sent = try requests(log)
        XCTAssertEqual(sent.count, expected)
        XCTAssertTrue(sent.allSatisfy { $0["requestValid"] as? Bool == true }, "\(sent.filter { $0["requestValid"] as? Bool != true })")
        XCTAssertEqual(sent.filter { $0["status"] as? Int == 404 }.count, unscheduled)
        // Every product is in the snapshot; the unscheduled ones without a price, the others at theirs.
        let text = try String(contentsOfFile: snapshot, encoding: .utf8)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let listed = try XCTUnwrap(object["inAppPurchases"] as? [[String: Any]])
        XCTAssertEqual(listed.count, purchases)
        XCTAssertEqual(listed.filter { $0["price"] == nil }.map { $0["productId"] as? String ?? "" }.sorted(),
                       (base + equalized + 1...purchases).map { "com.acme.budget.unscheduled\($0)" }.sorted())
        XCTAssertEqual(Set(listed.compactMap { ($0["price"] as? [String: Any])?["amount"] as? String }), ["0.99"])
    }

    func testTheSnapshotIsTheSameOnOneConnectionOrEight() throws {
        let store = try generatedStore(base: 20, equalized: 5, unscheduled: 3, groups: 3, perGroup: 6, withOffers: 2)
        var texts: [String] = []
        var counts: [Int] = []
        for connections in ["1", "8"] {
            let (url, log) = try startStoreServer(store, pageSize: 4)
            let snapshot = folder.appendingPathComponent("c\(connections).json").path
            let result = try pullBudget(url, snapshot: snapshot, extra: ["--connections", connections])
            XCTAssertEqual(result.status, 0, result.stderr)
            texts.append(try String(contentsOfFile: snapshot, encoding: .utf8))
            counts.append(try requests(log).count)
        }
        XCTAssertEqual(texts[0], texts[1])
        XCTAssertEqual(counts[0], counts[1])
        let refused = try IAPRunner.run(["asc", "pull", "--app", "com.acme.budget", "--snapshot", "x.json", "--connections", "9"], environment: environment)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--connections is between 1 and 8"), refused.stderr)
    }

    func testAPullThatMeetsTheHoursLimitStopsWritesAPartialSnapshotAndResumes() throws {
        // 12 in-app purchases and 2 groups of 3 subscriptions, none with offers: one request each.
        let store = try generatedStore(base: 12, equalized: 0, unscheduled: 0, groups: 2, perGroup: 3, withOffers: 0)
        // The whole pull in one go, for comparison.
        let (whole, wholeLog) = try startStoreServer(store, pageSize: 200)
        let wholePath = folder.appendingPathComponent("whole.json").path
        XCTAssertEqual(try pullBudget(whole, snapshot: wholePath).status, 0)
        let wholeCount = try requests(wholeLog).count
        XCTAssertEqual(wholeCount, 1 + 1 + 1 + 2 + 12 + 6)

        // An hour with 10 requests left: the lists (5) and 5 prices, then the pull stops.
        let (limited, limitedLog) = try startStoreServer(store, pageSize: 200, extra: ["--hour-limit", "10"])
        let path = folder.appendingPathComponent("partial.json").path
        let first = try pullBudget(limited, snapshot: path, extra: ["--connections", "1"])
        XCTAssertEqual(first.status, 75, first.stderr)
        XCTAssertEqual(try requests(limitedLog).map { $0["status"] as? Int ?? 0 }, Array(repeating: 200, count: 10), "no request was refused")
        XCTAssertEqual(first.stderr, """
        iap: pulled 12 in-app purchases and 6 subscriptions in 2 groups of 'Budget', com.acme.budget, Apple ID 1234567890 in 10 requests
        iap: stopped before the pull was done: App Store Connect allows this key's 10 requests an hour and they are spent; stopped before it refuses them (429). Run again in an hour, when the hour's requests are counted anew
        iap: 13 requests left; finish it with `iap asc pull --resume --snapshot \(path)`
        iap: wrote \(path) (partial)

        """)
        let partial = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(partial.contains("\"format\" : \"iap-asc-snapshot-partial\""), partial)

        // No command takes it for a whole snapshot.
        let diff = try IAPRunner.run(["asc", "diff", "--snapshot", path, "catalogs/RazeFaces"])
        XCTAssertEqual(diff.status, 2, diff.stderr)
        XCTAssertEqual(diff.stderr, "iap: error: \(path): a partial snapshot: its pull stopped before it was done, so it lacks products or prices; finish it with `iap asc pull --resume --snapshot \(path)`\n")

        // `asc diff --app` that meets the limit keeps what it pulled and compares nothing.
        let (spent, _) = try startStoreServer(store, pageSize: 200, extra: ["--hour-limit", "10"])
        var spentEnv = environment
        spentEnv["IAP_ASC_URL"] = spent
        let diffPath = folder.appendingPathComponent("diffed.json").path
        let pulledDiff = try IAPRunner.run(["asc", "diff", "--app", "com.acme.budget", "--storefront", "USA", "--connections", "1",
                                            "--snapshot", diffPath, "catalogs/RazeFaces"], environment: spentEnv)
        XCTAssertEqual(pulledDiff.status, 75, pulledDiff.stderr)
        XCTAssertTrue(pulledDiff.stderr.hasSuffix("— wrote the partial snapshot \(diffPath); nothing compared. Finish it with `iap asc pull --resume --snapshot \(diffPath)`, then run `iap asc diff` again\n"), pulledDiff.stderr)
        XCTAssertEqual(pulledDiff.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: diffPath, encoding: .utf8), partial)

        // The next hour: only what it lacks is asked for, and the result is the whole pull's, byte for byte.
        let (next, nextLog) = try startStoreServer(store, pageSize: 200)
        var env = environment
        env["IAP_ASC_URL"] = next
        let resumed = try IAPRunner.run(["asc", "pull", "--resume", "--snapshot", path], environment: env)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(resumed.stderr, """
        iap: finished the pull of 12 in-app purchases and 6 subscriptions in 2 groups of 'Budget', com.acme.budget, Apple ID 1234567890 in 13 requests
        iap: wrote \(path)

        """)
        XCTAssertEqual(try requests(nextLog).count, 13)
        XCTAssertEqual(10 + 13, wholeCount)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), try String(contentsOfFile: wholePath, encoding: .utf8))
        // Resuming a whole snapshot pulls anew, saying so.
        let again = try IAPRunner.run(["asc", "pull", "--resume", "--snapshot", path], environment: env)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.hasPrefix("iap: \(path) is a whole snapshot: nothing to resume; pulling anew\n"), again.stderr)
        // Pulled anew in the storefront it had.
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), try String(contentsOfFile: wholePath, encoding: .utf8))
    }
}
