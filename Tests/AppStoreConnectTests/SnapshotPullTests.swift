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
                XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the body is not complete JSON (\(body.utf8.count) bytes)")
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
    }
}
