import Foundation

/// App Store Connect's hourly request limit as its `X-Rate-Limit` header states it on every
/// answer: `user-hour-lim:3600;user-hour-rem:3545;`.
public struct RateLimit: Sendable, Equatable {
    /// Requests the key may make in an hour.
    public var limit: Int?
    /// Requests left in the hour when the answer was made.
    public var remaining: Int

    /// The header's value, or nil when it does not say how many requests are left. Anything past
    /// 200 bytes, or a number past 10,000,000, is not a rate limit App Store Connect sends.
    public init?(header: String?) {
        guard let header, header.utf8.count <= 200 else { return nil }
        var fields: [Substring: Int] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            let text = pair[1].trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text.utf8.count <= 8, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text),
                  value <= 10_000_000 else { continue }
            fields[Substring(name)] = value
        }
        guard let remaining = fields["user-hour-rem"] else { return nil }
        self.remaining = remaining
        self.limit = fields["user-hour-lim"]
    }
}

/// What one client has spent, shared by every connection: the requests sent (and the cap on
/// them), the key's hourly requests left as App Store Connect last said, and the requests on
/// their way. A request is admitted only while the hour has one left for it, so a pull stops
/// before App Store Connect answers 429 instead of after.
final class RequestLedger: @unchecked Sendable {
    private let lock = NSLock()
    private let cap: Int
    private(set) var sent = 0
    private var inFlight = 0
    private var remaining: Int?
    private var limit: Int?

    init(cap: Int) {
        self.cap = cap
    }

    var requestsSent: Int { lock.withLock { sent } }

    /// The hour's limit and what was left at the last answer, less the requests sent since.
    var budget: (limit: Int?, remaining: Int?) { lock.withLock { (limit, remaining) } }

    /// Counts a request about to be sent, or says why it may not be.
    func admit(_ operation: String) throws(ASCError) {
        try lock.locked { () throws(ASCError) in
            guard sent < cap else { throw .requestCap(operation, cap: cap) }
            if let remaining, remaining <= 0 {
                throw .budgetSpent(operation, limit: limit, retryAfter: nil)
            }
            sent += 1
            inFlight += 1
            remaining = remaining.map { $0 - 1 }
        }
    }

    /// Takes in what an answer's `X-Rate-Limit` said; the requests still on their way were sent
    /// after it was counted, so they come off what it says is left.
    func answered(_ rate: RateLimit?) {
        lock.withLock {
            inFlight -= 1
            guard let rate else { return }
            remaining = max(0, rate.remaining - inFlight)
            limit = rate.limit ?? limit
        }
    }

    /// After a wait the server asked for (`Retry-After`): what is left is not known until the next answer.
    func waited() {
        lock.withLock { remaining = nil }
    }

    /// A request that got no answer.
    func lost() {
        lock.withLock { inFlight -= 1 }
    }
}

extension NSLock {
    /// `withLock` with a typed error (Foundation's rethrows `any Error`).
    func locked<R>(_ body: () throws(ASCError) -> R) throws(ASCError) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
