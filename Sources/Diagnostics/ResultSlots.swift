import Foundation

/// Results of parallel work, one slot per piece of work (a file, a rule), collected in order
/// afterwards: whatever the thread count, the result is the same.
public final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()
    private var next = 0

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next slot no worker has taken, or nil when all are.
    public func take() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }
    }

    public func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    /// Every slot's value, slot by slot (once `run` has filled them all).
    public func values() -> [Value] { lock.withLock { slots.map { $0! } } }

    /// Runs `work` for every slot on up to `workers` threads, each taking the next slot not yet taken.
    public static func run(count: Int, workers: Int, _ work: @Sendable (Int) -> Value) -> ResultSlots {
        let results = ResultSlots(count: count)
        let threads = min(max(workers, 1), max(count, 1))
        if threads == 1 {
            for index in 0..<count { results.slots[index] = work(index) }
            return results
        }
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let index = results.take() {
                results.set(index, work(index))
            }
        }
        return results
    }
}

extension ResultSlots where Value == [Diagnostic] {
    /// Every slot's findings, slot by slot.
    public func all() -> [Diagnostic] { values().flatMap { $0 } }
}
