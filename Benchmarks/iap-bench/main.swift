// iap-bench: read + validate speed and memory against peers measured in the same run.
//
//   swift build -c release && .build/release/iap-bench all          (about 3 minutes)
//   .build/release/iap-bench bplist 1000000                        (binary plists against Foundation)
//   .build/release/iap-bench storekit 10000                         (iap storekit against a Python script)
//   .build/release/iap-bench all --full                             (adds the 1M-dict file, ~800 MB)
//   .build/release/iap-bench read 5 Benchmarks/inputs/ids-1M.plist   (the reader's two paths against bare libxml2 and PLS, alternating)
//   .build/release/iap-bench validate                               (iap validate end to end against PLS and Python)
//   .build/release/iap-bench hostile [IAP] [CASE]                   (hostile inputs: peak memory, time, exit status)
//
// Every measurement runs in a child process that times itself (best of N) and reports its
// own peak memory (VmHWM), so one measurement's heap never inflates another's.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "child":
    guard arguments.count == 4, let repeats = Int(arguments[3]) else { fail("usage: iap-bench child MODE FILE REPEATS") }
    print(Child.run(mode: arguments[1], path: arguments[2], repeats: repeats))
case "validate":
    EndToEndBench.run(folder: "Benchmarks/inputs", bin: Suite(full: false).binDirectory)
case "stages":
    guard arguments.count == 2 else { fail("usage: iap-bench stages FILE") }
    let t = EndToEndBench.stages(arguments[1])
    print(String(format: "%.6f %.6f %.6f", t.read, t.load, t.rules))
case "read":
    // iap-bench read [ROUNDS] FILE…: the bare libxml2 pass, our reader (strings kept, and the
    // whole tree) and PropertyListSerialization, alternating round after round.
    let rounds = arguments.count > 1 ? Int(arguments[1]) : nil
    let files = Array(arguments.dropFirst(rounds == nil ? 1 : 2))
    guard !files.isEmpty else { fail("usage: iap-bench read [ROUNDS] FILE…") }
    ReadBench.run(files: files, rounds: rounds ?? 5, suite: Suite(full: false))
case "lint":
    LintBench.run(folder: arguments.count > 1 ? arguments[1] : ".build/checkouts/swift-syntax/Sources")
case "prices":
    PriceBench.run(count: arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000)
case "reports":
    ReportBench.run(count: arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000)
    ReportBench.checkAgainstParts(iap: Suite(full: false).binDirectory.appendingPathComponent("iap"))
case "bplist":
    BinaryPlistBench.run(count: arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000)
case "sales":
    SalesBench.run(rows: arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000,
                   iap: Suite(full: false).binDirectory.appendingPathComponent("iap"))
case "storekit":
    StoreKitBench.run(count: arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000,
                      iap: Suite(full: false).binDirectory.appendingPathComponent("iap"))
case "sales-generate":
    guard arguments.count == 3, let rows = Int(arguments[1]) else { fail("usage: iap-bench sales-generate ROWS FILE") }
    SalesBench.generate(rows: rows, to: arguments[2])
case "generate":
    let folder = arguments.count > 1 ? arguments[1] : "Benchmarks/inputs"
    Generator(folder: folder, full: arguments.contains("--full")).generateAll()
case "hostile":
    // iap-bench hostile [IAP] [CASE]: the hostile inputs of docs/robustness.md, with the release iap by default.
    let iap = arguments.count > 1 && arguments[1].contains("/") ? URL(fileURLWithPath: arguments[1])
        : Suite(full: false).binDirectory.appendingPathComponent("iap")
    let only = arguments.count > 1 && !arguments[1].contains("/") ? arguments[1] : arguments.count > 2 ? arguments[2] : nil
    HostileBench.run(iap: iap, only: only)
case "startup":
    // iap-bench startup [OTHER-IAP…]: this build's iap (and others, e.g. an older build) against hello-foundation.
    Suite(full: false).startup(others: Array(arguments.dropFirst()))
case "all", nil:
    Suite(full: arguments.contains("--full")).run()
default:
    fail("usage: iap-bench [all [--full] | validate | read [ROUNDS] FILE… | startup [OTHER-IAP…] | stages FILE | reports [N] | bplist [N] | sales [N] | storekit [N] | lint [DIR] | hostile [IAP] [CASE] | prices [N] | generate DIR [--full] | child MODE FILE REPEATS]")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(64)
}
