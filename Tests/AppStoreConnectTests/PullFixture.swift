import Crypto
import Foundation
@testable import AppStoreConnect

/// The store the pull tests answer from: an app with two in-app purchases (one with more
/// localizations than a list includes, when asked) and a group of two subscriptions.
struct PullFixture {
    func client(_ transport: StubTransport) throws -> ASCClient {
        let key = try APIKey(issuerID: "issuer", keyID: "KEY", pem: P256.Signing.PrivateKey().pemRepresentation)
        return try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
    }

    let apps = #"{"data":[{"type":"apps","id":"99","attributes":{"bundleId":"com.acme.app.watch","name":"Watch"}},{"type":"apps","id":"1","attributes":{"bundleId":"com.acme.app","name":"Acme"}}],"links":{"self":"x"}}"#
    let purchasesQuery = "/v1/apps/1/inAppPurchasesV2?limit=200&include=inAppPurchaseLocalizations,appStoreReviewScreenshot,inAppPurchaseAvailability&limit%5BinAppPurchaseLocalizations%5D=50"

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
            "/v1/apps/1/subscriptionGroups?limit=200&include=subscriptionGroupLocalizations&limit%5BsubscriptionGroupLocalizations%5D=50": [json(200, #"{"data":[{"type":"subscriptionGroups","id":"G1","attributes":{"referenceName":"Plus"}}],"links":{"self":"x"}}"#)],
            "/v1/subscriptionGroups/G1/subscriptions?limit=200&include=subscriptionLocalizations,appStoreReviewScreenshot,subscriptionAvailability&limit%5BsubscriptionLocalizations%5D=50": [json(200, #"""
            {"data":[
              {"type":"subscriptions","id":"S2","attributes":{"name":"Yearly","productId":"com.acme.app.plus.yearly","state":"READY_TO_SUBMIT","subscriptionPeriod":"ONE_YEAR","groupLevel":2,"familySharable":false},"relationships":{"subscriptionLocalizations":{"data":[]}}},
              {"type":"subscriptions","id":"S1","attributes":{"name":"Monthly","productId":"com.acme.app.plus.monthly","state":"APPROVED","subscriptionPeriod":"ONE_MONTH","groupLevel":1},"relationships":{"subscriptionLocalizations":{"data":[{"type":"subscriptionLocalizations","id":"SL1"}]}}}
            ],
            "included":[{"type":"subscriptionLocalizations","id":"SL1","attributes":{"locale":"en-US","name":"Plus","description":"More"}}],
            "links":{"self":"x"}}
            """#)],
        ]
    }

    func pricePage(_ prices: [(id: String, start: String?, end: String?, point: String, amount: String)], point relationship: String, pointType: String) -> String {
        let type = pointType == "subscriptionPricePoints" ? "subscriptionPrices" : "inAppPurchasePrices"
        let data = prices.map { p in
            let start = p.start.map { "\"\($0)\"" } ?? "null"
            let end = p.end.map { "\"\($0)\"" } ?? "null"
            return #"{"type":"\#(type)","id":"\#(p.id)","attributes":{"startDate":\#(start),"endDate":\#(end)},"relationships":{"\#(relationship)":{"data":{"type":"\#(pointType)","id":"\#(p.point)"}},"territory":{"data":{"type":"territories","id":"USA"}}}}"#
        }
        let included = prices.map { #"{"type":"\#(pointType)","id":"\#($0.point)","attributes":{"customerPrice":"\#($0.amount)","proceeds":"0.70"}}"# }
            + [#"{"type":"territories","id":"USA","attributes":{"currency":"USD"}}"#]
        return #"{"data":[\#(data.joined(separator: ","))],"included":[\#(included.joined(separator: ","))],"links":{"self":"x"}}"#
    }
}
