import Foundation
import Support
import XCTest

final class ParallelTests: XCTestCase {
    func testChunksCoverEveryIndexOnceInOrder() {
        XCTAssertEqual(ParallelChunks.ranges(count: 10, workers: 3), [0..<3, 3..<6, 6..<10])
        XCTAssertEqual(ParallelChunks.ranges(count: 2, workers: 8), [0..<1, 1..<2])
        XCTAssertEqual(ParallelChunks.ranges(count: 5, workers: 0), [0..<5])
        XCTAssertEqual(ParallelChunks.ranges(count: 0, workers: 4), [])
    }

    func testChunkedWorkFillsEverySlotWhateverTheWorkers() {
        for workers in [1, 2, 7] {
            let slots = ResultSlots<Int>(count: 1000)
            ParallelChunks.run(count: 1000, workers: workers) { chunk in
                for index in chunk { slots.set(index, index * index) }
            }
            XCTAssertEqual(slots.values(), (0..<1000).map { $0 * $0 })
        }
    }

    func testSlotsComeBackInOrderWhateverTheThreads() {
        for workers in [1, 3] {
            let results = ResultSlots.run(count: 50, workers: workers) { "item \($0)" }
            XCTAssertEqual(results.values(), (0..<50).map { "item \($0)" })
        }
        // On threads of a given stack, which the work can read back.
        let sizes = ResultSlots.run(count: 3, workers: 2, stackSize: 1 << 22) { _ in
            Thread.current.threadDictionary[ResultSlots<Int>.stackSizeKey] as? Int ?? 0
        }
        XCTAssertEqual(sizes.values(), [1 << 22, 1 << 22, 1 << 22])
    }

    /// Items that add items, on threads of their own: every item runs once, whatever the threads.
    func testAWorkQueueRunsEveryItemAndWhatItAdds() {
        for threads in [1, 3, 8] {
            let queue = WorkQueue(Array(0..<50))
            let done = ResultSlots<Int>(count: 150)
            queue.run(threads: threads) { item in
                done.set(item, item)
                // Each of the first 50 adds two more: 50 + 2 × 50 items in all.
                return .done(adding: item < 50 ? [50 + 2 * item, 51 + 2 * item] : [])
            }
            XCTAssertEqual(done.values(), Array(0..<150), "threads: \(threads)")
            XCTAssertFalse(queue.wasStopped)
            XCTAssertEqual(queue.untaken, [])
        }
    }

    /// A stop hands its item back and nothing is taken after it: what was never run is `untaken`.
    func testAStoppedWorkQueueKeepsWhatItDidNotRun() {
        let queue = WorkQueue(Array(0..<20))
        let ran = ResultSlots<Bool>(count: 20)
        queue.run(threads: 1) { item in
            if item == 7 { return .stop(item) }
            ran.set(item, true)
            return .done(adding: [])
        }
        XCTAssertTrue(queue.wasStopped)
        XCTAssertEqual(queue.untaken, Array(7..<20))
        for threads in [2, 8] {
            let many = WorkQueue(Array(0..<200))
            let seen = ResultSlots<Int>(count: 200)
            many.run(threads: threads) { item in
                if item == 30 { return .stop(item) }
                seen.set(item, 1)
                return .done(adding: [])
            }
            // Run or left, every item once.
            let left = many.untaken
            XCTAssertTrue(left.contains(30))
            XCTAssertEqual(Set(left).count, left.count)
            let run = (0..<200).filter { !left.contains($0) }
            XCTAssertEqual(run.count + left.count, 200)
        }
    }
}
