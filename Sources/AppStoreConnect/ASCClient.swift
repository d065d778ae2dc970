import Diagnostics
import Foundation
import Support

/// A client for the App Store Connect API's GET operations: signs each request, follows
/// `links.next`, keeps within the key's hourly requests (`X-Rate-Limit`), waits out a 429,
/// retries server errors, broken connections and bodies cut short a bounded number of times, and
/// turns App Store Connect's `errors[]` into an error that says what to do.
///
/// One client may be used from several threads at once (a pull's connections): its token, its
/// count of requests and what the hour has left are shared under a lock.
public struct ASCClient: Sendable {
    public static let productionURL = URL(string: "https://api.appstoreconnect.apple.com")!
    /// Requests one client sends at most, retries included. The largest catalog App Store Connect
    /// allows — 10,000 products, each subscription its own group, every price outside its base
    /// territory — takes 30,052 (docs/asc.md); a server that never stops paging meets this.
    public static let maxRequests = 40_000
    /// Pages one list is followed for at most: 20,000 resources at 200 a page, twice the 10,000
    /// in-app purchases App Store Connect allows an app.
    public static let maxPages = 100

    public let baseURL: URL
    let transport: any HTTPTransport
    /// Tries per request (the first and the retries) for 429, 5xx, broken connections and bodies
    /// cut short.
    public var maxAttempts = 4
    /// The longest wait a `Retry-After` may ask for before the client gives up instead.
    public var maxWait: TimeInterval = 120
    /// Waits between attempts (the real clock; tests keep it).
    let sleep: @Sendable (TimeInterval) -> Void
    private let signer: SharedSigner
    let ledger: RequestLedger

