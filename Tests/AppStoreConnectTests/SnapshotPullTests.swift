import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

final class SnapshotPullTests: XCTestCase {
    let fixture = PullFixture()
    var apps: String { fixture.apps }
    func client(_ transport: StubTransport) throws -> ASCClient { try fixture.client(transport) }
    func script(more: Bool) -> [String: [Result<HTTPResponse, TransportError>]] { fixture.script(more: more) }
    func pricePage(_ prices: [(id: String, start: String?, end: String?, point: String, amount: String)], point: String, pointType: String) -> String {
        fixture.pricePage(prices, point: point, pointType: pointType)
    }

    func testPullReadsEveryProductWithItsLocalizationsInFixedOrder() throws {
        let transport = StubTransport(script(more: false))
        let client = try client(transport)
        let snapshot = try SnapshotPull().pull(app: "com.acme.app", client: client).snapshot
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
        let client = try client(transport)
        let snapshot = try SnapshotPull().pull(app: "com.acme.app", client: client).snapshot
        XCTAssertEqual(snapshot.inAppPurchases.first { $0.id == "10" }?.localizations.map(\.locale), ["en-US", "fr-FR"])
        XCTAssertEqual(client.requestCount, 5)
        XCTAssertTrue(transport.requested.contains("/v2/inAppPurchases/10/inAppPurchaseLocalizations?limit=200"))
    }

    func testAnAppTheKeyCannotSeeSaysWhatToCheck() throws {
        let client = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.other&limit=200": [json(200, apps)]]))
        XCTAssertThrowsError(try SnapshotPull().pull(app: "com.other", client: client).snapshot) { error in
            XCTAssertEqual("\(error)", "App Store Connect has no app with the bundle ID 'com.other' that this key can see: check the bundle ID (or pass the app's Apple ID, the number in its App Store Connect address) and the key's team")
        }
    }

    func testMalformedAndTruncatedBodiesAreErrorsNotEmptyCatalogs() throws {
        for (body, why) in [
            (#"{"data": [ {"type":"#, "the body is cut short (19 bytes) 4 times"),
            ("<html>502 Bad Gateway</html>", "the body is not valid JSON: line 1, column 1: expected a value, found '<'"),
            (#"{"data":[{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app"}}],"#, "the body is cut short (76 bytes) 4 times"),
        ] {
            let client = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200": [json(200, body)]]))
            XCTAssertThrowsError(try SnapshotPull().pull(app: "com.acme.app", client: client).snapshot, body) { error in
                XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: \(why)")
            }
        }
        let missing = try client(StubTransport(["/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200": [json(200, #"{"links":{"self":"x"}}"#)]]))
        XCTAssertThrowsError(try SnapshotPull().pull(app: "com.acme.app", client: missing).snapshot) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: data is missing")
        }
    }

    func testAnAppleIDIsLookedUpDirectly() throws {
        var script = script(more: false)
        script["/v1/apps/1"] = [json(200, #"{"data":{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app","name":"Acme"}},"links":{"self":"x"}}"#)]
        let transport = StubTransport(script)
        let client = try client(transport)
        XCTAssertEqual(try SnapshotPull().pull(app: "1", client: client).snapshot.app, ASCSnapshot.App(id: "1", bundleId: "com.acme.app", name: "Acme"))
        XCTAssertEqual(transport.requested.first, "/v1/apps/1")
    }

    func testASnapshotFileThatIsNotOneSaysWhy() {
        for (text, message) in [
            ("[]", "s.json: not a JSON object with a format and a version; write one with `iap asc pull --snapshot s.json`"),
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

    func testPricesAndOffersOfAStorefrontAreTheOnesInEffectToday() throws {
        var script = script(more: false)
        let q = "?filter%5Bterritory%5D=USA&include=inAppPurchasePricePoint,territory&limit=200"
        // With a storefront, the subscriptions' list says whether each has introductory offers.
        let listed = script.removeValue(forKey: "/v1/subscriptionGroups/G1/subscriptions?limit=200&include=subscriptionLocalizations,appStoreReviewScreenshot,subscriptionAvailability&limit%5BsubscriptionLocalizations%5D=50")
        script["/v1/subscriptionGroups/G1/subscriptions?limit=200&include=subscriptionLocalizations,appStoreReviewScreenshot,subscriptionAvailability,introductoryOffers&limit%5BsubscriptionLocalizations%5D=50&limit%5BintroductoryOffers%5D=1"] = listed
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
        let client = try client(transport)
        let today = ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z")!
        let snapshot = try SnapshotPull(storefront: "USA", today: today).pull(app: "com.acme.app", client: client).snapshot
        XCTAssertEqual(snapshot.storefront, "USA")
        XCTAssertEqual(snapshot.inAppPurchases.map(\.price), [ASCSnapshot.Price(amount: "1.99", currency: "USD"), ASCSnapshot.Price(amount: "4.99", currency: "USD")])
        let subscriptions = snapshot.subscriptionGroups[0].subscriptions
        XCTAssertEqual(subscriptions.map(\.price?.amount), ["2.99", "29.99"])
        XCTAssertEqual(subscriptions.map(\.introductoryOffer), [
            ASCSnapshot.IntroductoryOffer(mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1, price: nil),
            ASCSnapshot.IntroductoryOffer(mode: "PAY_AS_YOU_GO", duration: "ONE_MONTH", periods: 3, price: ASCSnapshot.Price(amount: "0.99", currency: "USD")),
        ])
        // 4 without prices; 1 + 2 for the in-app purchases (Pro's price is not manual: its automatic
        // one is a second list); 2 × 2 for the subscriptions (their list does not say whether they
        // have introductory offers, so each is asked).
        XCTAssertEqual(client.requestCount, 11)
        XCTAssertTrue(snapshot.encoded().contains("\"storefront\" : \"USA\""))
    }
}
