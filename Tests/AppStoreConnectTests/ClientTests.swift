import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

final class ClientTests: XCTestCase {
    let waits = Waits()

    func client(_ transport: StubTransport) throws -> ASCClient {
        let key = try APIKey(issuerID: "issuer", keyID: "KEY", pem: P256.Signing.PrivateKey().pemRepresentation)
        let waits = self.waits
        return try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { waits.record($0) })
    }

    func page(_ ids: [String], next: String?) -> String {
        let data = ids.map { #"{"type":"apps","id":"\#($0)","attributes":{"bundleId":"com.acme.\#($0)","name":"App \#($0)"}}"# }
        let links = next.map { #"{"self":"x","next":"\#($0)"}"# } ?? #"{"self":"x"}"#
        return #"{"data":[\#(data.joined(separator: ","))],"links":\#(links)}"#
    }

    func collectIDs(_ client: ASCClient, _ path: APIPath = APIPath("/v1/apps")) throws -> [String] {
        var ids: [String] = []
        try client.getAllPages(path) { (body) throws(ASCError) -> URL? in
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            ids += (object?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            return ((object?["links"] as? [String: Any])?["next"] as? String).flatMap(URL.init(string:))
        }
        return ids
    }

    func testPagesAreFollowedThroughNextLinksWithASignedRequestEach() throws {
        let transport = StubTransport([
            "/v1/apps": [json(200, page(["1", "2"], next: "http://127.0.0.1:9/v1/apps?cursor=Mg&limit=2"))],
            "/v1/apps?cursor=Mg&limit=2": [json(200, page(["3", "4"], next: "http://127.0.0.1:9/v1/apps?cursor=NA&limit=2"))],
            "/v1/apps?cursor=NA&limit=2": [json(200, page(["5"], next: nil))],
        ])
        let client = try client(transport)
        XCTAssertEqual(try collectIDs(client), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(transport.requested, ["/v1/apps", "/v1/apps?cursor=Mg&limit=2", "/v1/apps?cursor=NA&limit=2"])
        XCTAssertEqual(client.requestCount, 3)
        XCTAssertTrue(transport.authorizations.allSatisfy { $0.hasPrefix("Bearer ey") && $0.split(separator: ".").count == 3 })
        XCTAssertEqual(waits.all, [])
    }

    func testARateLimitIsWaitedOutAsRetryAfterSays() throws {
        let limited = json(429, #"{"errors":[{"status":"429","code":"RATE_LIMIT_EXCEEDED","title":"The request rate limit has been reached."}]}"#,
                           headers: ["retry-after": "7", "x-rate-limit": "user-hour-lim:3600;user-hour-rem:0;"])
        let transport = StubTransport(["/v1/apps": [limited, json(200, page(["1"], next: nil))]])
        let client = try client(transport)
        XCTAssertEqual(try collectIDs(client), ["1"])
        XCTAssertEqual(waits.all, [7])
        XCTAssertEqual(client.requestCount, 2)
    }

    func testARateLimitThatLastsSaysSoWithTheHeader() throws {
        let detail = "We've received too many requests for this API. Please wait and try again or slow down your request rate."
        let limited = json(429, #"{"errors":[{"status":"429","code":"RATE_LIMIT_EXCEEDED","title":"The request rate limit has been reached.","detail":"\#(detail)"}]}"#,
                           headers: ["x-rate-limit": "user-hour-lim:3600;user-hour-rem:7;"])
        let client = try client(StubTransport(["/v1/apps": [limited]]))
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            // Apple's own detail is 104 characters: the first 100 are quoted, as any server text is.
            XCTAssertEqual("\(error)", "App Store Connect answered 429 to GET /v1/apps (after 4 tries): RATE_LIMIT_EXCEEDED: \(detail.prefix(100))… (104 characters; the first 100 shown) — the key's hourly request limit is spent ('user-hour-lim:3600;user-hour-rem:7;'); run again in an hour")
        }
        XCTAssertEqual(waits.all, [1, 2, 4])
        // With none left this hour and no Retry-After, waiting seconds cannot help: stopped at once.
        let spent = json(429, #"{"errors":[{"status":"429","code":"RATE_LIMIT_EXCEEDED","detail":"\#(detail)"}]}"#,
                         headers: ["x-rate-limit": "user-hour-lim:3600;user-hour-rem:0;"])
        let stopped = try self.client(StubTransport(["/v1/apps": [spent]]))
        XCTAssertThrowsError(try stopped.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect allows this key's 3600 requests an hour and they are spent; stopped before it refuses them (429). Run again in an hour, when the hour's requests are counted anew")
            XCTAssertTrue((error as? ASCError)?.isTemporary == true)
        }
        XCTAssertEqual(stopped.requestCount, 1)
        XCTAssertEqual(waits.all, [1, 2, 4])
    }

    func testServerErrorsAreRetriedABoundedNumberOfTimes() throws {
        let failing = json(503, #"{"errors":[{"status":"503","code":"SERVICE_UNAVAILABLE","title":"Service Unavailable","detail":"down"}]}"#)
        let client = try client(StubTransport(["/v1/apps": [failing, failing, json(200, page(["1"], next: nil))]]))
        XCTAssertEqual(try collectIDs(client), ["1"])
        XCTAssertEqual(waits.all, [1, 2])
        let always = try self.client(StubTransport(["/v1/apps": [failing]]))
        XCTAssertThrowsError(try always.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 503 to GET /v1/apps (after 4 tries): SERVICE_UNAVAILABLE: down — App Store Connect is failing; run again later")
        }
        XCTAssertEqual(always.requestCount, 4)
    }

    func testUnauthorizedAndForbiddenSayWhatToCheck() throws {
        let unauthorized = json(401, #"{"errors":[{"status":"401","code":"NOT_AUTHORIZED","title":"Authentication credentials are missing or invalid.","detail":"Provide a properly configured and signed bearer token, and make sure that it has not expired."}]}"#)
        let client = try client(StubTransport(["/v1/apps": [unauthorized]]))
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 401 to GET /v1/apps: NOT_AUTHORIZED: Provide a properly configured and signed bearer token, and make sure that it has not expired. — check the key: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID and the private key must belong together, and the key must not be revoked")
        }
        XCTAssertEqual(client.requestCount, 1)
        let forbidden = json(403, #"{"errors":[{"status":"403","code":"FORBIDDEN_ERROR","title":"This request is forbidden for security reasons","detail":"The API key in use does not allow this request"}]}"#)
        let other = try self.client(StubTransport(["/v1/apps": [forbidden]]))
        XCTAssertThrowsError(try other.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 403 to GET /v1/apps: FORBIDDEN_ERROR: The API key in use does not allow this request — the key's role does not allow this: give it the App Manager (or Developer) role, or Finance for reports")
        }
        XCTAssertEqual(waits.all, [])
    }

    func testBrokenConnectionsAreRetriedThenReported() throws {
        let client = try client(StubTransport(["/v1/apps": [.failure(.timedOut(seconds: 60))]]))
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "cannot reach App Store Connect for GET /v1/apps (4 tries): no answer within 60 s")
        }
        let huge = try self.client(StubTransport(["/v1/apps": [.failure(.tooLarge(limit: 64 << 20))]]))
        XCTAssertThrowsError(try huge.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the response is larger than 64 MB; not read further")
        }
        XCTAssertEqual(huge.requestCount, 1)
    }

    func testNextLinksToAnotherServerOrInACircleAreNotFollowed() throws {
        let away = try client(StubTransport(["/v1/apps": [json(200, page(["1"], next: "https://evil.example/v1/apps?cursor=x"))]]))
        XCTAssertThrowsError(try collectIDs(away)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: a next-page link leads to another server ('evil.example'); not followed")
        }
        let circle = try client(StubTransport([
            "/v1/apps": [json(200, page(["1"], next: "http://127.0.0.1:9/v1/apps?cursor=a"))],
            "/v1/apps?cursor=a": [json(200, page(["2"], next: "http://127.0.0.1:9/v1/apps?cursor=a"))],
        ]))
        XCTAssertThrowsError(try collectIDs(circle)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the next-page links go round in a circle")
        }
    }

    // MARK: A server's answer is hostile input

    func testAnIDThatIsNotAnAppStoreConnectIDIsNeverSent() throws {
        for id in ["../../v1/financeReports", "1 2", "50%", "1?x=2", "1#top", "Café", "", String(repeating: "9", count: 201)] {
            XCTAssertThrowsError(try APIPath("/v2/inAppPurchases", id, "inAppPurchaseLocalizations"), id) { error in
                XCTAssertTrue("\(error)".hasPrefix("App Store Connect's answer to GET /v2/inAppPurchases cannot be read: the resource ID "), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("; no request made with it"), "\(error)")
            }
        }
        XCTAssertEqual(try APIPath("/v2/inAppPurchases", "6450001002", "inAppPurchaseLocalizations").encoded, "/v2/inAppPurchases/6450001002/inAppPurchaseLocalizations")
        XCTAssertEqual(try APIPath("/v1/apps", "eyJzIjoiMSJ9-_x").encoded, "/v1/apps/eyJzIjoiMSJ9-_x")
    }

    func testANextLinkToAnotherOperationIsNotFollowed() throws {
        let transport = StubTransport(["/v1/apps": [json(200, page(["1"], next: "http://127.0.0.1:9/v1/financeReports?filter%5BvendorNumber%5D=1"))]])
        XCTAssertThrowsError(try collectIDs(try client(transport))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: a next-page link leads to another operation ('/v1/financeReports'); not followed")
        }
        XCTAssertEqual(transport.requested, ["/v1/apps"])
    }

    /// A server that always links a new next page is followed for `maxPages` pages, then refused.
    final class EndlessPages: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var count = 0
        func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
            let n = lock.withLock { count += 1; return count }
            let body = #"{"data":[],"links":{"self":"x","next":"http://127.0.0.1:9/v1/apps?cursor=\#(n)"}}"#
            return HTTPResponse(status: 200, body: Data(body.utf8))
        }
    }

    func testPagesThatNeverEndStopAtTheCap() throws {
        let transport = EndlessPages()
        let key = try APIKey(issuerID: "issuer", keyID: "KEY", pem: P256.Signing.PrivateKey().pemRepresentation)
        let client = try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
        XCTAssertThrowsError(try collectIDs(client)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: more than \(ASCClient.maxPages) pages (\(ASCClient.maxPages * 200) resources at 200 a page); not followed further")
        }
        XCTAssertEqual(transport.count, ASCClient.maxPages)
        // And one client sends no more than its cap of requests in all.
        let capped = try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: EndlessPages(), maxRequests: 3, sleep: { _ in })
        XCTAssertThrowsError(try collectIDs(capped)) { error in
            XCTAssertEqual("\(error)", "stopped at GET /v1/apps: 3 requests is the most one run sends (docs/asc.md)")
        }
        XCTAssertEqual(capped.requestCount, 3)
    }

    func testTheHoursRequestsAreKeptToWhatTheHeaderSaysIsLeft() throws {
        let answers = (0...2).reversed().map { json(200, page(["1"], next: nil), headers: ["x-rate-limit": "user-hour-lim:3600;user-hour-rem:\($0);"]) }
        let transport = StubTransport(["/v1/apps": answers])
        let client = try client(transport)
        XCTAssertEqual(client.budget.remaining, nil)
        _ = try client.get(APIPath("/v1/apps"))
        XCTAssertEqual(client.budget.remaining, 2)
        _ = try client.get(APIPath("/v1/apps"))
        _ = try client.get(APIPath("/v1/apps"))
        // The third answer said none are left: the fourth is never sent.
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect allows this key's 3600 requests an hour and they are spent; stopped before it refuses them (429). Run again in an hour, when the hour's requests are counted anew")
        }
        XCTAssertEqual(transport.requested.count, 3)
        XCTAssertEqual(client.requestCount, 3)
    }

    func testRateLimitHeadersThatAreNotOneAreIgnored() {
        XCTAssertEqual(RateLimit(header: "user-hour-lim:3600;user-hour-rem:3545;"), RateLimit(header: "user-hour-rem:3545;user-hour-lim:3600"))
        XCTAssertEqual(RateLimit(header: "user-hour-lim:3600;user-hour-rem:3545;")?.remaining, 3545)
        for header in ["", "user-hour-lim:3600", "user-hour-rem:-1", "user-hour-rem:1e9", "user-hour-rem:99999999999999999999",
                       "user-hour-rem:0x10", String(repeating: "user-hour-rem:1;", count: 20)] {
            XCTAssertNil(RateLimit(header: header), header)
        }
    }

    func testABodyCutShortIsAskedForAgain() throws {
        let whole = page(["1", "2"], next: nil)
        let cut = String(whole.prefix(whole.count / 2))
        let client = try client(StubTransport(["/v1/apps": [json(200, cut), json(200, whole)]]))
        XCTAssertEqual(try collectIDs(client), ["1", "2"])
        XCTAssertEqual(waits.all, [1])
        let always = try self.client(StubTransport(["/v1/apps": [json(200, cut)]]))
        XCTAssertThrowsError(try always.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the body is cut short (\(cut.utf8.count) bytes) 4 times")
        }
        // JSON that is wrong before its end is not a broken connection: not asked again.
        let wrong = try self.client(StubTransport(["/v1/apps": [json(200, #"{"data":[}"#)]]))
        XCTAssertThrowsError(try wrong.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the body is not valid JSON: line 1, column 10: expected a value, found '}'")
        }
        XCTAssertEqual(wrong.requestCount, 1)
    }

    func testAnIntegerPastSixtyFourBitsIsAPositionedError() throws {
        let body = "{\"data\":[{\"type\":\"apps\",\"id\":\"1\",\n\"attributes\":{\"groupLevel\":99999999999999999999}}]}"
        let client = try client(StubTransport(["/v1/apps": [json(200, body)]]))
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the body is not valid JSON: line 2, column 28: the integer 99999999999999999999 does not fit in 64 bits")
        }
    }

    func testServerTextIsQuotedBoundedWithControlCharactersEscaped() throws {
        let detail = "\u{1B}[31mred\u{07}" + String(repeating: "x", count: 10_000)
        let body = try JSONSerialization.data(withJSONObject: ["errors": [["status": "400", "code": "PARAMETER_ERROR.INVALID", "detail": detail]]])
        let client = try client(StubTransport(["/v1/apps": [.success(HTTPResponse(status: 400, body: body))]]))
        XCTAssertThrowsError(try client.get(APIPath("/v1/apps"))) { error in
            let message = "\(error)"
            XCTAssertEqual(message, "App Store Connect answered 400 to GET /v1/apps: PARAMETER_ERROR.INVALID: \\u{1B}[31mred\\u{7}"
                           + String(repeating: "x", count: 91) + "… (10009 characters; the first 100 shown)")
            XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 })
        }
        let header = "user-hour-lim:3600;\u{1B}]0;owned\u{07}"
        let limited = json(429, "{}", headers: ["x-rate-limit": header])
        let other = try self.client(StubTransport(["/v1/apps": [limited]]))
        XCTAssertThrowsError(try other.get(APIPath("/v1/apps"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("the key's hourly request limit is spent ('user-hour-lim:3600;\\u{1B}]0;owned\\u{7}'); run again in an hour"), "\(error)")
        }
    }
}
