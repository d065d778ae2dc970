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

    func collectIDs(_ client: inout ASCClient, _ path: String) throws -> [String] {
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
        var client = try client(transport)
        XCTAssertEqual(try collectIDs(&client, "/v1/apps"), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(transport.requested, ["/v1/apps", "/v1/apps?cursor=Mg&limit=2", "/v1/apps?cursor=NA&limit=2"])
        XCTAssertEqual(client.requestCount, 3)
        XCTAssertTrue(transport.authorizations.allSatisfy { $0.hasPrefix("Bearer ey") && $0.split(separator: ".").count == 3 })
        XCTAssertEqual(waits.all, [])
    }

    func testARateLimitIsWaitedOutAsRetryAfterSays() throws {
        let limited = json(429, #"{"errors":[{"status":"429","code":"RATE_LIMIT_EXCEEDED","title":"The request rate limit has been reached."}]}"#,
                           headers: ["retry-after": "7", "x-rate-limit": "user-hour-lim:3600;user-hour-rem:0;"])
        let transport = StubTransport(["/v1/apps": [limited, json(200, page(["1"], next: nil))]])
        var client = try client(transport)
        XCTAssertEqual(try collectIDs(&client, "/v1/apps"), ["1"])
        XCTAssertEqual(waits.all, [7])
        XCTAssertEqual(client.requestCount, 2)
    }

    func testARateLimitThatLastsSaysSoWithTheHeader() throws {
        let limited = json(429, #"{"errors":[{"status":"429","code":"RATE_LIMIT_EXCEEDED","title":"The request rate limit has been reached.","detail":"We've received too many requests for this API. Please wait and try again or slow down your request rate."}]}"#,
                           headers: ["x-rate-limit": "user-hour-lim:3600;user-hour-rem:0;"])
        var client = try client(StubTransport(["/v1/apps": [limited]]))
        XCTAssertThrowsError(try client.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 429 to GET /v1/apps (after 4 tries): RATE_LIMIT_EXCEEDED: We've received too many requests for this API. Please wait and try again or slow down your request rate. — the key's hourly request limit is spent (user-hour-lim:3600;user-hour-rem:0;); run again later")
        }
        XCTAssertEqual(waits.all, [1, 2, 4])
    }

    func testServerErrorsAreRetriedABoundedNumberOfTimes() throws {
        let failing = json(503, #"{"errors":[{"status":"503","code":"SERVICE_UNAVAILABLE","title":"Service Unavailable","detail":"down"}]}"#)
        var client = try client(StubTransport(["/v1/apps": [failing, failing, json(200, page(["1"], next: nil))]]))
        XCTAssertEqual(try collectIDs(&client, "/v1/apps"), ["1"])
        XCTAssertEqual(waits.all, [1, 2])
        var always = try self.client(StubTransport(["/v1/apps": [failing]]))
        XCTAssertThrowsError(try always.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 503 to GET /v1/apps (after 4 tries): SERVICE_UNAVAILABLE: down — App Store Connect is failing; run again later")
        }
        XCTAssertEqual(always.requestCount, 4)
    }

    func testUnauthorizedAndForbiddenSayWhatToCheck() throws {
        let unauthorized = json(401, #"{"errors":[{"status":"401","code":"NOT_AUTHORIZED","title":"Authentication credentials are missing or invalid.","detail":"Provide a properly configured and signed bearer token, and make sure that it has not expired."}]}"#)
        var client = try client(StubTransport(["/v1/apps": [unauthorized]]))
        XCTAssertThrowsError(try client.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 401 to GET /v1/apps: NOT_AUTHORIZED: Provide a properly configured and signed bearer token, and make sure that it has not expired. — check the key: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID and the private key must belong together, and the key must not be revoked")
        }
        XCTAssertEqual(client.requestCount, 1)
        let forbidden = json(403, #"{"errors":[{"status":"403","code":"FORBIDDEN_ERROR","title":"This request is forbidden for security reasons","detail":"The API key in use does not allow this request"}]}"#)
        var other = try self.client(StubTransport(["/v1/apps": [forbidden]]))
        XCTAssertThrowsError(try other.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect answered 403 to GET /v1/apps: FORBIDDEN_ERROR: The API key in use does not allow this request — the key's role does not allow this: give it the App Manager (or Developer) role, or Finance for reports")
        }
        XCTAssertEqual(waits.all, [])
    }

    func testBrokenConnectionsAreRetriedThenReported() throws {
        var client = try client(StubTransport(["/v1/apps": [.failure(.timedOut(seconds: 60))]]))
        XCTAssertThrowsError(try client.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "cannot reach App Store Connect for GET /v1/apps (4 tries): no answer within 60 s")
        }
        var huge = try self.client(StubTransport(["/v1/apps": [.failure(.tooLarge(limit: 64 << 20))]]))
        XCTAssertThrowsError(try huge.get("/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the response is larger than 64 MB; not read further")
        }
        XCTAssertEqual(huge.requestCount, 1)
    }

    func testNextLinksToAnotherServerOrInACircleAreNotFollowed() throws {
        var away = try client(StubTransport(["/v1/apps": [json(200, page(["1"], next: "https://evil.example/v1/apps?cursor=x"))]]))
        XCTAssertThrowsError(try collectIDs(&away, "/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: a next-page link leads to another server (evil.example); not followed")
        }
        var circle = try client(StubTransport([
            "/v1/apps": [json(200, page(["1"], next: "http://127.0.0.1:9/v1/apps?cursor=a"))],
            "/v1/apps?cursor=a": [json(200, page(["2"], next: "http://127.0.0.1:9/v1/apps?cursor=a"))],
        ]))
        XCTAssertThrowsError(try collectIDs(&circle, "/v1/apps")) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps cannot be read: the next-page links go round in a circle")
        }
    }
}
