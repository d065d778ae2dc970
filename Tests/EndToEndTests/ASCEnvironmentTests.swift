import Crypto
import Foundation
import TestSupport
import XCTest

/// No value of the environment is output: not in a message, a report or a file, whatever
/// `iap.yml` names and whatever the variables hold. `iap.yml` may name only `IAP_ASC_…`
/// variables for the key; an error about the key, its IDs or `IAP_ASC_URL` names the variable.
/// Every variable here holds a marker, and no run may print or write one.
final class ASCEnvironmentTests: XCTestCase {
    var base: URL!
    var repo: URL { base.appendingPathComponent("repo") }
    /// The folder of the key file: its path is a value of the environment too.
    var keyFolder: URL { base.appendingPathComponent("MARKERPATH-folder") }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-environment-\(UUID().uuidString)")
        for folder in ["repo/.git", "repo/Store", "MARKERPATH-folder"] {
            try FileManager.default.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/IAP_ProductIDs.plist"),
                                         to: repo.appendingPathComponent("Store/IAP_ProductIDs.plist"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: base)
    }

    /// The commands that read the key's variables (or `iap.yml`'s names of them).
    let commands = [
        ["asc", "pull"],
        ["asc", "diff", "--app", "com.appcoda.FakeGame"],
        ["check"],
        ["report", "--sales", "sales", "--fetch", "sales", "--vendor", "80012345", "--from", "2026-11-02"],
    ]

    /// Secrets a CI job holds, and iap's own variables, each set to a marker.
    func environment(_ overrides: [String: String] = [:]) -> [String: String] {
        var env = ["GITHUB_TOKEN": "ghp_MARKER0123456789abcdef", "HOME_SECRET": "MARKER-home",
                   "IAP_ASC_ISSUER_ID": "MARKER-issuer", "IAP_ASC_KEY_ID": "MARKER_key!", "IAP_ASC_PRIVATE_KEY": "MARKER-pem",
                   "IAP_ASC_PRIVATE_KEY_PATH": keyFolder.appendingPathComponent("MARKER.p8").path, "IAP_ASC_URL": "notaurl MARKER",
                   "IAP_ASC_KEYFILE": keyFolder.appendingPathComponent("AuthKey_MARKER.p8").path]
        for (name, value) in overrides { env[name] = value }
        return env
    }

