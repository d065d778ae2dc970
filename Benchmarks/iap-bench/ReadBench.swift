import Foundation

/// The reader's two paths, `readContent` (a root list of strings kept as strings) and `read` (the
/// whole tree, as `iap plist lint` and `plist print` need it; and the tree made from kept strings,
/// the way `read` made it before it asked for the tree up front), against the bare libxml2 pass and
/// PropertyListSerialization on the same file. Every round runs each peer once, in its own process,
/// one after the other, so a busy machine slows all of them alike; the table gives each one's best
/// and the range of its ratio to the bare pass of the same round.
enum ReadBench {
    static func run(files: [String], rounds: Int, suite: Suite) {
        let me = suite.binDirectory.appendingPathComponent("iap-bench")
        let bare = suite.binDirectory.appendingPathComponent("bare-libxml2-count")
        print("| file | rounds | bare C libxml2 | ours: strings | ours: tree | ours: strings → tree | PLS | strings ÷ bare | tree ÷ bare | strings → tree ÷ bare | PLS ÷ tree | peak strings | peak tree |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for path in files {
            var bareTimes: [Double] = [], strings: [Suite.Sample] = [], trees: [Suite.Sample] = [], kept: [Suite.Sample] = [], pls: [Suite.Sample] = []
            for _ in 0..<rounds {
                bareTimes.append(suite.sample(suite.spawn(bare, [path, "1"])).seconds)
                strings.append(suite.sample(suite.spawn(me, ["child", "ours", path, "1"])))
                trees.append(suite.sample(suite.spawn(me, ["child", "ours-tree", path, "1"])))
                kept.append(suite.sample(suite.spawn(me, ["child", "ours-kept-tree", path, "1"])))
                pls.append(suite.sample(suite.spawn(me, ["child", "pls", path, "1"])))
            }
            guard Set(strings.map(\.count) + trees.map(\.count) + kept.map(\.count) + pls.map(\.count)).count == 1 else {
                fail("\(path): counts differ between the readers")
            }
            func range(_ values: [Double]) -> String {
                let low = values.min()!, high = values.max()!
                return abs(high - low) < 0.005 ? Suite.ratio(low) : "\(Suite.ratio(low))–\(Suite.ratio(high))"
            }
            let stringRatios = zip(strings, bareTimes).map { $0.seconds / $1 }
            let treeRatios = zip(trees, bareTimes).map { $0.seconds / $1 }
            let keptRatios = zip(kept, bareTimes).map { $0.seconds / $1 }
            let plsRatios = zip(pls, trees).map { $0.seconds / $1.seconds }
            let name = (path as NSString).lastPathComponent
            print("| \(name) | \(rounds) | \(Suite.ms(bareTimes.min()!)) | \(Suite.ms(strings.map(\.seconds).min()!)) | "
                  + "\(Suite.ms(trees.map(\.seconds).min()!)) | \(Suite.ms(kept.map(\.seconds).min()!)) | \(Suite.ms(pls.map(\.seconds).min()!)) | "
                  + "\(range(stringRatios)) | \(range(treeRatios)) | \(range(keptRatios)) | \(range(plsRatios)) | \(Suite.mb(strings.map(\.peakKiB).max()! * 1024)) | "
                  + "\(Suite.mb(trees.map(\.peakKiB).max()! * 1024)) |")
        }
    }
}
