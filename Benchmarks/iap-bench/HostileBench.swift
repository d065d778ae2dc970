import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `iap-bench hostile [IAP] [CASE]`: every hostile input of issue 22, written at two sizes (the
/// second 10× the first), each run through the `iap` command it attacks in a child process whose
/// peak memory (`ru_maxrss` from wait4), time and exit status are measured. Targets: peak ≤ 64 MB +
/// 8× the input's size, the 10× input ≤ 12× the time (or under half a second), no signal.
enum HostileBench {
    struct Case: Sendable {
        let name: String
        /// Writes the input of size step `n` into the folder; returns the path iap is given and the
        /// input's size in bytes (what the memory budget scales with; a sparse file's length).
        let make: @Sendable (_ folder: URL, _ n: Int) throws -> (path: String, bytes: Int)
        let command: @Sendable (_ path: String) -> [String]
        let small: Int
        /// Whether the input grows with `n` (else one run: a trap, a fixed sparse file).
        var scaled = true
    }

    struct Measurement {
        var seconds: Double
        var peakKiB: Int
        var status: String
        var signalled: Bool
        var outputBytes: Int
    }

    static func run(iap: URL, only: String?) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-hostile-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        print("| case | input | peak | time | exit | output | peak ≤ 64 MB + 8× input | 10× input ≤ 12× time |")
        print("|---|---|---|---|---|---|---|---|")
        var failures = 0
        for hostile in cases where only == nil || hostile.name.hasPrefix(only!) {
            var runs: [(bytes: Int, m: Measurement)] = []
            for n in hostile.scaled ? [hostile.small, hostile.small * 10] : [hostile.small] {
                let folder = root.appendingPathComponent("\(hostile.name.replacingOccurrences(of: " ", with: "-"))-\(n)")
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let (path, bytes) = try hostile.make(folder, n)
                    runs.append((bytes, measure(iap: iap, arguments: hostile.command(path), in: folder)))
                } catch {
                    print("| \(hostile.name) | could not write the input: \(error) |")
                }
                try? FileManager.default.removeItem(at: folder)
            }
            for (k, run) in runs.enumerated() {
                let budget = 64 * 1024 + 8 * run.bytes / 1024
                let memoryOK = run.m.peakKiB <= budget && !run.m.signalled
                var linear = "–"
                if k == 1 {
                    let ratio = run.m.seconds / max(runs[0].m.seconds, 0.001)
                    let ok = run.m.seconds < 0.5 || ratio <= 12
                    linear = String(format: "%@ (%.1f×)", ok ? "yes" : "**no**", ratio)
                    if !ok { failures += 1 }
                }
                if !memoryOK { failures += 1 }
                print("| \(hostile.name) | \(size(run.bytes)) | \(String(format: "%.0f MB", Double(run.m.peakKiB) / 1024)) | "
                      + "\(String(format: "%.2f s", run.m.seconds)) | \(run.m.status) | \(size(run.m.outputBytes)) | "
                      + "\(memoryOK ? "yes" : "**no**") | \(linear) |")
            }
        }
        print(failures == 0 ? "\nevery case within its budget" : "\n\(failures) measurements outside their budget")
    }

    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30 { return String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return String(format: "%.0f kB", Double(bytes) / 1024) }
        return "\(bytes) B"
    }

    /// Runs iap in `folder` with stdout and stderr to a file, for at most 120 s.
    static func measure(iap: URL, arguments: [String], in folder: URL) -> Measurement {
        let output = folder.appendingPathComponent(".iap-output")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The shell changes folder and replaces itself with iap: wait4 measures iap's own process.
        let quoted = ([iap.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let words: [String] = ["/bin/sh", "-c", "cd '\(folder.path)' && exec \(quoted)"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        guard posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ) == 0 else {
            return Measurement(seconds: 0, peakKiB: 0, status: "not started", signalled: false, outputBytes: 0)
        }
        var status: Int32 = 0
        var usage = rusage()
        var killed = false
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if Date().timeIntervalSince(start) > 120, !killed { kill(pid, SIGKILL); killed = true }
            usleep(2_000)
        }
        let seconds = Date().timeIntervalSince(start)
        let outputBytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        let signal = status & 0x7F
        let text = killed ? "killed after 120 s" : signal != 0 ? "signal \(signal)" : "\((status >> 8) & 0xFF)"
        return Measurement(seconds: seconds, peakKiB: Int(usage.ru_maxrss), status: text, signalled: signal != 0, outputBytes: outputBytes)
    }

    static func write(_ text: String, _ folder: URL, _ name: String) throws -> (path: String, bytes: Int) {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return (name, text.utf8.count)
    }

    static func sparse(_ folder: URL, _ name: String, bytes: Int, head: String) throws -> (path: String, bytes: Int) {
        let url = folder.appendingPathComponent(name)
        try Data(head.utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
        return (name, bytes)
    }

    static func idList(_ ids: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
            + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n"
    }

    /// A binary plist: an array of `refs` references to one 4 kB string (4 kB × refs once expanded).
    static func sharedStringPlist(refs: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        let arrayOffset = bytes.count
        bytes.append(0xAF)                                  // array, count follows
        bytes.append(0x12)                                  // a 4-byte int
        bytes += withUnsafeBytes(of: UInt32(refs).bigEndian, Array.init)
        bytes += [UInt8](repeating: 1, count: refs)         // every element is object 1
        let stringOffset = bytes.count
        bytes += [0x5F, 0x11] + withUnsafeBytes(of: UInt16(4096).bigEndian, Array.init)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        let tableOffset = bytes.count
        bytes += withUnsafeBytes(of: UInt32(arrayOffset).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt32(stringOffset).bigEndian, Array.init)
        bytes += [0, 0, 0, 0, 0, 0, 4, 1]                   // offset size 4, reference size 1
        bytes += withUnsafeBytes(of: UInt64(2).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(bytes)
    }

    static let offerStoreKit = """
        {"products": [], "version": {"major": 4, "minor": 0}, "subscriptionGroups": [{"id": "G", "name": "Pro", "subscriptions": [\
        {"displayPrice": "4.99", "productID": "com.acme.app.pro.monthly", "recurringSubscriptionPeriod": "P1M", "referenceName": "Pro", \
        "type": "RecurringSubscription", "introductoryOffer": {"displayPrice": "0.99", "numberOfPeriods": 9223372036854775807, \
        "paymentMode": "payUpFront", "subscriptionPeriod": "P2Y"}}]}]}
        """

    static func storeKit(groups: Int) -> String {
        let list = (0..<groups).map { g in
            """
            {"id":"G\(g)","localizations":[],"name":"Group \(g)","subscriptions":[{"adHocOffers":[],"codeOffers":[],\
            "displayPrice":"0.99","familyShareable":false,"groupNumber":1,"internalID":"S\(g)","introductoryOffer":null,\
            "localizations":[{"description":"D","displayName":"N\(g)","locale":"en_US"}],"productID":"com.acme.app.sub\(g)",\
            "recurringSubscriptionPeriod":"P1M","referenceName":"Sub \(g)","subscriptionGroupID":"G\(g)","type":"RecurringSubscription"}]}
            """
        }.joined(separator: ",")
        return "{\"identifier\":\"X\",\"nonRenewingSubscriptions\":[],\"products\":[],\"settings\":{},\"subscriptionGroups\":[\(list)],"
            + "\"version\":{\"major\":3,\"minor\":0}}"
    }

    static var cases: [Case] { [
        Case(name: "bplist sharing one string", make: { folder, n in
            let data = sharedStringPlist(refs: n)
            try data.write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"))
            return ("IAP_ProductIDs.plist", data.count)
        }, command: { ["validate", $0] }, small: 10_000),
        Case(name: "gen --check on a stale file", make: { folder, n in
            let ids = (0..<n).map { "com.acme.app.item\($0)" }
            _ = try write(idList(ids), folder, "IAP_ProductIDs.plist")
            let stale = "enum ProductID {\n" + (0..<n).map { "    static let old\($0) = \"com.acme.app.old\($0)\"\n" }.joined() + "}\n"
            _ = try write(stale, folder, "ProductID.swift")
            return ("IAP_ProductIDs.plist", idList(ids).utf8.count + stale.utf8.count)
        }, command: { ["gen", "--check", "-o", "ProductID.swift", $0] }, small: 1_000),
        Case(name: "Swift nested interpolations", make: { folder, n in
            try write("let s = " + String(repeating: "\"\\(", count: n) + "1" + String(repeating: ")\"", count: n) + "\n", folder, "S.swift")
        }, command: { ["lint", $0] }, small: 800),
        Case(name: "Swift nested generics", make: { folder, n in
            try write("let x: " + String(repeating: "A<", count: n) + "Int" + String(repeating: ">", count: n) + " = 1\n", folder, "S.swift")
        }, command: { ["lint", $0] }, small: 140),
        Case(name: "Swift try × n", make: { folder, n in
            try write("func f() throws { " + String(repeating: "try ", count: n) + "g() }\n", folder, "S.swift")
        }, command: { ["lint", $0] }, small: 1_000),
        Case(name: "Swift .b × n", make: { folder, n in
            try write("let x = a" + String(repeating: ".b", count: n) + "\n", folder, "S.swift")
        }, command: { ["lint", $0] }, small: 6_000),
        Case(name: "Swift brackets behind #/\"\"\"/#", make: { folder, n in
            let line = "let r = #/\"\"\"/#\nlet a = " + String(repeating: "[", count: 28) + "1" + String(repeating: "]", count: 28) + "\n// \"\"\"\n"
            return try write(String(repeating: line, count: n), folder, "S.swift")
        }, command: { ["lint", $0] }, small: 10),
        Case(name: "Objective-C stringWithFormat × n", make: { folder, n in
            let nested = String(repeating: "[NSString stringWithFormat:@\"%@ $%.2f\", ", count: n) + "@\"x\""
                + String(repeating: ", price]", count: n)
            return try write("#import <StoreKit/StoreKit.h>\nNSString *s = \(nested);\n", folder, "S.m")
        }, command: { ["lint", $0] }, small: 4_000),
        Case(name: "Objective-C price conversions × n", make: { folder, n in
            let body = (0..<n).map { "    double m\($0) = product.price.doubleValue;\n" }.joined()
            return try write("#import <StoreKit/StoreKit.h>\n@implementation A\n- (void)f:(SKProduct *)product {\n\(body)}\n@end\n", folder, "C.m")
        }, command: { ["lint", $0] }, small: 4_000),
        Case(name: "Swift price literals × n", make: { folder, n in
            let body = (0..<n).map { "    let p\($0) = \"$0.99\"\n" }.joined()
            return try write("import StoreKit\nfunc f() {\n\(body)}\n", folder, "P.swift")
        }, command: { ["lint", $0] }, small: 6_000),
        Case(name: ".storekit with n subscription groups", make: { folder, n in
            try write(storeKit(groups: n), folder, "Products.storekit")
        }, command: { ["validate", $0] }, small: 200),
        Case(name: "gzip of n MB of newlines", make: { folder, n in
            let url = folder.appendingPathComponent("S_D_80012345_20261102.txt.gz")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "head -c \(n << 20) /dev/zero | tr '\\000' '\\n' | gzip -1 > '\(url.path)'"]
            try shell.run()
            shell.waitUntilExit()
            let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            return (url.lastPathComponent, bytes)
        }, command: { ["report", "--sales", $0] }, small: 100),
        Case(name: "sparse .storekit of n × 200 MB", make: { folder, n in
            try sparse(folder, "Products.storekit", bytes: n * 200 << 20, head: "{\"products\":[")
        }, command: { ["validate", $0] }, small: 1),
        Case(name: "bplist sharing one string as Settings.plist, walked", make: { folder, n in
            try sharedStringPlist(refs: n).write(to: folder.appendingPathComponent("Settings.plist"))
            _ = try write(idList(["com.acme.app.coins"]), folder, "IAP_ProductIDs.plist")
            return (".", sharedStringPlist(refs: n).count)
        }, command: { ["validate", $0, "--bundle-id", "com.acme.app"] }, small: 10_000),
        Case(name: "sparse Info.plist of 1.1 GiB, walked", make: { folder, _ in
            _ = try write(idList(["com.acme.app.coins"]), folder, "IAP_ProductIDs.plist")
            _ = try sparse(folder, "Info.plist", bytes: 1_100 << 20, head: "<?xml")
            return (".", 1_100 << 20)
        }, command: { ["validate", $0, "--bundle-id", "com.acme.app"] }, small: 1, scaled: false),
        Case(name: "sales units past an Int", make: { folder, _ in
            let header = "SKU\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tCustomer Price\n"
            let row = "com.a.coins\tIA1\t999999999999999999\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99\n"
            return try write(header + String(repeating: row, count: 10), folder, "S_D_80012345_20261102.txt")
        }, command: { ["report", "--sales", $0] }, small: 1, scaled: false),
        Case(name: "baseline counts past an Int", make: { folder, _ in
            _ = try write(idList(["com.acme.app.coins"]), folder, "IAP_ProductIDs.plist")
            let entry = #"{"rule": "undeclared-kind", "path": "x", "subject": "SUBJECT", "count": 9223372036854775807}"#
            return try write(#"{"version": 1, "findings": ["# + entry.replacingOccurrences(of: "SUBJECT", with: "s") + ", "
                             + entry.replacingOccurrences(of: "SUBJECT", with: "t") + "]}", folder, "baseline.json")
        }, command: { ["validate", "IAP_ProductIDs.plist", "--baseline", $0, "--bundle-id", "com.acme.app"] }, small: 1, scaled: false),
        Case(name: "an offer of 9223372036854775807 × P2Y: price --catalog", make: { folder, _ in
            try write(offerStoreKit, folder, "Offers.storekit")
        }, command: { ["price", "--catalog", $0] }, small: 1, scaled: false),
        Case(name: "the same: report", make: { folder, _ in
            try write(offerStoreKit, folder, "Offers.storekit")
        }, command: { ["report", $0, "--storefronts", "USA"] }, small: 1, scaled: false),
        Case(name: "a binary-plist date of 1e300: plist print", make: { folder, _ in
            var bytes = Array("bplist00".utf8) + [0x33] + withUnsafeBytes(of: (1e300 as Double).bitPattern.bigEndian, Array.init) + [8]
            bytes += [0, 0, 0, 0, 0, 0, 1, 1] + withUnsafeBytes(of: UInt64(1).bigEndian, Array.init)
                + withUnsafeBytes(of: UInt64(0).bigEndian, Array.init) + withUnsafeBytes(of: UInt64(17).bigEndian, Array.init)
            try Data(bytes).write(to: folder.appendingPathComponent("date.plist"))
            return ("date.plist", bytes.count)
        }, command: { ["plist", "print", $0] }, small: 1, scaled: false),
        Case(name: "a product ID of n MB", make: { folder, n in
            try write(idList(["com.acme.app." + String(repeating: "a", count: n << 20)]), folder, "IAP_ProductIDs.plist")
        }, command: { ["validate", $0] }, small: 3),
    ] }
}
