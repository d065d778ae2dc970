import Diagnostics
import Foundation

/// Issue 9's targets: rendering 100,000 findings in every report format, each against writing the
/// same findings as plain text in the same run (target: within 3×); and `iap check` against
/// `validate`, `lint` and `gen --check` run separately on the same input (target: within 1.2×).
enum ReportBench {
    /// Findings shaped like real ones: several rules and severities, paths in folders, quotes,
    /// related locations on some, fixes on others.
    static func findings(_ count: Int) -> [Diagnostic] {
        let rules = ["duplicate-id", "hardcoded-price", "similar-ids", "undeclared-kind", "missing-bundle-prefix", "hardcoded-title"]
        let severities: [Severity] = [.error, .warning, .warning, .info, .warning, .warning]
        return (0..<count).map { n in
            let r = n % rules.count
            let path = "App/Feature\(n % 500)/View\(n % 37).swift"
            var d = Diagnostic(ruleID: rules[r], severity: severities[r],
                               message: "the literal shows a price ('$\(n % 100).99'); show the product's displayPrice so every storefront sees its own",
                               location: SourceLocation(path: path, line: n % 900 + 1, column: n % 80 + 1))
            if n % 3 == 0 { d.related = [RelatedLocation(SourceLocation(path: path, line: n % 700 + 1, column: 2), "also listed here")] }
            if n % 4 == 0 { d.fix = SuggestedFix("use 'com.acme.app.item\(n)' for new products", replacement: "com.acme.app.item\(n)") }
            return d
        }
    }

    static func run(count: Int) {
        let found = findings(count)
        let rules = ["duplicate-id", "hardcoded-price", "similar-ids", "undeclared-kind", "missing-bundle-prefix", "hardcoded-title"].map {
            RuleDescription(id: $0, name: $0, severity: .warning, rationale: "Why \($0) matters.", triggering: [], nonTriggering: [])
        }
        let tool = ToolInfo(name: "iap", version: "bench", informationURI: "https://example.com")
        var result: RunResult!
        let prepare = Child.bestOfThree {
            result = RunResult(command: "check", findings: found, rules: rules, files: [], tool: tool)
        }
        var sink = 0
        let fingerprints = Child.bestOfThree {
            sink &+= RunResult(command: "check", findings: found, rules: rules, files: [], tool: tool).fingerprints.count
        } - prepare
        _ = result.fingerprints
        var sizes: [String: Int] = [:]
        var times: [String: Double] = [:]
        for reporter in Reporters.all {
            let instance = reporter.init()
            times[reporter.identifier] = Child.bestOfThree {
                let text = instance.report(result, options: ReportOptions())
                sizes[reporter.identifier] = text.utf8.count
            }
        }
        let text = times["text"]!
        print("\n## Rendering \(count) findings in every format (best of 3, same run)\n")
        print("Once per run, shared by every format: sorting the findings \(String(format: "%.0f ms", prepare * 1000)); their fingerprints \(String(format: "%.0f ms", fingerprints * 1000)), computed only when a format or a baseline needs them (json, sarif, gitlab). Each format's time below is its rendering alone.\n")
        if sink == 42 { print("") }
        print("| format | time | ÷ text | output |")
        print("|---|---|---|---|")
        for reporter in Reporters.all {
            let t = times[reporter.identifier]!
            print(String(format: "| %@ | %.0f ms | %.2f× | %.1f MB |", reporter.identifier, t * 1000, t / text,
                         Double(sizes[reporter.identifier]!) / 1_048_576))
        }
    }

    /// `iap check` against the three commands it combines, each a process, median of 11.
    static func checkAgainstParts(iap: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-bench-check-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cwd = FileManager.default.currentDirectoryPath
        let generated = folder.appendingPathComponent("ProductID.swift").path
        _ = runProcess(iap, ["gen", "catalogs/FakeGame", "--output", generated])
        let config = folder.appendingPathComponent("iap.yml").path
        try? """
        catalogs: [\(cwd)/catalogs]
        lint:
          paths: [\(cwd)/Examples/LintDemo]
          catalog: \(cwd)/catalogs/FakeGame
        generate:
          - output: \(generated)
            catalog: \(cwd)/catalogs/FakeGame

        """.write(toFile: config, atomically: true, encoding: .utf8)
        func median(_ runs: [[String]]) -> Double {
            var times: [Double] = []
            for _ in 0..<11 {
                let start = Child.now()
                for arguments in runs { _ = runProcess(iap, arguments) }
                times.append(Child.now() - start)
            }
            return times.sorted()[times.count / 2]
        }
        let parts = median([["validate", "catalogs"], ["lint", "Examples/LintDemo", "--catalog", "catalogs/FakeGame"],
                            ["gen", "catalogs/FakeGame", "--output", generated, "--check"]])
        let check = median([["check", "--config", config]])
        print("\n## `iap check` against validate + lint + gen --check run separately (median of 11, same run)\n")
        print("| validate catalogs + lint Examples/LintDemo + gen --check | iap check (the same, one iap.yml) | ratio |")
        print("|---|---|---|")
        print(String(format: "| %.0f ms | %.0f ms | %.2f× |", parts * 1000, check * 1000, check / parts))
    }

    @discardableResult
    static func runProcess(_ executable: URL, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
