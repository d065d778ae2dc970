import Foundation

/// Work that waits (on the network) run on a fixed number of threads of its own: each thread
/// takes the next item, and an item may add more. Dispatch's concurrent queues run as many at
/// once as there are cores, which for work that waits is too few; these threads are the
/// connections a client keeps open.
///
/// `stop()` ends the run early: items not yet taken are left in `untaken`, in the order they
/// would have been taken, and the items running finish first.
public final class WorkQueue<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Item]
    private var head = 0
    private var running = 0
    private var stopped = false

    /// Each thread's stack: a main thread's 8 MB.
    public static var stackSize: Int { 8 << 20 }

    public init(_ items: [Item]) {
        queue = items
    }

    /// What one item's work decided.
    public enum Step: Sendable {
        /// Done; these items are to be run too.
        case done(adding: [Item])
        /// Not done, and nothing else should start: the item is handed back (`untaken`).
        case stop(Item)
    }

    /// Runs every item on `threads` threads (at least one) and returns when all are done, or,
    /// after a `.stop`, when the items running are.
    public func run(threads: Int, _ work: @escaping @Sendable (Item) -> Step) {
        let count = max(1, threads)
        if count == 1 {
            while let item = take() { finish(work(item)) }
            return
        }
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            let thread = Thread { [self] in
                while let item = take() { finish(work(item)) }
                group.leave()
            }
            // The caller's stack, not a secondary thread's 512 KB: work may parse nested input.
            thread.stackSize = Self.stackSize
            thread.start()
        }
        group.wait()
    }

    /// Items not run: those handed back by `.stop`, then those never taken.
    public var untaken: [Item] {
        condition.lock()
        defer { condition.unlock() }
        return Array(queue[head...])
    }

    /// Whether an item stopped the run.
    public var wasStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Stops the run: no item is taken after this.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopped { return nil }
            if head < queue.count {
                let item = queue[head]
                head += 1
                running += 1
                // Drop what was taken now and then, so a long run does not keep every item.
                if head > 1024, head * 2 > queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
                return item
            }
            if running == 0 { return nil }
            // Another thread's item may add more: wait for it to finish.
            condition.wait()
        }
    }

    private func finish(_ step: Step) {
        condition.lock()
        running -= 1
        switch step {
        case .done(let more):
            queue += more
        case .stop(let item):
            stopped = true
            // Handed back in front of what was never taken.
            queue.insert(item, at: head)
        }
        condition.broadcast()
        condition.unlock()
    }
}
