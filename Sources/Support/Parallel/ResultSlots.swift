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

    /// The key a worker thread of `run(…, stackSize:)` holds its stack size under, in its
    /// `threadDictionary`: work that needs a deep stack runs in place there.
    public static var stackSizeKey: String { "iap.stackSize" }

    /// Runs `work` for every slot on up to `workers` threads, each taking the next slot not yet taken.
    /// With a `stackSize`, on threads of that stack (for a parser that recurses once per level of its
    /// input's nesting), even for one worker: the caller's stack is not known.
    public static func run(count: Int, workers: Int, stackSize: Int? = nil, _ work: @escaping @Sendable (Int) -> Value) -> ResultSlots {
        let results = ResultSlots(count: count)
        let threads = min(max(workers, 1), max(count, 1))
        if let stackSize, count > 0 {
            let done = DispatchGroup()
            for _ in 0..<threads {
                done.enter()
                let thread = Thread {
                    Thread.current.threadDictionary[stackSizeKey] = stackSize
                    while let index = results.take() { results.set(index, work(index)) }
                    done.leave()
                }
                thread.stackSize = stackSize
                thread.start()
            }
            done.wait()
            return results
        }
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
