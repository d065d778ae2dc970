import Foundation
@testable import AppStoreConnect

/// Answers requests from a script: for each path (with its query), the responses in order (the
/// last one repeats). Records every URL asked for and every Authorization header. A script's keys
/// leave out the query's sparse fieldsets (`fields[…]`), which say only what the answer may omit;
/// `asked` keeps them.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [String: [Result<HTTPResponse, TransportError>]]
    private(set) var requested: [String] = []
    /// Every URL asked for, its query whole.
    private(set) var asked: [String] = []
    private(set) var authorizations: [String] = []

    init(_ script: [String: [Result<HTTPResponse, TransportError>]]) {
        self.script = script
    }

    func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        let query = url.query.map { $0.split(separator: "&").filter { !$0.hasPrefix("fields%5B") }.joined(separator: "&") }
        let key = url.path + (query.map { $0.isEmpty ? "" : "?" + $0 } ?? "")
        asked.append(url.path + (url.query.map { "?" + $0 } ?? ""))
        requested.append(key)
        authorizations.append(headers["Authorization"] ?? "")
        guard var answers = script[key], !answers.isEmpty else {
            return HTTPResponse(status: 404, body: Data(#"{"errors":[{"status":"404","code":"NOT_FOUND","title":"not scripted","detail":"\#(key)"}]}"#.utf8))
        }
        let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
        script[key] = answers
        return try answer.get()
    }
}

/// Records the waits a client asks for instead of waiting.
final class Waits: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    var all: [TimeInterval] { lock.lock(); defer { lock.unlock() }; return recorded }

    func record(_ seconds: TimeInterval) {
        lock.lock()
        recorded.append(seconds)
        lock.unlock()
    }
}

func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Result<HTTPResponse, TransportError> {
    .success(HTTPResponse(status: status, headers: headers, body: Data(text.utf8)))
}
