import Foundation
import TestSupport
import XCTest

/// Every hint a message prints is a command that works when pasted into a POSIX shell: paths with
/// spaces, quotes, `$` and non-ASCII letters are quoted, and the command reads what the hint says.
/// The hints are collected from what `iap` prints on repositories written for it, and each `iap …`
/// hint is run through `/bin/sh -c` in the repository.
final class HintCommandTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-hints" }

    func ids(_ ids: [String]) -> String {
        AppRepository.plist("<array>\n" + ids.map { "\t<string>\($0)</string>\n" }.joined() + "</array>")
    }

    /// Folder names a shell reads unless they are quoted.
    static let awkwardNames = ["Freelance Invoice", "Tip $Jar", "Café's App", "Star*Shop (beta)"]

    /// The commands in backquotes (`` `iap …` ``) and the "run iap …" that ends a line.
    static func hints(in text: String) -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n") {
            let quoted = line.split(separator: "`", omittingEmptySubsequences: false)
            for (index, part) in quoted.enumerated() where index % 2 == 1 && part.hasPrefix("iap ") { found.append(String(part)) }
            if let run = line.range(of: "; run iap ") {
                found.append(String(line[line.index(run.lowerBound, offsetBy: 6)...]))
            }
        }
        return found
    }

    /// Runs a hint as a user pastes it: `iap` is the binary under test.
    func paste(_ hint: String) throws -> IAPRunner.Result {
        let path = IAPRunner.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try IAPRunner.runProgram("/bin/sh", ["-c", hint], in: folder, environment: ["PATH": path])
    }

    /// A hint that ran: not a usage error (64) or a file it could not find (2, "no such file").
    func assertRuns(_ hint: String, file: StaticString = #filePath, line: UInt = #line) throws -> IAPRunner.Result {
        let result = try paste(hint)
        let said = result.stdout + result.stderr
        XCTAssertFalse([2, 64, 127].contains(result.status), "\(hint): exit \(result.status)\n\(said)", file: file, line: line)
        XCTAssertFalse(said.contains("no such file"), "\(hint):\n\(said)", file: file, line: line)
        return result
    }

    func testTheConvertHintOfAMissingPriceRunsWhateverTheFolderIsNamed() throws {
        for name in Self.awkwardNames {
            try write("\(name)/ProductIds.plist", ids(["com.acme.app.coins"]))
            let storekit = try IAPRunner.run(["storekit", "\(name)/ProductIds.plist", "-o", "Out.storekit"], in: folder)
            let hints = Self.hints(in: storekit.stdout + storekit.stderr)
            XCTAssertEqual(hints.count, 1, storekit.stdout + storekit.stderr)
            for hint in hints {
                XCTAssertTrue(hint.hasPrefix("iap convert '"), hint)
                _ = try assertRuns(hint)
                XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("Metadata.plist"), encoding: .utf8).contains("com.acme.app.coins"))
                try FileManager.default.removeItem(at: folder.appendingPathComponent("Metadata.plist"))
            }
        }
    }

    func testTheBundleIDHintOfEachAppChecksThatAppsCatalogAlone() throws {
        try write("Apps.xcworkspace/contents.xcworkspacedata", "<Workspace version = \"1.0\">\n</Workspace>\n")
        let info = AppRepository.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</dict>")
        for (index, name) in Self.awkwardNames.enumerated() {
            try write("\(name)/Info.plist", info)
            try write("\(name)/Store/IAP_ProductIDs.plist", ids(["com.acme.app\(index).coins", "com.acme.app\(index).gems"]))
        }
        let validate = try IAPRunner.run(["validate", "."], in: folder)
        let hints = Self.hints(in: validate.stdout)
        XCTAssertEqual(hints.count, Self.awkwardNames.count, validate.stdout)
        for hint in hints {
            let result = try assertRuns(hint.replacingOccurrences(of: "com.your.app", with: "com.acme.app0"))
            // One app's catalog, with the ID given: no other app's files.
            XCTAssertTrue(result.stderr.hasSuffix("2 products in 1 catalog\n"), "\(hint)\n\(result.stderr)")
        }
        // With the first app's ID, only the others' IDs lack the prefix.
        let first = try paste(hints[0].replacingOccurrences(of: "com.your.app", with: "com.acme.app0"))
        XCTAssertFalse(first.stdout.contains("missing-bundle-prefix"), first.stdout)
    }

    func testNestedCatalogsAreNamedByAFormThatReadsOneCatalog() throws {
        for name in Self.awkwardNames {
            try write("\(name)/Products.storekit", AppRepository.storeKit([("com.acme.outer.pro", "Outer")]))
            try write("\(name)/Extra Pack/Products.storekit", AppRepository.storeKit([("com.acme.inner.pro", "Inner")]))
            let gen = try IAPRunner.run(["gen", name, "-o", "Gen.swift"], in: folder)
            XCTAssertEqual(gen.status, 2, gen.stderr)
            let forms = gen.stderr.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            XCTAssertEqual(forms.count, 2, gen.stderr)
            for form in forms {
                let result = try assertRuns("iap validate \(form)")
                XCTAssertTrue(result.stderr.hasSuffix("1 product in 1 catalog\n"), "\(form)\n\(result.stderr)")
                XCTAssertEqual(try assertRuns("iap gen \(form) -o Gen.swift").status, 0)
            }
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    func testTheNextStepOfInitAndTheBaselineHintsRunAsPrinted() throws {
        for name in Self.awkwardNames {
            try write("\(name)/Store/IAP_ProductIDs.plist", ids(["com.acme.app.coins"]))
            let written = try IAPRunner.run(["init", name], in: folder)
            XCTAssertEqual(written.status, 0, written.stderr)
            let hints = Self.hints(in: written.stderr)
            XCTAssertEqual(hints.count, 1, written.stderr)
            XCTAssertEqual(try assertRuns(hints[0]).status, 0)
            // A baseline that is missing: the hint writes it.
            let baseline = "\(name)/base line.json"
            let missing = try IAPRunner.run(["check", "--config", "\(name)/iap.yml", "--baseline", baseline], in: folder)
            XCTAssertEqual(missing.status, 2)
            let option = try XCTUnwrap(missing.stderr.range(of: "--write-baseline ")).upperBound
            let word = String(missing.stderr[option...].prefix { $0 != "\n" })
            let config = try XCTUnwrap(hints[0].components(separatedBy: "--config ").last)
            XCTAssertEqual(try assertRuns("iap check --config \(config) --write-baseline \(word)").status, 0)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(baseline).path))
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    func testOrdinaryPathsStayAsTheyWere() throws {
        try write("Store/ProductIds.plist", ids(["com.acme.app.coins"]))
        let storekit = try IAPRunner.run(["storekit", "Store/ProductIds.plist", "-o", "Out.storekit"], in: folder)
        XCTAssertEqual(Self.hints(in: storekit.stdout + storekit.stderr), ["iap convert Store/ProductIds.plist -o Metadata.plist"])
    }
}
