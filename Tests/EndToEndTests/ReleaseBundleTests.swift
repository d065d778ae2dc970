import Foundation
import XCTest

/// `scripts/release.sh` writes the `info.json` SwiftPM reads in `iap.artifactbundle`: one
/// executable artifact, `iap-gen`, with a variant per `iap-gen-TRIPLE/bin/iap-gen` folder. The
/// release build itself takes minutes, so the test runs only the part that writes `info.json`
/// (`--info-only`) on a bundle of stand-in binaries; docs/plugins.md has the full manual check.
final class ReleaseBundleTests: XCTestCase {
    var script: String { IAPRunner.packageRoot.appendingPathComponent("scripts/release.sh").path }

    func makeBundle(variants: [String]) throws -> URL {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("iap-\(UUID().uuidString).artifactbundle")
        for name in variants {
            let bin = bundle.appendingPathComponent(name).appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let tool = bin.appendingPathComponent("iap-gen")
            try Data("#!/bin/sh\n".utf8).write(to: tool)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: bundle) }
        return bundle
    }

    func testInfoJSONHasOneExecutableArtifactWithAVariantPerTriple() throws {
        let bundle = try makeBundle(variants: ["iap-gen-x86_64-unknown-linux-gnu", "iap-gen-arm64-apple-macosx"])
        // A folder without bin/iap-gen is no variant.
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("iap-gen-empty"), withIntermediateDirectories: true)
        let result = try IAPRunner.runProgram("/usr/bin/env", ["bash", script, "--info-only", bundle.path, "1.2.3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")

        let data = try Data(contentsOf: bundle.appendingPathComponent("info.json"))
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(info.keys), ["schemaVersion", "artifacts"])
        XCTAssertEqual(info["schemaVersion"] as? String, "1.0")
        let artifacts = try XCTUnwrap(info["artifacts"] as? [String: Any])
        XCTAssertEqual(Array(artifacts.keys), ["iap-gen"])
        let tool = try XCTUnwrap(artifacts["iap-gen"] as? [String: Any])
        XCTAssertEqual(tool["type"] as? String, "executable")
        XCTAssertEqual(tool["version"] as? String, "1.2.3")
        let variants = try XCTUnwrap(tool["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.map { $0["path"] as? String }, [
            "iap-gen-arm64-apple-macosx/bin/iap-gen", "iap-gen-x86_64-unknown-linux-gnu/bin/iap-gen",
        ])
        XCTAssertEqual(variants.map { $0["supportedTriples"] as? [String] }, [
            ["arm64-apple-macosx"], ["x86_64-unknown-linux-gnu"],
        ])
    }

    func testInfoOnlyRefusesABundleWithoutVariants() throws {
        let bundle = try makeBundle(variants: [])
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let result = try IAPRunner.runProgram("/usr/bin/env", ["bash", script, "--info-only", bundle.path, "1.2.3"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "release: no iap-gen-TRIPLE/bin/iap-gen in \(bundle.path)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("info.json").path))
    }

    /// The release zip is the same bytes from the same files, whenever and in whatever order they
    /// were written: a checksum published for `.binaryTarget(url:checksum:)` can be checked by
    /// building again.
    func testTheZipIsTheSameBytesFromTheSameFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zip") else { throw XCTSkip("zip is not installed") }
        var zips: [Data] = []
        for (order, age) in [(["iap-gen-b", "iap-gen-a"], 0.0), (["iap-gen-a", "iap-gen-b"], 86_400.0)] {
            let parent = FileManager.default.temporaryDirectory.appendingPathComponent("iap-zip-\(UUID().uuidString)")
            addTeardownBlock { try? FileManager.default.removeItem(at: parent) }
            let bundle = parent.appendingPathComponent("iap.artifactbundle")
            for name in order {
                let bin = bundle.appendingPathComponent(name).appendingPathComponent("bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                let tool = bin.appendingPathComponent("iap-gen")
                try Data("#!/bin/sh\necho \(name)\n".utf8).write(to: tool)
                try FileManager.default.setAttributes([.posixPermissions: 0o755, .modificationDate: Date(timeIntervalSinceNow: -age)],
                                                      ofItemAtPath: tool.path)
            }
            let result = try IAPRunner.runProgram("/usr/bin/env", ["bash", script, "--zip-only", parent.path, "iap.artifactbundle"])
            XCTAssertEqual(result.status, 0, result.stderr)
            zips.append(try Data(contentsOf: parent.appendingPathComponent("iap.artifactbundle.zip")))
        }
        XCTAssertGreaterThan(zips[0].count, 200)
        XCTAssertEqual(zips[0], zips[1])
    }
}
