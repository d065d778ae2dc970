import Foundation
import TestSupport
import XCTest

/// A consumer package on the prebuilt bundle: `IAPCatalogPlugins`, which `scripts/release.sh`
/// writes under .build/artifactbundle/ (docs/plugins.md). Its clean build is printed, and then both
/// plugins are used on one target: the committed ProductID.swift is checked, not generated twice.
/// Without a bundle (the release build takes minutes) the test skips and says so.
final class PluginBundleTests: XCTestCase {
    func testConsumerBuildsOnTheBundleAndBothPluginsShareATarget() throws {
        let plugins = IAPRunner.packageRoot.appendingPathComponent(".build/artifactbundle/IAPCatalogPlugins")
        guard FileManager.default.fileExists(atPath: plugins.appendingPathComponent("Package.swift").path) else {
            throw Prerequisite.skip("no .build/artifactbundle/IAPCatalogPlugins: run scripts/release.sh first (.ci/run does)")
        }
        let consumer = FileManager.default.temporaryDirectory.appendingPathComponent("iap-consumer-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: consumer) }
        let app = consumer.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: IAPRunner.packageRoot.appendingPathComponent("Examples/StoreDemo/Sources/StoreDemo/IAP_ProductIDs.plist"),
            to: app.appendingPathComponent("IAP_ProductIDs.plist"))
        try #"print("products: \(ProductID.all.count)")"#.appending("\n")
            .write(to: app.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try """
            // swift-tools-version:6.1
            import PackageDescription
            let package = Package(
                name: "Consumer",
                dependencies: [.package(name: "IAPCatalogPlugins", path: "\(plugins.path)")],
                targets: [
                    .executableTarget(name: "App", exclude: ["IAP_ProductIDs.plist"],
                                      plugins: [.plugin(name: "IAPGenPlugin", package: "IAPCatalogPlugins")]),
                ]
            )

            """.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        func swift(_ arguments: [String]) throws -> IAPRunner.Result {
            try IAPRunner.runProgram("/usr/bin/env", ["swift"] + arguments, in: consumer)
        }
        let start = Date()
        let build = try swift(["build"])
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        print("PluginBundleTests: clean build of a consumer on the bundle took \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        let bin = try swift(["build", "--show-bin-path"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try IAPRunner.runProgram(bin + "/App", [], in: consumer).stdout, "products: 3\n")

        // Both plugins on one target: commit the file with the command plugin, build again.
        let command = try swift(["package", "--allow-writing-to-package-directory", "iap-gen"])
        XCTAssertEqual(command.status, 0, command.stdout + command.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: app.appendingPathComponent("ProductID.swift").path))
        let again = try swift(["build"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertFalse((again.stdout + again.stderr).contains("multiple producers"))
        XCTAssertTrue(again.stdout.contains("ProductID.swift is up to date"), again.stdout)

        // A stale committed file fails the build, naming it and the command plugin's line that
        // updates it; `swift package iap-gen --check` names the same line, which works when pasted.
        let committed = app.appendingPathComponent("ProductID.swift")
        try (String(contentsOf: committed, encoding: .utf8) + "// edited\n").write(to: committed, atomically: true, encoding: .utf8)
        let line = "swift package --package-path \(consumer.path) --allow-writing-to-package-directory iap-gen --target App"
        let stale = try swift(["build"])
        XCTAssertNotEqual(stale.status, 0)
        XCTAssertTrue((stale.stdout + stale.stderr).contains("ProductID.swift is stale: run \(line) to update it\n"), stale.stdout + stale.stderr)
        let checked = try swift(["package", "--allow-writing-to-package-directory", "iap-gen", "--check"])
        XCTAssertNotEqual(checked.status, 0)
        XCTAssertTrue((checked.stdout + checked.stderr).contains("ProductID.swift is stale: run \(line) to update it\n"), checked.stdout + checked.stderr)
        let repaired = try IAPRunner.runProgram("/bin/sh", ["-c", line], in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        let fixed = try swift(["build"])
        XCTAssertEqual(fixed.status, 0, fixed.stdout + fixed.stderr)
    }
}