    /// Every file under the test's folder, with its content, apart from `.git`.
    func files() throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: base.path) where !path.hasPrefix("repo/.git") {
            var isFolder: ObjCBool = false
            let full = base.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            found[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return found
    }

    /// Runs every command; each must exit with `status` and say `stderr` (when given), and none
    /// may print a marker or write a file.
    func assertEveryCommand(_ environment: [String: String], status: Int32, stderr expected: [String: String] = [:],
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try files()
        for arguments in commands {
            let result = try IAPRunner.runProgram("/usr/bin/timeout", ["60", IAPRunner.binary.path] + arguments, in: repo, environment: environment)
            let name = arguments.prefix(2).joined(separator: " ")
            XCTAssertEqual(result.status, status, "\(name): \(result.stderr)", file: file, line: line)
            if let wanted = expected[arguments[0]] ?? expected[name] {
                XCTAssertEqual(result.stderr, wanted, name, file: file, line: line)
            }
            for text in [result.stdout, result.stderr] {
                XCTAssertFalse(text.contains("MARKER"), "\(name) printed a value of the environment:\n\(text)", file: file, line: line)
            }
        }
        let after = try files()
        XCTAssertEqual(Set(after.keys), Set(before.keys), "a run wrote a file", file: file, line: line)
        for (path, content) in after where !path.hasPrefix("MARKERPATH-folder/") {
            XCTAssertNil(content.range(of: Data("MARKER".utf8)), path, file: file, line: line)
        }
    }

    /// A pull request's `iap.yml` naming a secret (or anything but an `IAP_ASC_` name) is an error
    /// at its line that repeats nothing, for every command that reads the file.
    func testIAPYMLThatNamesAnotherVariableIsAnErrorAtItsLine() throws {
        try """
        catalogs: [Store]
        asc:
          app: com.appcoda.FakeGame
          snapshot: asc.json
          issuer-id-variable: GITHUB_TOKEN
          key-id-variable: HOME_SECRET
          private-key-variable: iap_asc_private_key
          private-key-path-variable: "IAP_ASC_KEY $GITHUB_TOKEN"

        """.write(to: repo.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        let why = "expected the name of an environment variable that starts with IAP_ASC_, then letters, digits or _ (like "
            + "IAP_ASC_PRIVATE_KEY_SHOP); iap.yml names only iap's own variables and never holds the key itself: put the key in a CI "
            + "secret, give it to the job as such a variable, and name it here"
        let stderr = """
            iap: error: iap.yml:5:23: asc.issuer-id-variable: \(why)
            iap.yml:6:20: asc.key-id-variable: \(why)
            iap.yml:7:25: asc.private-key-variable: \(why)
            iap.yml:8:30: asc.private-key-path-variable: \(why)
            iap.yml: 4 errors; fix the file (see docs/ci.md)

            """
        try assertEveryCommand(environment(), status: 2, stderr: ["asc pull": stderr, "asc diff": stderr, "check": stderr, "report": stderr])
    }

    /// An `IAP_ASC_` variable `iap.yml` names for the key file: an error names the variable,
    /// never the path it holds.
    func testAnUnreadableKeyFileIsNamedByItsVariable() throws {
        try "catalogs: [Store]\nasc:\n  app: com.appcoda.FakeGame\n  snapshot: asc.json\n  private-key-path-variable: IAP_ASC_KEYFILE\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        let env = environment(["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34", "IAP_ASC_PRIVATE_KEY": ""])
        let error = "iap: error: cannot read the App Store Connect API key file that IAP_ASC_KEYFILE names: no such file or directory\n"
        let before = try files()
        for arguments in commands where arguments[0] != "check" {
            let result = try IAPRunner.run(arguments, in: repo, environment: env)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr, error, "\(arguments)")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(try files().keys.sorted(), before.keys.sorted())
        // check reads the snapshot, not the key: the missing snapshot is its error, and no marker.
        let check = try IAPRunner.run(["check"], in: repo, environment: env)
        XCTAssertEqual(check.status, 2)
        XCTAssertFalse((check.stdout + check.stderr).contains("MARKER"), check.stderr)
    }

    /// The key file is read, and others may read it: the warning names the variable and its hint
    /// works when pasted; `IAP_ASC_URL` that is not a server is an error naming the variable.
    func testTheWarningAndTheURLErrorNameTheVariables() throws {
        let key = keyFolder.appendingPathComponent("AuthKey_MARKER.p8")
        XCTAssertTrue(FileManager.default.createFile(atPath: key.path, contents: Data(P256.Signing.PrivateKey().pemRepresentation.utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        try "catalogs: [Store]\nasc:\n  app: com.appcoda.FakeGame\n  snapshot: asc.json\n  private-key-path-variable: IAP_ASC_KEYFILE\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        let ids = ["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34", "IAP_ASC_PRIVATE_KEY": ""]
        let warning = "iap: warning: the App Store Connect API key file that IAP_ASC_KEYFILE names can be read by other users (mode 644): "
            + "`chmod 600 \"$IAP_ASC_KEYFILE\"`, or keep the key in a CI secret\n"
        let url = "iap: error: IAP_ASC_URL does not hold an https:// URL (or http:// on 127.0.0.1, a test server): unset it to reach App "
            + "Store Connect (`unset IAP_ASC_URL`), or set it to such a URL\n"
        for value in ["notaurl MARKER", "http://MARKERHOST.example:8080/v1", "file:///MARKER", "https://", "MARKER:"] {
            let env = environment(ids.merging(["IAP_ASC_URL": value]) { $1 })
            try assertEveryCommand(env, status: 2, stderr: ["asc pull": warning + url, "asc diff": warning + url, "report": warning + url])
        }
    }

    /// IDs not of the shapes App Store Connect gives are refused naming the variable and the
    /// shape: a variable holding anything else never goes into a token.
    func testIDsOfAnotherShapeAreRefusedNamingTheVariable() throws {
        try "catalogs: [Store]\nasc:\n  app: com.appcoda.FakeGame\n  snapshot: asc.json\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let issuer = "iap: error: the App Store Connect API key cannot be used: IAP_ASC_ISSUER_ID does not hold an issuer ID: App Store "
            + "Connect's is a UUID, 8-4-4-4-12 hexadecimal digits like 57246542-96fe-1a63-e053-0824d011072a, shown above the keys in "
            + "Users and Access › Integrations\n"
        try assertEveryCommand(environment(["IAP_ASC_PRIVATE_KEY": pem]), status: 2,
                               stderr: ["asc pull": issuer, "asc diff": issuer, "report": issuer])
        let keyID = "iap: error: the App Store Connect API key cannot be used: IAP_ASC_KEY_ID does not hold a key ID: App Store Connect's "
            + "are letters and digits like 2X9R4HXF34, shown beside each key in Users and Access › Integrations\n"
        try assertEveryCommand(environment(["IAP_ASC_PRIVATE_KEY": pem, "IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a"]), status: 2,
                               stderr: ["asc pull": keyID, "asc diff": keyID, "report": keyID])
        let notPEM = "iap: error: the App Store Connect API key cannot be used: the private key in IAP_ASC_PRIVATE_KEY is not a P-256 key "
            + "in PEM form (the .p8 file App Store Connect gives begins '-----BEGIN PRIVATE KEY-----')\n"
        try assertEveryCommand(environment(["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34"]),
                               status: 2, stderr: ["asc pull": notPEM, "asc diff": notPEM, "report": notPEM])
    }

    /// A server `IAP_ASC_URL` names that cannot be reached: the error is libcurl's words for it,
    /// not its error buffer, which names the host and port (the variable's value).
    func testAServerThatCannotBeReachedIsNotNamed() throws {
        try Prerequisite.libcurl()
        try "catalogs: [Store]\nasc:\n  app: com.appcoda.FakeGame\n  snapshot: asc.json\n"
            .write(to: repo.appendingPathComponent("iap.yml"), atomically: false, encoding: .utf8)
        let env = environment(["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34",
                               "IAP_ASC_PRIVATE_KEY": P256.Signing.PrivateKey().pemRepresentation, "IAP_ASC_URL": "https://marker-host.invalid:8443"])
        let result = try IAPRunner.run(["asc", "pull", "--timeout", "2"], in: repo, environment: env)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "iap: error: cannot reach App Store Connect for GET /v1/apps (4 tries): Couldn't resolve host name\n")
        XCTAssertFalse((result.stdout + result.stderr).lowercased().contains("marker"))
    }
}