    public init(key: APIKey, baseURL: URL = ASCClient.productionURL, transport: any HTTPTransport = SystemTransport(),
                maxRequests: Int = ASCClient.maxRequests,
                sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws(ASCError) {
        try Self.checkBaseURL(baseURL)
        self.baseURL = baseURL
        self.signer = SharedSigner(TokenSigner(key: key))
        self.transport = transport
        self.ledger = RequestLedger(cap: maxRequests)
        self.sleep = sleep
    }

    /// Requests sent, retries included.
    public var requestCount: Int { ledger.requestsSent }

    /// The key's hourly limit and the requests it had left at the last answer (nil until an
    /// answer said so).
    public var budget: (limit: Int?, remaining: Int?) { ledger.budget }

    /// Tokens go to App Store Connect over HTTPS, or to this machine (a test server) over HTTP,
    /// never through a proxy (the transport ignores proxy variables for `http://`).
    static func checkBaseURL(_ url: URL) throws(ASCError) {
        let host = url.host?.lowercased() ?? ""
        guard url.user == nil, url.password == nil, url.query == nil, url.fragment == nil else {
            throw .configuration("the App Store Connect URL must be a server's address only (no user, query or fragment)")
        }
        switch url.scheme?.lowercased() {
        case "https" where !host.isEmpty: return
        case "http" where Self.isLoopback(host): return
        default: throw .configuration("the App Store Connect URL must be https:// (or http:// on 127.0.0.1 for a test server)")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }

    /// One resource or one page: `path` below the base URL (made with `APIPath`, whose IDs are
    /// checked and escaped), with its query. `body` says what a complete answer is.
    public func get(_ path: APIPath, query: [(String, String)] = [], body: BodyKind = .json) throws(ASCError) -> Data {
        try send(try url(path, query: query), operation: path.encoded, body: body)
    }

    /// `path` (and `query`) below the base URL.
    private func url(_ path: APIPath, query: [(String, String)] = []) throws(ASCError) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + path.encoded
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components.url else { throw .configuration("cannot make a URL of \(path.encoded)") }
        return url
    }

    /// Every page of a collection: the first from `path` and `query`, the rest from each page's
    /// `links.next`, which must lead to the same collection on the same server (the token is
    /// sent nowhere else), at most `maxPages` of them.
    public func getAllPages(_ path: APIPath, query: [(String, String)] = [],
                            page: (Data) throws(ASCError) -> URL?) throws(ASCError) {
        var body = try get(path, query: query)
        let wanted = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!.percentEncodedPath
        let collection = (wanted.hasSuffix("/") ? String(wanted.dropLast()) : wanted) + path.encoded
        var seen: Set<String> = []
        var pages = 1
        while true {
            guard let url = try page(body) else { return }
            guard url.scheme?.lowercased() == baseURL.scheme?.lowercased(), url.host?.lowercased() == baseURL.host?.lowercased(),
                  url.port == baseURL.port, url.user == nil, url.password == nil else {
                throw .invalidResponse(path.encoded, "a next-page link leads to another server (\(Quote.escaped(url.host ?? "?"))); not followed")
            }
            guard URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath == collection else {
                throw .invalidResponse(path.encoded, "a next-page link leads to another operation (\(Quote.escaped(url.path))); not followed")
            }
            // A server that links a page to itself, or pages for ever, would be followed for ever.
            guard seen.insert(url.absoluteString).inserted else {
                throw .invalidResponse(path.encoded, "the next-page links go round in a circle")
            }
            pages += 1
            guard pages <= Self.maxPages else {
                throw .invalidResponse(path.encoded, "more than \(Self.maxPages) pages (\(Self.maxPages * 200) resources at 200 a page); not followed further")
            }
            body = try send(url, operation: path.encoded, body: .json)
        }
    }

    /// A write (`POST` or `PATCH`) of a JSON body to `path`; the answer's body. A write is sent
    /// once: a 429 (App Store Connect did not take it) is waited out and sent again, but a
    /// broken connection or a server error leaves it unknown whether it was made, so it is
    /// thrown, and the caller reads App Store Connect again before it does anything more.
    public func write(_ method: String, _ path: APIPath, body: Data) throws(ASCError) -> Data {
        precondition(method == "POST" || method == "PATCH", "writes are POST or PATCH")
        let url = try url(path)
        let operation = "\(method) \(path.encoded)"
        var attempt = 0
        while true {
            attempt += 1
            try ledger.admit(operation)
            let headers = ["Authorization": "Bearer " + signer.token(), "Accept": "application/json", "Content-Type": "application/json"]
            let response: HTTPResponse
            do {
                response = try transport.send(method, url, headers: headers, body: body)
            } catch {
                ledger.lost()
                if case .tooLarge(let limit) = error {
                    throw .invalidResponse(operation, "the response is larger than \(limit / (1 << 20)) MB; not read further")
                }
                throw .transport(operation, error, attempts: attempt)
            }
            let rate = RateLimit(header: response.headers["x-rate-limit"])
            ledger.answered(rate)
            switch response.status {
            case 200..<300:
                switch Self.check(response.body, .json) {
                case .complete: return response.body
                case .cutShort: throw .invalidResponse(operation, "the body is cut short (\(response.body.count) bytes)")
                case .invalid(let why): throw .invalidResponse(operation, why)
                }
            case 429:
                try waitOutRateLimit(response, rate, operation: operation, attempt: attempt)
                continue
            default:
                throw .api(operation, status: response.status, errors: APIErrorEntry.parse(response.body), rateLimit: nil, attempts: attempt)
            }
        }
    }

    /// What a complete answer is: JSON that parses to its end, or bytes as they come (a report).
    public enum BodyKind: Sendable {
        case json
        /// A gzip file: `complete` says whether the bytes are all there (its trailer read).
        case gzip(complete: @Sendable (Data) -> Bool)
    }

    private func send(_ url: URL, operation: String, body kind: BodyKind) throws(ASCError) -> Data {
        var attempt = 0
        let accept = switch kind {
        case .json: "application/json"
        case .gzip: "application/a-gzip"
        }
        while true {
            attempt += 1
            try ledger.admit(operation)
            let headers = ["Authorization": "Bearer " + signer.token(), "Accept": accept]
            let response: HTTPResponse
            do {
                response = try transport.get(url, headers: headers)
            } catch {
                ledger.lost()
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
            let rate = RateLimit(header: response.headers["x-rate-limit"])
            ledger.answered(rate)
            switch response.status {
            case 200..<300:
                switch Self.check(response.body, kind) {
                case .complete:
                    return response.body
                case .cutShort:
                    // A body that ends early is a connection that broke: asked again.
                    if attempt < maxAttempts {
                        sleep(Self.backoff(attempt))
                        continue
                    }
                    throw .invalidResponse(operation, "the body is cut short (\(response.body.count) bytes) \(attempt) times")
                case .invalid(let why):
                    throw .invalidResponse(operation, why)
                }
            case 429:
                try waitOutRateLimit(response, rate, operation: operation, attempt: attempt)
                continue
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

    /// A 429: waits as long as App Store Connect asks (or backs off) and returns, so the request
    /// is sent again; throws when waiting cannot help or the tries are spent.
    private func waitOutRateLimit(_ response: HTTPResponse, _ rate: RateLimit?, operation: String, attempt: Int) throws(ASCError) {
        let asked = Self.retryAfter(response.headers)
        if asked == nil, rate?.remaining == 0 {
            // None left this hour and no time to come back given: seconds of waiting cannot help.
            throw .budgetSpent(operation, limit: rate?.limit, retryAfter: nil)
        }
        let wait = asked ?? Self.backoff(attempt)
        guard attempt < maxAttempts, wait <= maxWait else {
            throw .api(operation, status: 429, errors: APIErrorEntry.parse(response.body),
                       rateLimit: response.headers["x-rate-limit"], attempts: attempt)
        }
        sleep(wait)
        // The server said when to come back: what it said was left counts no more.
        ledger.waited()
    }

    enum Completeness: Equatable {
        case complete
        case cutShort
        case invalid(String)
    }

    /// Whether a body is whole: JSON must parse to its end (an error at the last byte means the
    /// body was cut short; anywhere else, that it is not JSON, with the line and column).
    static func check(_ body: Data, _ kind: BodyKind) -> Completeness {
        switch kind {
        case .gzip(let complete):
            return complete(body) ? .complete : .cutShort
        case .json:
            guard let failure = JSONSyntax.firstError(in: [UInt8](body), integersIn64Bits: true) else { return .complete }
            if failure.offset >= body.count { return .cutShort }
            return .invalid("the body is not valid JSON: line \(failure.line), column \(failure.column): \(failure.message)")
        }
    }

    /// 1, 2, 4 … seconds, at most 30.
    static func backoff(_ attempt: Int) -> TimeInterval {
        min(30, TimeInterval(1 << min(max(attempt - 1, 0), 5)))
    }

    /// `Retry-After` in seconds (App Store Connect sends seconds, not dates).
    static func retryAfter(_ headers: [String: String]) -> TimeInterval? {
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), text.utf8.count <= 9,
              let seconds = Int(text), seconds >= 0 else { return nil }
        return TimeInterval(seconds)
    }
}

/// The token signer behind a lock: one token for all of a client's connections, signed again
/// when it is about to run out.
private final class SharedSigner: @unchecked Sendable {
    private let lock = NSLock()
    private var signer: TokenSigner

    init(_ signer: TokenSigner) {
        self.signer = signer
    }

    func token() -> String {
        lock.withLock { signer.token() }
    }
}

/// A path of the API with the resource IDs in it checked and escaped: an ID from an answer goes
/// into the next request's path, so one that is not an App Store Connect ID (`../../v1/financeReports`,
/// a space, `?`, `#`) is refused here instead of choosing another operation.
public struct APIPath: Sendable, Equatable, CustomStringConvertible {
    /// The path as sent, percent-encoded.
    public let encoded: String

    /// A fixed path (`/v1/apps`), written in this code.
    public init(_ fixed: StaticString) {
        encoded = "\(fixed)"
    }

    /// `prefix` + `/` + the ID + `/` + `suffix` (`/v1/apps`, `1234567890`, `inAppPurchasesV2`).
    public init(_ prefix: StaticString, _ id: String, _ suffix: StaticString? = nil) throws(ASCError) {
        if let reason = ResourceID.problem(id) {
            throw .invalidResponse("\(prefix)", "the resource ID \(Quote.escaped(id)) cannot be used: \(reason); no request made with it")
        }
        // Nothing to escape in an ID that passed; escaped all the same, so no change above can let one through raw.
        let escaped = id.addingPercentEncoding(withAllowedCharacters: ResourceID.allowed) ?? id
        encoded = "\(prefix)/\(escaped)" + (suffix.map { "/\($0)" } ?? "")
    }

    public var description: String { encoded }
}

/// What an App Store Connect resource ID can be: letters, digits, `-` and `_` (apps, products,
/// groups and price schedules have digits; other resources base64url), 1 to 200 of them.
public enum ResourceID {
    static let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    public static let maxLength = 200

    /// Why `id` is not one, or nil.
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return "empty" }
        if id.utf8.count > maxLength { return "longer than \(maxLength) characters" }
        let ok = id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
        return ok ? nil : "not an App Store Connect ID (letters, digits, '-' and '_')"
    }
}

/// One entry of App Store Connect's `errors[]`.
public struct APIErrorEntry: Sendable, Equatable, Decodable {
    public var status: String?
    public var code: String?
    public var title: String?
    public var detail: String?
    /// The query parameter App Store Connect refused (`source.parameter`: `filter[vendorNumber]`),
    /// when the error names one: what a 400's hint is about.
    public var parameter: String?

    public init(status: String? = nil, code: String? = nil, title: String? = nil, detail: String? = nil, parameter: String? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.parameter = parameter
    }

    private enum CodingKeys: String, CodingKey { case status, code, title, detail, source }
    private struct Source: Decodable { var parameter: String? }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        code = try container.decodeIfPresent(String.self, forKey: .code)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        // A source of another shape (a JSON pointer, or none) names no parameter; it does not
        // make the rest of the error unreadable.
        parameter = (try? container.decodeIfPresent(Source.self, forKey: .source))?.parameter
    }

    /// At most this many entries of a body's `errors[]` are kept.
    static let maxEntries = 5

    static func parse(_ body: Data) -> [APIErrorEntry] {
        struct Body: Decodable { var errors: [APIErrorEntry]? }
        // A body past 1 MB is not an error body App Store Connect sends; not read.
        guard body.count <= 1 << 20 else { return [] }
        return Array(((try? JSONDecoder().decode(Body.self, from: body))?.errors ?? []).prefix(maxEntries))
    }
}

/// What went wrong talking to App Store Connect, with what to do about it. Never holds a token
/// or key material; text from the server is quoted bounded, control characters escaped.
public enum ASCError: Error, Sendable, CustomStringConvertible {
    case configuration(String)
    case api(String, status: Int, errors: [APIErrorEntry], rateLimit: String?, attempts: Int)
    case transport(String, TransportError, attempts: Int)
    case invalidResponse(String, String)
    case notFound(String)
    /// The key's requests for this hour are spent (or would be by this request): stopped before
    /// App Store Connect answers 429.
    case budgetSpent(String, limit: Int?, retryAfter: TimeInterval?)
    /// The client's cap on requests is reached.
    case requestCap(String, cap: Int)

