import Diagnostics
import Foundation
import SourceLint
import Support
import SwiftParser

/// `iap lint` on a large real Swift codebase against swift-syntax's bare parse of the same files,
/// one thread and two.
enum LintBench {
    static func run(folder: String) {
        let linter = SourceLinter()
        guard let found = try? linter.files(in: [folder]), !found.isEmpty else {
            print("lint benchmark: \(folder) not found (build the package once so .build/checkouts/swift-syntax exists)")
            return
        }
        // Generated files are skipped unparsed; both sides measure the files lint reads.
        let all = found.compactMap { file in (try? String(contentsOfFile: file, encoding: .utf8)).map { (file, $0) } }
        let read = all.filter { !SourceLinter.isGenerated(path: $0.0, source: $0.1) }
        let skipped = all.count - read.count
        let files = read.map(\.0)
        let sources = read.map(\.1)
        let lines = sources.reduce(0) { $0 + $1.split(separator: "\n", omittingEmptySubsequences: false).count }
        let best = Child.bestOfThree
        var sink = 0
        let parse = best { for source in sources { sink &+= Parser.parse(source: source).totalLength.utf8Length } }
        // As `iap lint` runs files: each worker a thread with the linter's large stack.
        // Largest first, as `SourceLinter.run` takes them.
        let order = SourceLinter.largestFirst(files)
        let lintOne = best {
            sink &+= ResultSlots.run(count: files.count, workers: 1, stackSize: 256 << 20) { linter.lint(source: sources[order[$0]], path: files[order[$0]]).count }
                .values().reduce(0, +)
        }
        let lintTwo = best {
            sink &+= ResultSlots.run(count: files.count, workers: 2, stackSize: 256 << 20) { linter.lint(source: sources[order[$0]], path: files[order[$0]]).count }
                .values().reduce(0, +)
        }
        print("\(skipped) generated files skipped; the rest:")
        print("| files | lines | swift-syntax parse | iap lint, 1 thread | lint ÷ parse | iap lint, 2 threads | 2 threads speed-up | peak memory |")
        print("|---|---|---|---|---|---|---|---|")
        print(String(format: "| %d | %d | %.0f ms | %.0f ms | %.2f× | %.0f ms | %.2f× | %d MB |", files.count, lines, parse * 1000, lintOne * 1000,
                     lintOne / parse, lintTwo * 1000, lintOne / lintTwo, Child.peakKiB() / 1024))
        let swiftMB = Double(sources.reduce(0) { $0 + $1.utf8.count }) / 1_048_576
        print(String(format: "\nSwift: %.1f MB linted at %.1f MB/s on one thread.", swiftMB, swiftMB / lintOne))
        objectiveC(linter, &sink)
        if sink == 42 { print("") }
    }

    /// Objective-C lint time against its input's size: a shop's code (product requests, prices
    /// formatted by hand, a product-ID flow) repeated to 1 MB and to 10 MB.
    static func objectiveC(_ linter: SourceLinter, _ sink: inout Int) {
        func source(megabytes: Int) -> String {
            var text = "#import <StoreKit/StoreKit.h>\n\n@implementation ShopViewController\n"
            var n = 0
            while text.utf8.count < megabytes << 20 {
                n += 1
                text += """

                - (void)requestProducts\(n) {
                    NSSet *ids\(n) = [NSSet setWithObjects:@"com.acme.app.coins\(n)", @"com.acme.app.pack\(n)", nil];
                    SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:ids\(n)];
                    request.delegate = self;
                    [request start];
                }

                - (void)showProduct\(n):(SKProduct *)product {
                    NSString *identifier = product.productIdentifier;
                    if ([identifier isEqualToString:@"com.acme.app.coins\(n)"]) { self.count += \(n); }
                    self.priceLabel.text = [NSString stringWithFormat:@"%.2f €", product.price.floatValue];
                }

                """
            }
            return text + "@end\n"
        }
        var times: [(Int, Double)] = []
        for megabytes in [1, 10] {
            let text = source(megabytes: megabytes)
            times.append((megabytes, Child.bestOfThree { sink &+= linter.lint(source: text, path: "Shop\(megabytes).m").count }))
        }
        print("\n| Objective-C source | iap lint, 1 thread | MB/s | time ÷ 1 MB's |")
        print("|---|---|---|---|")
        for (megabytes, time) in times {
            print(String(format: "| %d MB | %.0f ms | %.1f | %.2f× |", megabytes, time * 1000, Double(megabytes) / time, time / times[0].1))
        }
    }
}
