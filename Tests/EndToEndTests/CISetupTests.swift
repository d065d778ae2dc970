import Crypto
import Foundation
import TestSupport
import XCTest
import Yams

/// The CI set-ups of docs/ci.md and the GitHub Action they use (`action.yml`, which runs
/// `scripts/install-iap.sh`), run here as far as they can run offline: a release tarball packed by
/// `scripts/release.sh --pack-only` from the built `iap`, and a `curl` first on PATH that answers
/// the release and raw-file URLs from that tarball and this checkout, and refuses every other
/// (so nothing reaches the network, and a URL the set-ups would fetch is checked). What cannot run
/// here is named: `actions/checkout`, `actions/cache` and `upload-sarif` (GitHub's own), and
/// GitLab's `apt-get` line (the network).
final class CISetupTests: XCTestCase {
    static let triple = "x86_64-unknown-linux-gnu"
    static let version = "0.3.0"
    var folder: URL!

    override func setUpWithError() throws {
        #if os(Linux) && arch(x86_64)
        #else
        throw Prerequisite.skip("the release binary is Linux x86_64's; elsewhere the action builds from source (GitHub's macOS job)")
        #endif
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    // MARK: The release tarball and the network

    /// The built `iap` packed as a release packs it; the tarball's sha256 as its `.sha256` gives it.
    func pack() throws -> (dist: URL, name: String, sha256: String) {
        let dist = folder.appendingPathComponent("dist")
        let result = try IAPRunner.runProgram("/usr/bin/env", ["bash", "scripts/release.sh", "--pack-only", IAPRunner.binary.path,
                                                               Self.version, Self.triple, dist.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let name = "iap-\(Self.version)-\(Self.triple).tar.gz"
        let tarball = try Data(contentsOf: dist.appendingPathComponent(name))
        let digest = SHA256.hash(data: tarball).map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(try String(contentsOf: dist.appendingPathComponent(name + ".sha256"), encoding: .utf8), "\(digest)  \(name)\n")
        XCTAssertEqual(result.stdout, "release: \(dist.path)/\(name) (sha256 \(digest))\n")
        return (dist, name, digest)
    }

    /// A folder holding a `curl` that serves GitHub's release downloads from `dist` and
    /// raw.githubusercontent.com's files from this checkout, logs every URL, and fails as curl does
    /// (exit 6) for any other host.
    func fakeNetwork(dist: URL) throws -> (bin: URL, log: URL) {
        let bin = folder.appendingPathComponent("fake-bin"), log = folder.appendingPathComponent("curl.log")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let curl = bin.appendingPathComponent("curl")
        try """
            #!/bin/bash
            out="" url=""
            while [ $# -gt 0 ]; do
                case "$1" in
                    -o) out="$2"; shift 2 ;;
                    --retry) shift 2 ;;
                    -*) shift ;;
                    *) url="$1"; shift ;;
                esac
            done
            echo "$url" >> '\(log.path)'
            case "$url" in
                https://github.com/iapcatalog/iap/releases/download/v\(Self.version)/*) file='\(dist.path)'/"${url##*/}" ;;
                https://raw.githubusercontent.com/iapcatalog/iap/v\(Self.version)/*) file='\(IAPRunner.packageRoot.path)'/"${url#https://raw.githubusercontent.com/iapcatalog/iap/v\(Self.version)/}" ;;
                *) echo "curl: (6) Could not resolve host (the test's curl reaches no network)" >&2; exit 6 ;;
            esac
            [ -f "$file" ] || { echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }
            if [ -n "$out" ]; then cp "$file" "$out"; else cat "$file"; fi

            """.write(to: curl, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: curl.path)
        return (bin, log)
    }

    func fetched(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static var releaseURL: String {
        "https://github.com/iapcatalog/iap/releases/download/v\(version)/iap-\(version)-\(triple).tar.gz"
    }

    // MARK: Running the action as GitHub does

    struct ActionRun {
        var status: Int32
        var stderr: String
        var outputs: [String: [String: String]]
        /// Lines the steps appended to GITHUB_PATH.
        var path: [String]
        /// `uses:` steps that would run (their condition held), with their `with:` evaluated.
        var used: [(uses: String, with: [String: String])]
    }

    static func load(_ yaml: String) throws -> [String: Any] {
        try XCTUnwrap(try Yams.load(yaml: yaml) as? [String: Any])
    }

    /// `${{ … }}` in a value, evaluated from the contexts the action uses; anything else fails the test.
    static func evaluate(_ text: String, inputs: [String: String], steps: [String: [String: String]], temp: URL) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            result += rest[..<open.lowerBound]
            let close = try XCTUnwrap(rest[open.upperBound...].range(of: "}}"), "unclosed expression in \(text)")
            let expression = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let parts = expression.split(separator: ".").map(String.init)
            switch (parts.first, parts.count) {
            case ("inputs", 2): result += try XCTUnwrap(inputs[parts[1]], "no input \(parts[1])")
            case ("github", 2) where parts[1] == "action_path": result += IAPRunner.packageRoot.path
            case ("runner", 2) where parts[1] == "temp": result += temp.path
            case ("steps", 4) where parts[2] == "outputs": result += steps[parts[1]]?[parts[3]] ?? ""
            default: XCTFail("an expression the test does not know: \(expression)")
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// A step's `if:`: only `steps.ID.outputs.NAME == 'VALUE'` is used (and known) here.
    static func holds(_ condition: String?, steps: [String: [String: String]]) throws -> Bool {
        guard let condition else { return true }
        let match = try XCTUnwrap(condition.wholeMatch(of: /steps\.([\w-]+)\.outputs\.([\w-]+) == '([^']*)'/), "unknown condition \(condition)")
        return steps[String(match.1)]?[String(match.2)] == String(match.3)
    }

    /// Runs action.yml's steps with `inputs` as a GitHub runner would: each `run:` in bash with
    /// `-eo pipefail`, GITHUB_OUTPUT and GITHUB_PATH files, and the step's `env:`; `uses:` steps
    /// are recorded, not run. Stops at the first step that fails.
    func runAction(_ given: [String: String], network: URL, temp: URL) throws -> ActionRun {
        let action = try Self.load(try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8))
        let declared = try XCTUnwrap(action["inputs"] as? [String: [String: Any]])
        var inputs: [String: String] = [:]
        for (name, spec) in declared {
            if let value = given[name] { inputs[name] = value; continue }
            XCTAssertNotEqual(spec["required"] as? Bool, true, "required input \(name) not given")
            inputs[name] = spec["default"].map { "\($0)" } ?? ""
        }
        XCTAssertEqual(Set(given.keys).subtracting(declared.keys), [], "inputs the action does not declare")
        let runs = try XCTUnwrap(action["runs"] as? [String: Any])
        XCTAssertEqual(runs["using"] as? String, "composite")
        var run = ActionRun(status: 0, stderr: "", outputs: [:], path: [], used: [])
        for case let step as [String: Any] in try XCTUnwrap(runs["steps"] as? [Any]) {
            guard try Self.holds(step["if"] as? String, steps: run.outputs) else { continue }
            if let uses = step["uses"] as? String {
                var with: [String: String] = [:]
                for (key, value) in step["with"] as? [String: Any] ?? [:] {
                    with[key] = try Self.evaluate("\(value)", inputs: inputs, steps: run.outputs, temp: temp)
                }
                run.used.append((uses, with))
                continue
            }
            let script = try XCTUnwrap(step["run"] as? String)
            XCTAssertEqual(step["shell"] as? String, "bash")
            // Inputs reach the script through env:, never pasted into its text (no injection).
            XCTAssertFalse(script.contains("${{"), script)
            let output = folder.appendingPathComponent("output-\(UUID().uuidString)"), path = folder.appendingPathComponent("path-\(UUID().uuidString)")
            try Data().write(to: output)
            try Data().write(to: path)
            var env = ["GITHUB_OUTPUT": output.path, "GITHUB_PATH": path.path,
                       "PATH": network.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
            for (key, value) in step["env"] as? [String: Any] ?? [:] {
                env[key] = try Self.evaluate("\(value)", inputs: inputs, steps: run.outputs, temp: temp)
            }
            let result = try IAPRunner.runProgram("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                                  in: folder, environment: env)
            run.stderr += result.stderr
            if let id = step["id"] as? String {
                for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
                    let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
                    run.outputs[id, default: [:]][pair[0]] = pair.count > 1 ? pair[1] : ""
                }
            }
            run.path += try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map(String.init)
            guard result.status == 0 else {
                run.status = result.status
                return run
            }
        }
        return run
    }

    // MARK: The action

    func testTheActionInstallsTheBinaryItsChecksumNamesAndOnlyThat() throws {
        let (dist, _, sha256) = try pack()
        let (network, log) = try fakeNetwork(dist: dist)
        let temp = folder.appendingPathComponent("runner-temp")
        let installed = temp.appendingPathComponent("iap/\(Self.version)/bin")

        let run = try runAction(["version": Self.version, "sha256": sha256], network: network, temp: temp)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.outputs["plan"], ["mode": "binary", "os": "Linux-x86_64"])
        XCTAssertEqual(run.outputs["install"], ["path": installed.path])
        XCTAssertEqual(run.path, [installed.path])
        XCTAssertEqual(run.used.map(\.uses), [], "the cache is for source builds only")
        XCTAssertEqual(fetched(log), [Self.releaseURL])
        let version = try IAPRunner.runProgram(installed.appendingPathComponent("iap").path, ["--version"])
        XCTAssertEqual(version.stdout, "\(Self.version)\n")
        // Again, with the same checksum: already there, nothing downloaded.
        let again = try runAction(["version": Self.version, "sha256": sha256.uppercased()], network: network, temp: temp)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.path, [installed.path])
        XCTAssertEqual(fetched(log), [Self.releaseURL])
    }

    func testAWrongOrMissingChecksumFailsAndInstallsNothing() throws {
        let (dist, name, sha256) = try pack()
        let (network, log) = try fakeNetwork(dist: dist)
        let temp = folder.appendingPathComponent("runner-temp")
        let wrong = String(sha256.dropLast()) + (sha256.hasSuffix("0") ? "1" : "0")
        let cases: [(String?, String)] = [
            (wrong, "install-iap: error: \(name) has sha256 \(sha256), not the \(wrong) given; nothing is installed "
                + "(check IAP_SHA256 against the release's \(name).sha256)\n"),
            (nil, "install-iap: error: IAP_SHA256 is not set: give the sha256 of \(name) (the release's .sha256 file); nothing is installed unchecked\n"),
            ("64-hex-digits", "install-iap: error: IAP_SHA256 is not a sha256 (64 hexadecimal digits)\n"),
            (String(sha256.dropLast()), "install-iap: error: IAP_SHA256 is not a sha256 (64 hexadecimal digits)\n"),
        ]
        for (given, message) in cases {
            var inputs = ["version": Self.version]
            inputs["sha256"] = given
            let run = try runAction(inputs, network: network, temp: temp)
            XCTAssertEqual(run.status, 1, "\(given ?? "none")")
            XCTAssertTrue(run.stderr.hasSuffix(message), run.stderr)
            XCTAssertEqual(run.path, [])
            XCTAssertEqual(run.outputs["install"], nil)
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("iap/\(Self.version)").path))
        }
        XCTAssertEqual(fetched(log), [Self.releaseURL], "only the wrong checksum got as far as the download")

        // A tarball changed after its checksum was published: refused the same way.
        let tarball = dist.appendingPathComponent(name)
        var bytes = try Data(contentsOf: tarball)
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: tarball)
        let tampered = try runAction(["version": Self.version, "sha256": sha256], network: network, temp: temp)
        XCTAssertEqual(tampered.status, 1)
        XCTAssertTrue(tampered.stderr.contains("has sha256 "), tampered.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("iap/\(Self.version)").path))
    }

    /// `from-source: true` (or a runner with no published binary) restores the build cache and
    /// builds the release's tag: here a repository tagged v0.3.0 whose package is a stand-in `iap`.
    func testFromSourceRestoresTheCacheAndBuildsTheTag() throws {
        let repo = folder.appendingPathComponent("source")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("Sources/iap"), withIntermediateDirectories: true)
        try """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "iap", targets: [.executableTarget(name: "iap")])

            """.write(to: repo.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "print(\"\(Self.version) built from source\")\n".write(to: repo.appendingPathComponent("Sources/iap/main.swift"), atomically: true, encoding: .utf8)
        let git = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]
        for arguments in [["init", "-q"], ["add", "."], ["commit", "-q", "-m", "release"], ["tag", "v\(Self.version)"]] {
            let result = try IAPRunner.runProgram("/usr/bin/env", ["git"] + git + arguments, in: repo)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let (network, log) = try fakeNetwork(dist: folder)
        let temp = folder.appendingPathComponent("runner-temp")
        let run = try runAction(["version": Self.version, "from-source": "true", "source-url": repo.path], network: network, temp: temp)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.outputs["plan"], ["mode": "source", "os": "Linux-x86_64"])
        XCTAssertEqual(run.used.map(\.uses), ["actions/cache@v4"])
        XCTAssertEqual(run.used.first?.with, ["path": temp.path + "/iap/src/.build", "key": "iap-\(Self.version)-Linux-x86_64"])
        let bin = try XCTUnwrap(run.outputs["install"]?["path"])
        XCTAssertTrue(bin.hasPrefix(temp.path + "/iap/src/.build/"), bin)
        XCTAssertEqual(run.path, [bin])
        XCTAssertEqual(try IAPRunner.runProgram(bin + "/iap", []).stdout, "\(Self.version) built from source\n")
        XCTAssertEqual(fetched(log), [], "a source build downloads no binary")
    }

    // MARK: docs/ci.md

    /// The ```yaml block of docs/ci.md whose first line is `# <name>`.
    static func docsBlock(_ name: String) throws -> String {
        let text = try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "```yaml\n# \(name)\n"), "no block for \(name) in docs/ci.md")
        let end = try XCTUnwrap(text[start.upperBound...].range(of: "\n```\n"))
        return String(text[start.lowerBound..<end.lowerBound].dropFirst("```yaml\n".count))
    }

    /// Examples/ShopApp as a repository's checkout: its iap.yml checks catalogs, generated files and sources.
    func checkout() throws -> URL {
        let repo = folder.appendingPathComponent("checkout")
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("Examples/ShopApp"), to: repo)
        return repo
    }

    func testTheGitHubWorkflowInstallsWithTheActionAndWritesTheSARIFItUploads() throws {
        let workflow = try Self.load(try Self.docsBlock(".github/workflows/iap.yml"))
        XCTAssertEqual(workflow["permissions"] as? [String: String], ["contents": "read", "actions": "read", "security-events": "write"])
        let jobs = try XCTUnwrap(workflow["jobs"] as? [String: [String: Any]])
        let steps = try XCTUnwrap(jobs["iap"]?["steps"] as? [[String: Any]])
        let (dist, _, sha256) = try pack()
        let (network, _) = try fakeNetwork(dist: dist)
        let repo = try checkout()
        var notRun: [String] = []
        var path: [String] = []
        for step in steps {
            if let uses = step["uses"] as? String, uses.hasPrefix("iapcatalog/iap@") {
                let with = try XCTUnwrap(step["with"] as? [String: Any]).mapValues { "\($0)" }
                XCTAssertEqual(uses, "iapcatalog/iap@v\(try XCTUnwrap(with["version"]))", "the action's tag is the version it installs")
                XCTAssertEqual(with["version"], Self.version)
                // As printed, the checksum is a placeholder for the release's: refused, nothing installed.
                let placeholder = try runAction(with, network: network, temp: folder.appendingPathComponent("temp-placeholder"))
                XCTAssertEqual(placeholder.status, 1)
                XCTAssertTrue(placeholder.stderr.contains("IAP_SHA256 is not a sha256"), placeholder.stderr)
                var pinned = with
                pinned["sha256"] = sha256
                let run = try runAction(pinned, network: network, temp: folder.appendingPathComponent("temp"))
                XCTAssertEqual(run.status, 0, run.stderr)
                path += run.path
            } else if let uses = step["uses"] as? String {
                notRun.append(uses)
            } else {
                let script = try XCTUnwrap(step["run"] as? String)
                let summary = folder.appendingPathComponent("summary.md")
                let result = try IAPRunner.runProgram("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: repo, environment: [
                    "PATH": (path + [network.path, ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":"),
                    "GITHUB_STEP_SUMMARY": summary.path,
                ])
                XCTAssertEqual(result.status, 0, result.stderr)
                XCTAssertTrue(result.stdout.hasPrefix("::warning file=App/StoreView.swift,line=7,col=20"), result.stdout)
                XCTAssertTrue(try String(contentsOf: summary, encoding: .utf8).contains("StoreView.swift"))
            }
        }
        XCTAssertEqual(notRun, ["actions/checkout@v4", "github/codeql-action/upload-sarif@v3"])
        let upload = try XCTUnwrap(steps.last)
        XCTAssertEqual((upload["with"] as? [String: Any])?["sarif_file"] as? String, "iap.sarif")
        XCTAssertEqual(upload["if"] as? String, "${{ !cancelled() && hashFiles('iap.sarif') != '' }}")
        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: repo.appendingPathComponent("iap.sarif"))) as? [String: Any])
        XCTAssertEqual(sarif["version"] as? String, "2.1.0")
        XCTAssertEqual(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [Any])?.count, 1)
    }

    func testTheGitLabJobInstallsWithTheScriptAndWritesTheReportsItKeeps() throws {
        let pipeline = try Self.load(try Self.docsBlock(".gitlab-ci.yml"))
        let job = try XCTUnwrap(pipeline["iap"] as? [String: Any])
        let repo = try checkout()
        var variables = try XCTUnwrap(job["variables"] as? [String: String])
        variables = variables.mapValues { $0.replacingOccurrences(of: "$CI_PROJECT_DIR", with: repo.path) }
        XCTAssertEqual(variables["IAP_VERSION"], Self.version)
        XCTAssertEqual(variables["IAP_HOME"], repo.path + "/.iap")
        let cache = try XCTUnwrap(job["cache"] as? [String: Any])
        XCTAssertEqual(cache["key"] as? String, "iap-$IAP_VERSION")
        XCTAssertEqual(cache["paths"] as? [String], [".iap/"], "the cache keeps IAP_HOME")
        let lines = try XCTUnwrap(job["before_script"] as? [String]) + XCTUnwrap(job["script"] as? [String])
        // The one line that needs the network.
        XCTAssertEqual(lines.filter { $0.hasPrefix("apt-get ") }, ["apt-get update -q && apt-get install -y -q curl ca-certificates libxml2"])
        let script = lines.filter { !$0.hasPrefix("apt-get ") }.joined(separator: "\n")
        let (dist, _, sha256) = try pack()
        let (network, log) = try fakeNetwork(dist: dist)
        func run(_ variables: [String: String]) throws -> IAPRunner.Result {
            var env = variables
            env["CI_PROJECT_DIR"] = repo.path
            env["PATH"] = network.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try IAPRunner.runProgram("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: repo, environment: env)
        }
        // As printed, the checksum is a placeholder: the job fails before iap check.
        let placeholder = try run(variables)
        XCTAssertEqual(placeholder.status, 1)
        XCTAssertTrue(placeholder.stderr.hasSuffix("install-iap: error: IAP_SHA256 is not a sha256 (64 hexadecimal digits)\n"), placeholder.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent("gl-code-quality-report.json").path))

        variables["IAP_SHA256"] = sha256
        let pinned = try run(variables)
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        let raw = "https://raw.githubusercontent.com/iapcatalog/iap/v\(Self.version)/scripts/install-iap.sh"
        XCTAssertEqual(fetched(log), [raw, raw, Self.releaseURL])
        let reports = try XCTUnwrap((job["artifacts"] as? [String: Any])?["reports"] as? [String: String])
        XCTAssertEqual(reports, ["codequality": "gl-code-quality-report.json", "junit": "iap-junit.xml"])
        let quality = try JSONSerialization.jsonObject(with: Data(contentsOf: repo.appendingPathComponent("gl-code-quality-report.json"))) as? [Any]
        XCTAssertEqual(quality?.count, 1)
        XCTAssertTrue(try String(contentsOf: repo.appendingPathComponent("iap-junit.xml"), encoding: .utf8).hasPrefix("<?xml"))
        // The cache keeps .iap/: the next pipeline finds the binary there and downloads only the script.
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: repo.appendingPathComponent(".iap/\(Self.version)/bin/iap").path))
        XCTAssertEqual(try run(variables).status, 0)
        XCTAssertEqual(fetched(log), [raw, raw, Self.releaseURL, raw])
    }
}