    public var description: String {
        switch self {
        case .configuration(let why):
            return why
        case .api(let operation, let status, let errors, let rateLimit, let attempts):
            let said = errors.map { entry in
                [entry.code.map { Quote.escaped($0, open: "", close: "") }, (entry.detail ?? entry.title).map { Quote.escaped($0, open: "", close: "") }]
                    .compactMap { $0 }.joined(separator: ": ")
            }.filter { !$0.isEmpty }
            var text = "App Store Connect answered \(status) to \(Self.request(operation))"
            if attempts > 1 { text += " (after \(attempts) tries)" }
            if !said.isEmpty { text += ": " + said.joined(separator: "; ") }
            if let hint = Self.hint(status, operation: operation, rateLimit: rateLimit) { text += " — " + hint }
            return text
        case .transport(let operation, let error, let attempts):
            let why = switch error {
            case .timedOut(let seconds): "no answer within \(seconds) s"
            case .tooLarge(let limit): "a response larger than \(limit) bytes"
            case .failed(let reason): Quote.escaped(reason, open: "", close: "")
            }
            return "cannot reach App Store Connect for \(Self.request(operation)) (\(attempts) \(attempts == 1 ? "try" : "tries")): \(why)"
        case .invalidResponse(let operation, let why):
            return "App Store Connect's answer to \(Self.request(operation)) cannot be read: \(why)"
        case .notFound(let what):
            return what
        case .budgetSpent(_, let limit, let retryAfter):
            let allowed = limit.map { "this key's \($0) requests an hour" } ?? "this key's requests for the hour"
            return "App Store Connect allows \(allowed) and they are spent; stopped before it refuses them (429). "
                + "Run again \(Self.wait(retryAfter))"
        case .requestCap(let operation, let cap):
            return "stopped at \(Self.request(operation)): \(cap) requests is the most one run sends (docs/asc.md)"
        }
    }

