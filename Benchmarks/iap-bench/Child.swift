import Foundation
import IAPCatalog
import PropertyList

/// What runs inside one measurement process.
enum Child {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The best of three timings of `body`, in seconds: this VM's jitter is larger than the
    /// differences measured.
    static func bestOfThree(_ body: () -> Void) -> Double {
        (0..<3).map { _ in
            let start = now()
            body()
            return now() - start
        }.min()!
    }

    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// "<best seconds> <count> <peak KiB> [<validate-only seconds>]"
    static func run(mode: String, path: String, repeats: Int) -> String {
        var best = Double.infinity
        var bestValidate = Double.infinity
        var count = 0
        for _ in 0..<max(repeats, 1) {
            // What a mode built is kept until its time is taken and freed after: reading ends when
            // the value is in hand (the bare C pass frees nothing either).
            var keep: Any?
            let start = now()
            switch mode {
            case "ours":
                // As the loader reads: a plain ID list as strings and positions, anything else a tree.
                guard let content = try? PlistReader().readContent(path: path) else { fail("ours: cannot read \(path)") }
                switch content {
                case .strings(let list): count = list.count
                case .tree(let root): count = root.value.arrayValue?.count ?? 0
                }
                keep = content
            case "ours-tree":
                // As `iap plist lint` and `plist print` read: the whole tree, whatever the shape.
                guard let document = try? PlistReader().read(path: path) else { fail("ours-tree: cannot read \(path)") }
                count = document.root.value.arrayValue?.count ?? 0
                keep = document
            case "ours-kept-tree":
                // The tree by way of the strings: kept as strings, then made nodes (how `read` made
                // it before it asked for the tree up front).
                guard let content = try? PlistReader().readContent(path: path) else { fail("ours-kept-tree: cannot read \(path)") }
                let root = content.tree
                count = root.value.arrayValue?.count ?? 0
                keep = root
            case "ours-validate":
                let catalog = CatalogLoader(bundleIDOverride: "com.bench.app").loadCatalog(name: "bench", paths: [path], explicit: [path])
                let loaded = now()
                let diagnostics = CatalogValidator().validate(catalog)
                bestValidate = min(bestValidate, now() - loaded)
                count = catalog.products.count
                keep = (catalog, diagnostics)
            case "ours-load":
                // The load alone: its peak is the catalog's, before any rule runs.
                let catalog = CatalogLoader(bundleIDOverride: "com.bench.app").loadCatalog(name: "bench", paths: [path], explicit: [path])
                count = catalog.products.count
                keep = catalog
            case "rules-breakdown":
                let catalog = CatalogLoader(bundleIDOverride: "com.bench.app").loadCatalog(name: "bench", paths: [path], explicit: [path])
                var lines: [String] = ["load \(String(format: "%.3f", now() - start))"]
                for rule in CatalogRules.all {
                    let t = now()
                    let found = rule.check(catalog, options: ValidationOptions())
                    lines.append("\(rule.description.id) \(String(format: "%.3f", now() - t)) \(found.count)")
                }
                let t = now()
                _ = CatalogValidator().validate(catalog)
                lines.append("validate-all \(String(format: "%.3f", now() - t))")
                FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
                count = catalog.products.count
            case "pls":
                guard let data = FileManager.default.contents(atPath: path),
                      let value = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [Any]
                else { fail("pls: cannot read \(path)") }
                count = value.count
                keep = value
            default:
                fail("unknown mode \(mode)")
            }
            best = min(best, now() - start)
            withExtendedLifetime(keep) {}
            keep = nil
        }
        var line = String(format: "%.6f %d %d", best, count, peakKiB())
        if mode == "ours-validate" { line += String(format: " %.6f", bestValidate) }
        return line
    }
}
