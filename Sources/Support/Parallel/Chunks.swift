import Foundation

/// Parallel work in contiguous chunks: `count` items split into `workers` ranges in order, each
/// run on its own thread (on the caller's when there is one worker). For work whose every item
/// costs about the same and writes only its own slot of a buffer (building a catalog's products);
/// work of uneven cost takes its slots one at a time from `ResultSlots.run`.
public enum ParallelChunks {
    /// The ranges `count` items fall into for `workers` workers: as even as they can be, in order,
    /// together every index once. Fewer ranges than workers when there are fewer items.
    public static func ranges(count: Int, workers: Int) -> [Range<Int>] {
        let workers = max(1, min(workers, count))
        guard count > 0 else { return [] }
        return (0..<workers).map { (count * $0 / workers)..<(count * ($0 + 1) / workers) }
    }

    /// Runs `body` once per range of `ranges(count:workers:)`, at once; returns when all are done.
    public static func run(count: Int, workers: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let chunks = ranges(count: count, workers: workers)
        if chunks.count == 1 { return body(chunks[0]) }
        DispatchQueue.concurrentPerform(iterations: chunks.count) { body(chunks[$0]) }
    }
}
