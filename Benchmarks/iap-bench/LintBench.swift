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
        let lintOne = best {
            sink &+= ResultSlots.run(count: files.count, workers: 1, stackSize: 256 << 20) { linter.lint(source: sources[$0], path: files[$0]).count }
                .values().reduce(0, +)
        }
        let lintTwo = best {
            sink &+= ResultSlots.run(count: files.count, workers: 2, stackSize: 256 << 20) { linter.lint(source: sources[$0], path: files[$0]).count }
                .values().reduce(0, +)
        }
        print("\(skipped) generated files skipped; the rest:")
        print("| files | lines | swift-syntax parse | iap lint, 1 thread | lint ÷ parse | iap lint, 2 threads | 2 threads speed-up | peak memory |")
        print("|---|---|---|---|---|---|---|---|")
        print(String(format: "| %d | %d | %.0f ms | %.0f ms | %.2f× | %.0f ms | %.2f× | %d MB |", files.count, lines, parse * 1000, lintOne * 1000,
                     lintOne / parse, lintTwo * 1000, lintOne / lintTwo, Child.peakKiB() / 1024))
        if sink == 42 { print("") }
    }
}
