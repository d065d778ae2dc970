import Foundation
#if canImport(Darwin)
// URLSession is Foundation's own on Apple platforms.
#else
// On Linux, libcurl through a shim that loads it on the first request: FoundationNetworking
// would load libcurl, GnuTLS, Kerberos, LDAP and 30 libraries more into every `iap` run
// (12 ms of start-up measured), `iap validate` included.
import CCurlShim
#endif

/// One HTTP response, its body bounded by the transport.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no response.
public enum TransportError: Error, Sendable, Equatable {
    /// No answer within the time allowed.
    case timedOut(seconds: Int)
    /// The body grew past the limit; the transfer was cancelled.
    case tooLarge(limit: Int)
    /// The connection failed or broke off (the OS's or URLSession's reason).
    case failed(String)
}

/// Sends requests. The client's only way out, so tests can answer in memory.
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse
    /// A POST or a PATCH with a JSON body (`iap asc apply`'s writes).
    func send(_ method: String, _ url: URL, headers: [String: String], body: Data) throws(TransportError) -> HTTPResponse
}

extension HTTPTransport {
    /// A transport that only reads: every write fails, and nothing is sent.
    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data) throws(TransportError) -> HTTPResponse {
        throw .failed("this transport does not send \(method) requests")
    }
}

/// The system's HTTP client: libcurl (loaded on the first request) on Linux, `URLSession` on
/// Apple platforms; with a whole-request deadline and a cap on the body it keeps, so a server
/// that streams without end costs the cap, not the memory of the machine.
public struct SystemTransport: HTTPTransport {
    /// Seconds a request may take in all, from the first byte sent to the last received.
    public var timeout: TimeInterval
    /// Bytes of body kept at most.
    public var maxBodyBytes: Int

#if !canImport(Darwin)
    /// The connections kept open between requests, one per request at once.
    private let connections = ConnectionPool()
#endif

    public init(timeout: TimeInterval = 60, maxBodyBytes: Int = 64 << 20) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
    }

#if !canImport(Darwin)
    public func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
        try perform("GET", url, headers: headers, body: Data())
    }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data) throws(TransportError) -> HTTPResponse {
        // libcurl would send `Expect: 100-continue` with a body past 1 kB and wait for an answer first.
        try perform(method, url, headers: headers.merging(["Expect": ""]) { mine, _ in mine }, body: body)
    }

    private func perform(_ method: String, _ url: URL, headers: [String: String], body payload: Data) throws(TransportError) -> HTTPResponse {
        let lines = headers.sorted { $0.key < $1.key }.map { $0.value.isEmpty ? "\($0.key):" : "\($0.key): \($0.value)" }
        var response = iap_http_response()
        let connection = connections.take()
        let outcome = withCStrings(lines) { pointers in
            payload.withUnsafeBytes { raw in
                iap_http_send(connection, method, url.absoluteString, pointers, Int32(lines.count),
                              raw.baseAddress?.assumingMemoryBound(to: CChar.self), payload.count,
                              Int(timeout * 1000), maxBodyBytes, &response)
            }
        }
        connections.give(back: connection, healthy: outcome == Int32(IAP_HTTP_OK.rawValue))
        defer { iap_http_free(&response) }
        let message = withUnsafeBytes(of: response.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch Int(outcome) {
        case Int(IAP_HTTP_OK.rawValue):
            break
        case Int(IAP_HTTP_TIMED_OUT.rawValue):
            throw .timedOut(seconds: Int(timeout))
        case Int(IAP_HTTP_TOO_LARGE.rawValue):
            throw .tooLarge(limit: maxBodyBytes)
        default:
            throw .failed(message.isEmpty ? "the request failed" : message)
        }
        let body = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
        var fields: [String: String] = [:]
        if let raw = response.headers {
            let text = String(decoding: UnsafeRawBufferPointer(start: raw, count: response.headers_length), as: UTF8.self)
            for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return HTTPResponse(status: response.status, headers: fields, body: body)
    }

    private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
#else
    public func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
        try perform("GET", url, headers: headers, body: nil)
    }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data) throws(TransportError) -> HTTPResponse {
        try perform(method, url, headers: headers, body: body)
    }

    private func perform(_ method: String, _ url: URL, headers: [String: String], body payload: Data?) throws(TransportError) -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = payload
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let collector = BodyCollector(limit: maxBodyBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        if url.scheme?.lowercased() != "https" {
            // In the clear, the token would be read by a proxy: none for plain http.
            configuration.connectionProxyDictionary = ["HTTPEnable": 0, "HTTPSEnable": 0]
        }
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        // The session's own timeouts end the task; the wait adds a margin so a stuck delegate
        // queue cannot hang the run either.
        if collector.done.wait(timeout: .now() + timeout + 5) == .timedOut {
            task.cancel()
            throw .timedOut(seconds: Int(timeout))
        }
        return try collector.result()
    }
#endif
}

#if !canImport(Darwin)
/// libcurl handles not in use, so the next request reuses one's open connection.
private final class ConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [OpaquePointer] = []

    /// An idle connection, or a new one (nil: a handle for this request alone).
    func take() -> OpaquePointer? {
        if let connection = lock.withLock({ idle.popLast() }) { return connection }
        return iap_http_open()
    }

    /// A connection whose request failed may be half-broken: closed rather than kept.
    func give(back connection: OpaquePointer?, healthy: Bool) {
        guard let connection else { return }
        guard healthy else { return iap_http_close(connection) }
        lock.withLock { idle.append(connection) }
    }

    deinit {
        for connection in idle { iap_http_close(connection) }
    }
}
#endif

#if canImport(Darwin)
/// Collects one task's response under a lock (URLSession calls its delegate on its own queue).
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let limit: Int
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var failure: TransportError?

    init(limit: Int) {
        self.limit = limit
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
        }
        lock.unlock()
        completionHandler(.allow)
    }

    /// Redirects are not followed: the token goes to the address asked for, nowhere else.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if failure == nil {
            if body.count + data.count > limit {
                failure = .tooLarge(limit: limit)
                body = Data()
                lock.unlock()
                dataTask.cancel()
                return
            }
            body.append(data)
        }
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        if failure == nil, let error {
            let code = (error as NSError).code
            failure = code == NSURLErrorTimedOut
                ? .timedOut(seconds: Int(task.originalRequest?.timeoutInterval ?? 0))
                : .failed(error.localizedDescription)
        }
        lock.unlock()
        done.signal()
    }

    func result() throws(TransportError) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
#endif
