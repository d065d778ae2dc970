import Foundation

/// Runs every measurement and prints the Markdown tables recorded in BENCHMARKS.md.
struct Suite {
    let full: Bool
    let folder = "Benchmarks/inputs"

    var binDirectory: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .deletingLastPathComponent()
    }

    struct Sample {
        var seconds: Double
        var count: Int
        var peakKiB: Int
        var validateSeconds: Double?
    }

    func spawn(_ executable: URL, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { fail("cannot run \(executable.path): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fail("\(executable.lastPathComponent) \(arguments) failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func sample(_ line: String) -> Sample {
        let parts = line.split(separator: " ")
        return Sample(seconds: Double(parts[0])!, count: Int(parts[1])!, peakKiB: Int(parts[2])!,
                      validateSeconds: parts.count > 3 ? Double(parts[3]) : nil)
    }

    func repeats(_ count: Int, _ kind: String) -> Int {
        switch count {
        case ..<5_000: 50
        case ..<50_000: 10
        case ..<500_000: kind == "ids" ? 5 : 3
        default: kind == "ids" ? 3 : 1
        }
    }

    func run() {
        Generator(folder: folder, full: full).generateAll()
        let me = binDirectory.appendingPathComponent("iap-bench")
        let bare = binDirectory.appendingPathComponent("bare-libxml2-count")
        print("## Read: our reader vs PropertyListSerialization vs a bare libxml2 pass\n")
        print("Best of N runs per cell, each in its own process; peak = that process's VmHWM.\n")
        print("| file | size | products | bare C libxml2 | ours: read | ours: read + validate | PropertyListSerialization | ours ÷ bare C | PLS ÷ ours | peak ours | peak PLS | peak ours ÷ PLS | validate only |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for file in Generator(folder: folder, full: full).files {
            let path = folder + "/" + file.name
            let n = repeats(file.count, file.kind)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let c = sample(spawn(bare, [path, "\(n)"]))
            let ours = sample(spawn(me, ["child", "ours", path, "\(n)"]))
            let validated = sample(spawn(me, ["child", "ours-validate", path, "\(n)"]))
            let pls = sample(spawn(me, ["child", "pls", path, "\(n)"]))
            guard ours.count == file.count, pls.count == file.count, validated.count == file.count else {
                fail("\(file.name): counts differ (ours \(ours.count), PLS \(pls.count), catalog \(validated.count))")
            }
            print("| \(file.name) | \(Self.mb(size)) | \(file.count) | \(Self.ms(c.seconds)) | \(Self.ms(ours.seconds)) | \(Self.ms(validated.seconds)) | \(Self.ms(pls.seconds)) | \(Self.ratio(ours.seconds / c.seconds)) | \(Self.ratio(pls.seconds / ours.seconds)) | \(Self.mb(ours.peakKiB * 1024)) | \(Self.mb(pls.peakKiB * 1024)) | \(Self.ratio(Double(ours.peakKiB) / Double(pls.peakKiB))) | \(Self.ms(validated.validateSeconds ?? 0)) |")
        }
        print("\n## `iap validate` end to end, against a bare Foundation parse and a Python script\n")
        EndToEndBench.run(folder: folder, bin: binDirectory)
        rules(me)
        startup()
        generation()
        print("\n## Lint: iap lint against swift-syntax's bare parse (best of 3)\n")
        LintBench.run(folder: ".build/checkouts/swift-syntax/Sources")
        print("\n## Prices: PriceFormatter against NumberFormatter (best of 3)\n")
        PriceBench.run(count: 1_000_000)
    }

    /// Every rule on a million IDs: a numbered family (the usual shape) and letters only (the
    /// worst case for similar-ids). The child prints one line per rule on stderr.
    func rules(_ me: URL) {
        print("\n## All validation rules on 1M IDs (best of 3, loading excluded)\n")
        print("| file | load | all rules (with sorting) | slowest rules |")
        print("|---|---|---|---|")
        for name in ["ids-1M.plist", Generator.lettersFile] {
            var best: (load: Double, all: Double, lines: [(String, Double)])?
            for _ in 0..<3 {
                let process = Process()
                process.executableURL = me
                process.arguments = ["child", "rules-breakdown", folder + "/" + name, "1"]
                let err = Pipe()
                process.standardError = err
                process.standardOutput = FileHandle.nullDevice
                try? process.run()
                let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                var load = 0.0, all = 0.0
                var lines: [(String, Double)] = []
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: " ")
                    guard parts.count >= 2, let t = Double(parts[1]) else { continue }
                    switch parts[0] {
                    case "load": load = t
                    case "validate-all": all = t
                    default: lines.append((String(parts[0]), t))
                    }
                }
                if best == nil || all < best!.all { best = (load, all, lines) }
            }
            guard let best else { continue }
            let top = best.lines.sorted { $0.1 > $1.1 }.prefix(3).map { "\($0.0) \(Self.ms($0.1))" }.joined(separator: ", ")
            print("| \(name) | \(Self.ms(best.load)) | \(Self.ms(best.all)) | \(top) |")
        }
    }

    /// `iap gen` end to end (process start to file written), best of 3, on 10k and 100k products.
    func generation() {
        let iap = binDirectory.appendingPathComponent("iap")
        func best(_ input: String) -> Double {
            (0..<3).map { _ -> Double in
                let output = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bench-gen-\(UUID()).swift").path
                defer { try? FileManager.default.removeItem(atPath: output) }
                let process = Process()
                process.executableURL = iap
                process.arguments = ["gen", folder + "/" + input, "-o", output]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let start = Child.now()
                try? process.run()
                process.waitUntilExit()
                return Child.now() - start
            }.min()!
        }
        print("\n## Code generation: `iap gen`, process start to file written (best of 3)\n")
        print("| input | 10k products | 100k products | 100k ÷ 10k |")
        print("|---|---|---|---|")
        for kind in ["ids", "dicts"] {
            let small = best("\(kind)-10k.plist"), large = best("\(kind)-100k.plist")
            print("| \(kind == "ids" ? "array of IDs" : "array of product dicts") | \(Self.ms(small)) | \(Self.ms(large)) | \(Self.ratio(large / small)) |")
        }
    }

    /// `iap validate` on a small catalog against a program that only imports Foundation and prints,
    /// both spawned directly (`posix_spawn`, `wait4`: Foundation's `Process` costs more than the
    /// difference), taken in turn so both see the same load; the median of 41 runs each. Other
    /// `iap` binaries given (a build of another commit) are timed in the same turns.
    func startup(others: [String] = []) {
        let hello = binDirectory.appendingPathComponent("hello-foundation").path
        let binaries = [binDirectory.appendingPathComponent("iap").path] + others
        var helloTimes: [Double] = []
        var iapTimes = Array(repeating: [Double](), count: binaries.count)
        for _ in 0..<41 {
            helloTimes.append(EndToEndBench.spawn([hello]).seconds)
            for (n, binary) in binaries.enumerated() {
                iapTimes[n].append(EndToEndBench.spawn([binary, "validate", "catalogs/FakeGame"]).seconds)
            }
        }
        func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }
        let helloTime = median(helloTimes)
        print("\n## Start-up: `iap validate catalogs/FakeGame` vs a Foundation hello world (median of 41, spawned directly)\n")
        print("| binary | hello-foundation | iap validate catalogs/FakeGame | ratio |")
        print("|---|---|---|---|")
        for (n, binary) in binaries.enumerated() {
            let time = median(iapTimes[n])
            print("| \(n == 0 ? "this build" : (binary as NSString).lastPathComponent) | \(Self.ms(helloTime)) | \(Self.ms(time)) | \(Self.ratio(time / helloTime)) |")
        }
    }

    static func ms(_ seconds: Double) -> String { String(format: seconds < 0.01 ? "%.2f ms" : "%.0f ms", seconds * 1000) }
    static func mb(_ bytes: Int) -> String { String(format: bytes < 10 << 20 ? "%.1f MB" : "%.0f MB", Double(bytes) / 1_048_576) }
    static func ratio(_ r: Double) -> String { String(format: "%.2f×", r) }
}
