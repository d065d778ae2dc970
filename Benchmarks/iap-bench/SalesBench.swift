import Foundation
import PriceFormatting

/// `iap report --sales` on a generated Summary Sales report of N rows, against the Python script
/// a finance team would write (Benchmarks/sales_totals.py: the csv module, Decimal sums per
/// product and currency), in the same run; and iap's peak memory at N rows against 10,000 rows,
/// which streaming keeps flat.
enum SalesBench {
    static let header = ["Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
                         "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
                         "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period", "Category",
                         "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type"]

    /// A report of `rows` rows: 60 products, 40 storefronts, 28 days, one row in 25 a refund.
    static func generate(rows: Int, to path: String) {
        if FileManager.default.fileExists(atPath: path) { return }
        let storefronts = Array(Storefronts.all.prefix(40))
        var out = header.joined(separator: "\t") + "\n"
        var data = Data()
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for i in 0..<rows {
            let product = next() % 60
            let storefront = storefronts[next() % storefronts.count]
            let day = 1 + next() % 28
            let refund = next() % 25 == 0
            let units = refund ? -1 : 1 + next() % 9
            let cents = 99 + 100 * (product % 20)
            let price = storefront.currency == "JPY" ? "\(cents + 1)" : "\(cents / 100).\(String(format: "%02d", cents % 100))"
            let proceeds = storefront.currency == "JPY" ? "\((cents + 1) * 7 / 10)" : "\(cents * 7 / 1000).\(String(format: "%02d", (cents * 7 / 10) % 100))"
            let type = product < 10 ? "IAY" : "IA1"
            let date = String(format: "11/%02d/2026", day)
            let fields = ["APPLE", "US", "com.bench.app.product\(product)", "Bench Co", "Product \(product)", " ", type, "\(units)",
                          refund ? "-" + proceeds : proceeds, date, date, storefront.currency, storefront.alpha2, storefront.currency,
                          "\(6_500_000_000 + product)", refund ? "-" + price : price, " ", "bench-app", type == "IAY" ? "Renewal" : " ",
                          type == "IAY" ? "1 Month" : " ", "Games", " ", "iPhone", "iOS", " ", " ", " ", " "]
            out += fields.joined(separator: "\t")
            out += "\n"
            if i % 10_000 == 9_999 {
                data.append(Data(out.utf8))
                out = ""
            }
        }
        data.append(Data(out.utf8))
        guard FileManager.default.createFile(atPath: path, contents: data) else { fail("cannot write \(path)") }
    }

    /// Runs a program with stdout to /dev/null; its wall time (seconds) and peak memory (KiB).
    static func measure(_ program: String, _ arguments: [String]) -> (seconds: Double, peakKiB: Int) {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let start = Child.now()
        guard posix_spawnp(&pid, program, &actions, nil, argv, environ) == 0 else { fail("cannot run \(program)") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Child.now() - start
        argv.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        return (seconds, usage.ru_maxrss)
    }

    static func best(_ program: String, _ arguments: [String], runs: Int = 3) -> (seconds: Double, peakKiB: Int) {
        (0..<runs).map { _ in measure(program, arguments) }.min { $0.seconds < $1.seconds }!
    }

    static func run(rows: Int, iap: URL) {
        let folder = "Benchmarks/inputs"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let big = "\(folder)/sales-\(rows).txt", small = "\(folder)/sales-10000.txt"
        // Made by a child process: this one stays small, and a spawned child's peak memory
        // (which counts its parent's pages until it execs) stays its own.
        let me = CommandLine.arguments[0]
        _ = measure(me, ["sales-generate", "\(rows)", big])
        _ = measure(me, ["sales-generate", "10000", small])
        let iapBig = best(iap.path, ["report", "--sales", big, "--format", "json"])
        let iapSmall = best(iap.path, ["report", "--sales", small, "--format", "json"])
        let pyBig = best("python3", ["Benchmarks/sales_totals.py", big])
        print("sales report, \(rows) rows (Summary Sales, 60 products, 40 storefronts):")
        print("  totals agree with the Python script's on 10,000 rows: \(agree(iap: iap, file: small) ? "yes" : "NO")")
        print(String(format: "  iap report --sales --format json  %.3f s   peak %.1f MB", iapBig.seconds, Double(iapBig.peakKiB) / 1024))
        print(String(format: "  python3 sales_totals.py           %.3f s   peak %.1f MB", pyBig.seconds, Double(pyBig.peakKiB) / 1024))
        print(String(format: "  speed: iap is %.1f× faster", pyBig.seconds / iapBig.seconds))
        print(String(format: "  memory: iap at %d rows %.1f MB, at 10,000 rows %.1f MB: %.2f×", rows, Double(iapBig.peakKiB) / 1024,
                     Double(iapSmall.peakKiB) / 1024, Double(iapBig.peakKiB) / Double(iapSmall.peakKiB)))
        // The same report gzip-compressed, as App Store Connect sends it.
        if !FileManager.default.fileExists(atPath: big + ".gz") { _ = measure("gzip", ["-kf", big]) }
        let iapGz = best(iap.path, ["report", "--sales", big + ".gz", "--format", "json"])
        let pyGz = best("python3", ["Benchmarks/sales_totals.py", big + ".gz"])
        print(String(format: "  gzip: iap %.3f s, python3 %.3f s: iap is %.1f× faster; iap peak %.1f MB", iapGz.seconds, pyGz.seconds,
                     pyGz.seconds / iapGz.seconds, Double(iapGz.peakKiB) / 1024))
    }

    /// Both peers' totals per product and currency pair, compared exactly.
    static func agree(iap: URL, file: String) -> Bool {
        func output(_ program: String, _ arguments: [String]) -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return Data() }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        guard let json = try? JSONSerialization.jsonObject(with: output(iap.path, ["report", "--sales", file, "--format", "json"])) as? [String: Any],
              let lines = json["byProduct"] as? [[String: Any]] else { return false }
        let ours = Set(lines.map { l in
            ["product", "customerCurrency", "sold", "refunded", "customerTotal", "proceedsCurrency", "proceeds"]
                .map { key in l[key].map { "\($0)" } ?? "" }.joined(separator: "\t")
        })
        let python = String(decoding: output("/usr/bin/env", ["python3", "Benchmarks/sales_totals.py", file]), as: UTF8.self)
        let theirs = Set(python.split(separator: "\n").map { line -> String in
            // Decimal's text keeps trailing zeros (19.80); compare the numbers' shortest form.
            line.split(separator: "\t", omittingEmptySubsequences: false).enumerated().map { i, field in
                (i == 4 || i == 6) ? "\(Decimal(string: String(field)) ?? -1)" : String(field)
            }.joined(separator: "\t")
        })
        return !ours.isEmpty && ours == theirs
    }
}
