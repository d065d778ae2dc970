import Foundation

/// A client for the App Store Connect API's GET operations: signs each request, follows
/// `links.next`, waits out rate limits (HTTP 429), retries server errors a bounded number of
/// times, and turns App Store Connect's `errors[]` into an error that says what to do.
public struct ASCClient: Sendable {
    public static let productionURL = URL(string: "https://api.appstoreconnect.apple.com")!

    public let baseURL: URL
    var signer: TokenSigner
    let transport: any HTTPTransport
    /// Tries per request (the first and the retries) for 429, 5xx and broken connections.
    public var maxAttempts = 4
    /// The longest wait a `Retry-After` may ask for before the client gives up instead.
    public var maxWait: TimeInterval = 120
    /// Waits between attempts (the real clock; tests keep it).
    let sleep: @Sendable (TimeInterval) -> Void
    /// Requests sent, retries included.
    public private(set) var requestCount = 0

    public init(key: APIKey, baseURL: URL = ASCClient.productionURL, transport: any HTTPTransport = SystemTransport(),
                sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws(ASCError) {
        try Self.checkBaseURL(baseURL)
        self.baseURL = baseURL
        self.signer = TokenSigner(key: key)
        self.transport = transport
        self.sleep = sleep
    }

    /// Tokens go to App Store Connect over HTTPS, or to this machine (a test server) over HTTP.
    static func checkBaseURL(_ url: URL) throws(ASCError) {
        let host = url.host?.lowercased() ?? ""
        switch url.scheme?.lowercased() {
        case "https" where !host.isEmpty: return
        case "http" where ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host): return
        default: throw .configuration("the App Store Connect URL must be https:// (or http:// on 127.0.0.1 for a test server): \(url.absoluteString)")
        }
    }

    /// One resource or one page: `path` below the base URL, with its query.
    public mutating func get(_ path: String, query: [(String, String)] = [], accept: String = "application/json") throws(ASCError) -> Data {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = (components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath) + path
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components.url else { throw .configuration("cannot make a URL of \(path)") }
        return try send(url, operation: path, accept: accept)
    }

    /// Every page of a collection: the first from `path` and `query`, the rest from each page's
    /// `links.next` (which must stay on the same server: the token is not sent anywhere else).
    public mutating func getAllPages(_ path: String, query: [(String, String)] = [],
                                     page: (Data) throws(ASCError) -> URL?) throws(ASCError) {
        var next: URL? = nil
        var body = try get(path, query: query)
        var seen: Set<String> = []
        while true {
            next = try page(body)
            guard let url = next else { return }
            guard url.scheme == baseURL.scheme, url.host == baseURL.host, url.port == baseURL.port else {
                throw .invalidResponse(path, "a next-page link leads to another server (\(url.host ?? "?")); not followed")
            }
            // A server that links a page to itself would be followed for ever.
            guard seen.insert(url.absoluteString).inserted else {
                throw .invalidResponse(path, "the next-page links go round in a circle")
            }
            body = try send(url, operation: path)
        }
    }

    private mutating func send(_ url: URL, operation: String, accept: String = "application/json") throws(ASCError) -> Data {
        var attempt = 0
        while true {
            attempt += 1
            requestCount += 1
            let headers = ["Authorization": "Bearer " + signer.token(), "Accept": accept]
            let response: HTTPResponse
            do {
                response = try transport.get(url, headers: headers)
            } catch {
                switch error {
                case .tooLarge(let limit):
                    throw .invalidResponse(operation, "the response is larger than \(limit / (1 << 20)) MB; not read further")
                case .timedOut, .failed:
                    if attempt < maxAttempts {
                        sleep(Self.backoff(attempt))
                        continue
                    }
                    throw .transport(operation, error, attempts: attempt)
                }
            }
            switch response.status {
            case 200..<300:
                return response.body
            case 429:
                let wait = Self.retryAfter(response.headers) ?? Self.backoff(attempt)
                if attempt < maxAttempts, wait <= maxWait {
                    sleep(wait)
                    continue
                }
                throw .api(operation, status: 429, errors: APIErrorEntry.parse(response.body),
                           rateLimit: response.headers["x-rate-limit"], attempts: attempt)
            case 500..<600:
                if attempt < maxAttempts {
                    sleep(Self.backoff(attempt))
                    continue
                }
                throw .api(operation, status: response.status, errors: APIErrorEntry.parse(response.body), rateLimit: nil, attempts: attempt)
            default:
                throw .api(operation, status: response.status, errors: APIErrorEntry.parse(response.body), rateLimit: nil, attempts: attempt)
            }
        }
    }

    /// 1, 2, 4 … seconds, at most 30.
    static func backoff(_ attempt: Int) -> TimeInterval {
        min(30, TimeInterval(1 << min(max(attempt - 1, 0), 5)))
    }

    /// `Retry-After` in seconds (App Store Connect sends seconds, not dates).
    static func retryAfter(_ headers: [String: String]) -> TimeInterval? {
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), let seconds = Int(text), seconds >= 0 else { return nil }
        return TimeInterval(seconds)
    }
}

/// One entry of App Store Connect's `errors[]`.
public struct APIErrorEntry: Sendable, Equatable, Decodable {
    public var status: String?
    public var code: String?
    public var title: String?
    public var detail: String?

    static func parse(_ body: Data) -> [APIErrorEntry] {
        struct Body: Decodable { var errors: [APIErrorEntry]? }
        return (try? JSONDecoder().decode(Body.self, from: body))?.errors ?? []
    }
}

/// What went wrong talking to App Store Connect, with what to do about it. Never holds a token
/// or key material.
public enum ASCError: Error, Sendable, CustomStringConvertible {
    case configuration(String)
    case api(String, status: Int, errors: [APIErrorEntry], rateLimit: String?, attempts: Int)
    case transport(String, TransportError, attempts: Int)
    case invalidResponse(String, String)
    case notFound(String)

    public var description: String {
        switch self {
        case .configuration(let why):
            return why
        case .api(let operation, let status, let errors, let rateLimit, let attempts):
            let said = errors.map { entry in
                [entry.code, entry.detail ?? entry.title].compactMap { $0 }.joined(separator: ": ")
            }.filter { !$0.isEmpty }
            var text = "App Store Connect answered \(status) to GET \(operation)"
            if attempts > 1 { text += " (after \(attempts) tries)" }
            if !said.isEmpty { text += ": " + said.joined(separator: "; ") }
            if let hint = Self.hint(status, rateLimit: rateLimit) { text += " — " + hint }
            return text
        case .transport(let operation, let error, let attempts):
            let why = switch error {
            case .timedOut(let seconds): "no answer within \(seconds) s"
            case .tooLarge(let limit): "a response larger than \(limit) bytes"
            case .failed(let reason): reason
            }
            return "cannot reach App Store Connect for GET \(operation) (\(attempts) \(attempts == 1 ? "try" : "tries")): \(why)"
        case .invalidResponse(let operation, let why):
            return "App Store Connect's answer to GET \(operation) cannot be read: \(why)"
        case .notFound(let what):
            return what
        }
    }

    static func hint(_ status: Int, rateLimit: String?) -> String? {
        switch status {
        case 401: "check the key: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID and the private key must belong together, and the key must not be revoked"
        case 403: "the key's role does not allow this: give it the App Manager (or Developer) role, or Finance for reports"
        case 404: "check the app's bundle ID or Apple ID, and that the key's team owns the app"
        case 429: "the key's hourly request limit is spent" + (rateLimit.map { " (\($0))" } ?? "") + "; run again later"
        case 500..<600: "App Store Connect is failing; run again later"
        default: nil
        }
    }
}
