import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

final class SnapshotPullTests: XCTestCase {
    func client(_ transport: StubTransport) throws -> ASCClient {
        let key = try APIKey(issuerID: "issuer", keyID: "KEY", pem: P256.Signing.PrivateKey().pemRepresentation)
        return try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
    }

    let apps = #"{"data":[{"type":"apps","id":"99","attributes":{"bundleId":"com.acme.app.watch","name":"Watch"}},{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app","name":"Acme"}}],"links":{"self":"x"}}"#
    let purchasesQuery = "/v1/apps/1/inAppPurchasesV2?limit=200&include=inAppPurchaseLocalizations&limit%5BinAppPurchaseLocalizations%5D=50"

    func purchases(more: Bool) -> String {
        // Two products; the second says it has 51 localizations and includes one.
        #"""
        {"data":[
          {"type":"inAppPurchases","id":"11","attributes":{"name":"Gems","productId":"com.acme.app.gems","inAppPurchaseType":"CONSUMABLE","state":"APPROVED","familySharable":false},
           "relationships":{"inAppPurchaseLocalizations":{"data":[{"type":"inAppPurchaseLocalizations","id":"L2"},{"type":"inAppPurchaseLocalizations","id":"L1"}]}}},
          {"type":"inAppPurchases","id":"10","attributes":{"name":"Pro","productId":"com.acme.app.pro","inAppPurchaseType":"NON_CONSUMABLE","state":"MISSING_METADATA","familySharable":true},
           "relationships":{"inAppPurchaseLocalizations":{"meta":{"paging":{"total":\#(more ? 51 : 1),"limit":50}},"data":[{"type":"inAppPurchaseLocalizations","id":"L3"}]}}}
        ],
        "included":[
          {"type":"inAppPurchaseLocalizations","id":"L1","attributes":{"locale":"en-US","name":"Gems","description":"Shiny","state":"APPROVED"}},
          {"type":"inAppPurchaseLocalizations","id":"L2","attributes":{"locale":"de-DE","name":"Edelsteine","state":"APPROVED"}},
          {"type":"inAppPurchaseLocalizations","id":"L3","attributes":{"locale":"en-US","name":"Pro"}},
          {"type":"somethingElse","id":"Z","attributes":{"locale":7}}
        ],
        "links":{"self":"x"}}
        """#
    }

    func script(more: Bool) -> [String: [Result<HTTPResponse, TransportError>]] {
        [
            "/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200": [json(200, apps)],
            purchasesQuery: [json(200, purchases(more: more))],
            "/v2/inAppPurchases/10/inAppPurchaseLocalizations?limit=200": [json(200, #"{"data":[{"type":"inAppPurchaseLocalizations","id":"L3","attributes":{"locale":"en-US","name":"Pro"}},{"type":"inAppPurchaseLocalizations","id":"L4","attributes":{"locale":"fr-FR","name":"Pro FR"}}],"links":{"self":"x"}}"#)],
            "/v1/apps/1/subscriptionGroups?limit=200": [json(200, #"{"data":[{"type":"subscriptionGroups","id":"G1","attributes":{"referenceName":"Plus"}}],"links":{"self":"x"}}"#)],
            "/v1/subscriptionGroups/G1/subscriptions?limit=200&include=subscriptionLocalizations&limit%5BsubscriptionLocalizations%5D=50": [json(200, #"""
            {"data":[
              {"type":"subscriptions","id":"S2","attributes":{"name":"Yearly","productId":"com.acme.app.plus.yearly","state":"READY_TO_SUBMIT","subscriptionPeriod":"ONE_YEAR","groupLevel":2,"familySharable":false},"relationships":{"subscriptionLocalizations":{"data":[]}}},
              {"type":"subscriptions","id":"S1","attributes":{"name":"Monthly","productId":"com.acme.app.plus.monthly","state":"APPROVED","subscriptionPeriod":"ONE_MONTH","groupLevel":1},"relationships":{"subscriptionLocalizations":{"data":[{"type":"subscriptionLocalizations","id":"SL1"}]}}}
            ],
            "included":[{"type":"subscriptionLocalizations","id":"SL1","attributes":{"locale":"en-US","name":"Plus","description":"More"}}],
            "links":{"self":"x"}}
            """#)],
        ]
    }

    func testPullReadsEveryProductWithItsLocalizationsInFixedOrder() throws {
        let transport = StubTransport(script(more: false))
        var client = try client(transport)
        let snapshot = try SnapshotPull().pull(app: "com.acme.app", client: &client)
        XCTAssertEqual(client.requestCount, 4)
        XCTAssertEqual(snapshot.encoded(), """
        {
          "app" : {
            "bundleId" : "com.acme.app",
            "id" : "1",
            "name" : "Acme"
          },
          "format" : "iap-asc-snapshot",
          "inAppPurchases" : [
            {
              "familySharable" : false,
              "id" : "11",
              "localizations" : [
                {
                  "locale" : "de-DE",
                  "name" : "Edelsteine",
                  "state" : "APPROVED"
                },
                {
                  "description" : "Shiny",
                  "locale" : "en-US",
                  "name" : "Gems",
                  "state" : "APPROVED"
                }
              ],
              "name" : "Gems",
              "productId" : "com.acme.app.gems",
              "state" : "APPROVED",
              "type" : "CONSUMABLE"
            },
            {
              "familySharable" : true,
              "id" : "10",
              "localizations" : [
                {
                  "locale" : "en-US",
                  "name" : "Pro"
                }
              ],
              "name" : "Pro",
              "productId" : "com.acme.app.pro",
              "state" : "MISSING_METADATA",
              "type" : "NON_CONSUMABLE"
            }
          ],
          "subscriptionGroups" : [
            {
              "id" : "G1",
              "referenceName" : "Plus",
              "subscriptions" : [
                {
                  "groupLevel" : 1,
                  "id" : "S1",
                  "localizations" : [
                    {
                      "description" : "More",
                      "locale" : "en-US",
                      "name" : "Plus"
                    }
                  ],
                  "name" : "Monthly",
                  "period" : "ONE_MONTH",
                  "productId" : "com.acme.app.plus.monthly",
                  "state" : "APPROVED"
                },
                {
                  "familySharable" : false,
                  "groupLevel" : 2,
                  "id" : "S2",
                  "localizations" : [

                  ],
                  "name" : "Yearly",
                  "period" : "ONE_YEAR",
                  "productId" : "com.acme.app.plus.yearly",
                  "state" : "READY_TO_SUBMIT"
                }
              ]
            }
          ],
          "version" : 1
        }

        """)
        XCTAssertEqual(try ASCSnapshot.decode(Data(snapshot.encoded().utf8), path: "s.json"), snapshot)
    }

    func testLocalizationsBeyondTheIncludedFiftyAreFetched() throws {
        let transport = StubTransport(script(more: true))
        var client = try client(transport)
        let snapshot = try SnapshotPull().pull(app: "com.acme.app", client: &client)
        XCTAssertEqual(snapshot.inAppPurchases.first { $0.id == "10" }?.localizations.map(\.locale), ["en-US", "fr-FR"])
        XCTAssertEqual(client.requestCount, 5)
        XCTAssertTrue(transport.requested.contains("/v2/inAppPurchases/10/inAppPurchaseLocalizations?limit=200"))
    }

    func testAnAppTheKeyCannotSeeSaysWhatToCheck() throws {
        var client = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.other&limit=200": [json(200, apps)]]))
        XCTAssertThrowsError(try SnapshotPull().pull(app: "com.other", client: &client)) { error in
            XCTAssertEqual("\(error)", "App Store Connect has no app with the bundle ID com.other that this key can see: check the bundle ID (or pass the app's Apple ID, the number in its App Store Connect address) and the key's team")
        }
    }

    func testMalformedAndTruncatedBodiesAreErrorsNotEmptyCatalogs() throws {
        for body in [#"{"data": [ {"type":"#, "<html>502 Bad Gateway</html>", #"{"data":[{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app"}}],"#] {
            var client = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200": [json(200, body)]]))
            XCTAssertThrowsError(try SnapshotPull().pull(app: "com.acme.app", client: &client), body) { error in
                XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the body is not valid JSON (\(body.utf8.count) bytes)")
            }
        }
        var missing = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200": [json(200, #"{"links":{"self":"x"}}"#)]]))
        XCTAssertThrowsError(try SnapshotPull().pull(app: "com.acme.app", client: &missing)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: \"data\" is missing")
        }
    }

    func testAnAppleIDIsLookedUpDirectly() throws {
        var script = script(more: false)
        script["/v1/apps/1"] = [json(200, #"{"data":{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app","name":"Acme"}},"links":{"self":"x"}}"#)]
        let transport = StubTransport(script)
        var client = try client(transport)
        XCTAssertEqual(try SnapshotPull().pull(app: "1", client: &client).app, ASCSnapshot.App(id: "1", bundleId: "com.acme.app", name: "Acme"))
        XCTAssertEqual(transport.requested.first, "/v1/apps/1")
    }

    func testASnapshotFileThatIsNotOneSaysWhy() {
        for (text, message) in [
            ("[]", "s.json: not a JSON object; write one with `iap asc pull --snapshot s.json`"),
            (#"{"format":"other"}"#, "s.json: not an iap App Store Connect snapshot (\"format\" is not \"iap-asc-snapshot\")"),
            (#"{"format":"iap-asc-snapshot","version":2}"#, "s.json: snapshot version 2 is not 1, the one this iap reads; pull it again"),
            (#"{"format":"iap-asc-snapshot","version":1,"app":{"id":"1"},"inAppPurchases":[{"id":"2"}],"subscriptionGroups":[]}"#,
             "s.json: .inAppPurchases[0].productId is missing"),
        ] {
            XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.utf8), path: "s.json"), text) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
        // The deepest a 100 kB file can nest, and a file cut short: JSON that does not parse, said so, no crash.
        for text in [#"{"format":"iap-asc-snapshot","version":1,"app":"# + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "}",
                     #"{"format":"iap-asc-snapshot","#] {
            XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.utf8), path: "s.json")) { error in
                XCTAssertTrue("\(error)".hasPrefix("s.json: not valid JSON ("), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("); write one with `iap asc pull --snapshot s.json`"), "\(error)")
            }
        }
    }

    func pricePage(_ prices: [(id: String, start: String?, end: String?, point: String, amount: String)], point relationship: String, pointType: String) -> String {
        let data = prices.map { p in
            let start = p.start.map { "\"\($0)\"" } ?? "null"
            let end = p.end.map { "\"\($0)\"" } ?? "null"
            return #"{"type":"prices","id":"\#(p.id)","attributes":{"startDate":\#(start),"endDate":\#(end)},"relationships":{"\#(relationship)":{"data":{"type":"\#(pointType)","id":"\#(p.point)"}},"territory":{"data":{"type":"territories","id":"USA"}}}}"#
        }
        let included = prices.map { #"{"type":"\#(pointType)","id":"\#($0.point)","attributes":{"customerPrice":"\#($0.amount)","proceeds":"0.70"}}"# }
            + [#"{"type":"territories","id":"USA","attributes":{"currency":"USD"}}"#]
        return #"{"data":[\#(data.joined(separator: ","))],"included":[\#(included.joined(separator: ","))],"links":{"self":"x"}}"#
    }

    func testPricesAndOffersOfAStorefrontAreTheOnesInEffectToday() throws {
        var script = script(more: false)
        let q = "?filter%5Bterritory%5D=USA&include=inAppPurchasePricePoint,territory&limit=200"
        script["/v2/inAppPurchases/11/iapPriceSchedule"] = [json(200, #"{"data":{"type":"inAppPurchasePriceSchedules","id":"11"},"links":{"self":"x"}}"#)]
        script["/v2/inAppPurchases/10/iapPriceSchedule"] = [json(200, #"{"data":{"type":"inAppPurchasePriceSchedules","id":"10"},"links":{"self":"x"}}"#)]
        // Gems: a price that ended, the one in effect, and one scheduled after today.
        script["/v1/inAppPurchasePriceSchedules/11/manualPrices" + q] = [json(200, pricePage([
            ("a", nil, "2026-01-01", "p1", "0.99"), ("b", "2026-01-01", nil, "p2", "1.99"), ("c", "2027-01-01", nil, "p3", "2.99"),
        ], point: "inAppPurchasePricePoint", pointType: "inAppPurchasePricePoints"))]
        // Pro: no manual price in the storefront; the automatic (equalized) one.
        script["/v1/inAppPurchasePriceSchedules/10/manualPrices" + q] = [json(200, #"{"data":[],"links":{"self":"x"}}"#)]
        script["/v1/inAppPurchasePriceSchedules/10/automaticPrices" + q] = [json(200, pricePage([("d", nil, nil, "p4", "4.99")],
                                                                                                  point: "inAppPurchasePricePoint", pointType: "inAppPurchasePricePoints"))]
        let sq = "?filter%5Bterritory%5D=USA&include=subscriptionPricePoint,territory&limit=200"
        for (id, amount) in [("S1", "2.99"), ("S2", "29.99")] {
            script["/v1/subscriptions/\(id)/prices" + sq] = [json(200, pricePage([("\(id)p", "2025-06-01", nil, "\(id)pp", amount)],
                                                                                  point: "subscriptionPricePoint", pointType: "subscriptionPricePoints"))]
        }
        script["/v1/subscriptions/S1/introductoryOffers" + sq] = [json(200, #"{"data":[{"type":"subscriptionIntroductoryOffers","id":"o1","attributes":{"duration":"ONE_WEEK","offerMode":"FREE_TRIAL","numberOfPeriods":1}}],"links":{"self":"x"}}"#)]
        script["/v1/subscriptions/S2/introductoryOffers" + sq] = [json(200, #"{"data":[{"type":"subscriptionIntroductoryOffers","id":"o2","attributes":{"duration":"ONE_MONTH","offerMode":"PAY_AS_YOU_GO","numberOfPeriods":3},"relationships":{"subscriptionPricePoint":{"data":{"type":"subscriptionPricePoints","id":"o2p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"subscriptionPricePoints","id":"o2p","attributes":{"customerPrice":"0.99"}},{"type":"territories","id":"USA","attributes":{"currency":"USD"}}],"links":{"self":"x"}}"#)]
        let transport = StubTransport(script)
        var client = try client(transport)
        let today = ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z")!
        let snapshot = try SnapshotPull(storefront: "USA", today: today).pull(app: "com.acme.app", client: &client)
        XCTAssertEqual(snapshot.storefront, "USA")
        XCTAssertEqual(snapshot.inAppPurchases.map(\.price), [ASCSnapshot.Price(amount: "1.99", currency: "USD"), ASCSnapshot.Price(amount: "4.99", currency: "USD")])
        let subscriptions = snapshot.subscriptionGroups[0].subscriptions
        XCTAssertEqual(subscriptions.map(\.price?.amount), ["2.99", "29.99"])
        XCTAssertEqual(subscriptions.map(\.introductoryOffer), [
            ASCSnapshot.IntroductoryOffer(mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1, price: nil),
            ASCSnapshot.IntroductoryOffer(mode: "PAY_AS_YOU_GO", duration: "ONE_MONTH", periods: 3, price: ASCSnapshot.Price(amount: "0.99", currency: "USD")),
        ])
        // 4 without prices; 2 + 3 for the in-app purchases; 2 × 2 for the subscriptions.
        XCTAssertEqual(client.requestCount, 13)
        XCTAssertTrue(snapshot.encoded().contains("\"storefront\" : \"USA\""))
    }
}
