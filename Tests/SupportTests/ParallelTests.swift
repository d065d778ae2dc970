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
}
