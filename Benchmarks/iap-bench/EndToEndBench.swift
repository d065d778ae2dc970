import Foundation
import IAPCatalog
import PropertyList

/// `iap validate` as a user runs it (process start to exit, every rule) against peers run the same
/// way in the same run: Foundation's `PropertyListSerialization` parse of the same file alone (an
/// `iap-bench child pls` process), and `Benchmarks/validate_ids.py` (plistlib and a Counter).
/// Each is spawned with `posix_spawn` and reaped with `wait4`, whose `ru_maxrss` is the child's
/// peak (this process is small when it spawns, so the high-water mark a child starts from is too).
enum EndToEndBench {
    struct Run {
        var seconds: Double
        var peakKiB: Int
        var status: Int32
    }

    static func spawn(_ arguments: [String]) -> Run {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = Child.now()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { fail("cannot run \(arguments[0])") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return Run(seconds: Child.now() - start, peakKiB: usage.ru_maxrss, status: (status >> 8) & 0xFF)
    }

    /// The best time of `repeats` runs, and the largest peak.
    static func best(_ arguments: [String], _ repeats: Int) -> Run {
        let runs = (0..<repeats).map { _ in spawn(arguments) }
        return Run(seconds: runs.map(\.seconds).min()!, peakKiB: runs.map(\.peakKiB).max()!, status: runs[0].status)
    }

    static func run(folder: String, bin: URL) {
        Generator(folder: folder, full: false).generateAll()
        let iap = bin.appendingPathComponent("iap").path, me = bin.appendingPathComponent("iap-bench").path
        let hasPython = spawn(["python3", "-c", "import plistlib"]).status == 0
        print("| file | products | iap validate | PLS parse alone | iap ÷ PLS | peak iap | peak PLS | python script | peak python | peak iap ÷ python |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        var times: [String: Double] = [:]
        for (name, count) in [("ids-10k", 10_000), ("ids-100k", 100_000), ("ids-1M", 1_000_000), ("dicts-10k", 10_000),
                              ("dicts-100k", 100_000), ("letters-1M", 1_000_000), ("placeholder-1M", 1_000_000)] {
            let path = folder + "/" + name + ".plist"
            let repeats = count >= 1_000_000 ? 3 : count >= 100_000 ? 5 : 11
            let ours = best([iap, "validate", path, "--bundle-id", "com.bench.app"], repeats)
            let pls = best([me, "child", "pls", path, "1"], repeats)
            times[name] = ours.seconds
            var python = "–", pythonPeak = "–", ratio = "–"
            if hasPython {
                let py = best(["python3", "Benchmarks/validate_ids.py", path], repeats)
                python = Suite.ms(py.seconds)
                pythonPeak = Suite.mb(py.peakKiB * 1024)
                ratio = Suite.ratio(Double(ours.peakKiB) / Double(py.peakKiB))
            }
            print("| \(name).plist | \(count) | \(Suite.ms(ours.seconds)) | \(Suite.ms(pls.seconds)) | \(Suite.ratio(ours.seconds / pls.seconds)) | \(Suite.mb(ours.peakKiB * 1024)) | \(Suite.mb(pls.peakKiB * 1024)) | \(python) | \(pythonPeak) | \(ratio) |")
        }
        if let every = times["placeholder-1M"], let none = times["ids-1M"] {
            print("\nEvery product drawing the same finding (placeholder-1M) against none (ids-1M): \(Suite.ratio(every / none)).")
        }
        print("\nIn one process (best of 3): the read alone, the whole load (read, shapes, merge, kinds), the load")
        print("stage (load − read) and the rules on every core.\n")
        print("| file | read | load | load stage | load stage ÷ read | rules |")
        print("|---|---|---|---|---|---|")
        for name in ["ids-100k", "ids-1M", "letters-1M", "dicts-100k"] {
            let line = Suite(full: false).spawn(bin.appendingPathComponent("iap-bench"), ["stages", folder + "/" + name + ".plist"])
            let t = line.split(separator: " ").compactMap { Double($0) }
            guard t.count == 3 else { fail("stages: \(line)") }
            print("| \(name).plist | \(Suite.ms(t[0])) | \(Suite.ms(t[1])) | \(Suite.ms(t[1] - t[0])) | \(Suite.ratio((t[1] - t[0]) / t[0])) | \(Suite.ms(t[2])) |")
        }
    }

    /// Where the time of one validation goes, in process: the read alone (as the loader reads),
    /// the whole load (read, shapes, merge, kinds), and the rules (on every core).
    static func stages(_ path: String) -> (read: Double, load: Double, rules: Double) {
        var read = Double.infinity, load = Double.infinity, rules = Double.infinity
        for _ in 0..<3 {
            var start = Child.now()
            // The reader as the loader calls it (a plain ID list is kept as strings, no tree).
            let document = try? PlistReader().readContent(path: path)
            read = min(read, Child.now() - start)
            withExtendedLifetime(document) {}
            start = Child.now()
            let catalog = CatalogLoader(bundleIDOverride: "com.bench.app").loadCatalog(name: "bench", paths: [path], explicit: [path])
            load = min(load, Child.now() - start)
            start = Child.now()
            let found = CatalogValidator().validate(catalog)
            rules = min(rules, Child.now() - start)
            withExtendedLifetime((catalog, found)) {}
        }
        return (read, load, rules)
    }
}