    /// The request an operation names: a write's is `POST /v2/…`, a read's is its path (or what it reads) alone.
    static func request(_ operation: String) -> String {
        operation.hasPrefix("POST ") || operation.hasPrefix("PATCH ") ? operation : "GET \(operation)"
    }

    /// When to run again, in words: App Store Connect's limit counts the last hour.
    static func wait(_ seconds: TimeInterval?) -> String {
        guard let seconds, seconds < 3600 else { return "in an hour, when the hour's requests are counted anew" }
        let minutes = max(1, Int((seconds / 60).rounded(.up)))
        return "in \(minutes) \(minutes == 1 ? "minute" : "minutes")"
    }

    /// Whether the work can be taken up again later where it stopped (the hour's limit, a server
    /// that is failing, a connection that broke), rather than refused for good.
    public var isTemporary: Bool {
        switch self {
        case .budgetSpent, .transport: true
        case .api(_, let status, _, _, _): status == 429 || status >= 500
        default: false
        }
    }

    static func hint(_ status: Int, operation: String, rateLimit: String?) -> String? {
        switch status {
        case 401: "check the key: IAP_ASC_ISSUER_ID, IAP_ASC_KEY_ID and the private key must belong together, and the key must not be revoked"
        case 403 where operation.hasPrefix("POST ") || operation.hasPrefix("PATCH "): "the key's role cannot make changes: `iap asc apply` needs a key with the App Manager or Admin role (Users and Access → Integrations)"
        case 403: "the key's role does not allow this: give it the App Manager (or Developer) role, or Finance for reports"
        case 404 where operation.hasPrefix("/v1/apps"): "check the app's bundle ID or Apple ID, and that the key's team owns the app"
        case 429: "the key's hourly request limit is spent" + (rateLimit.map { " (\(Quote.escaped($0)))" } ?? "") + "; run again in an hour"
        case 500..<600 where operation.hasPrefix("POST ") || operation.hasPrefix("PATCH "): "App Store Connect is failing and may or may not have made the change; run the same command again: it reads App Store Connect first and does only what is still missing"
        case 500..<600: "App Store Connect is failing; run again later"
        default: nil
        }
    }
}
