import Diagnostics
import Foundation
import TestSupport
import IAPCatalog
import IAPTool
import XCTest

/// Which catalogs, which bundle ID, from where: the precedence every command shares.
final class CatalogSelectionTests: XCTestCase {
    /// An `iap.yml` read from `folder/iap.yml` that names `catalogs` and gives `bundleID` on line 2.
    func configuration(catalogs: [String] = ["App/Store"], bundleID: String? = "com.acme.yml") -> Configuration {
        var configuration = Configuration()
        configuration.path = "iap.yml"
        configuration.catalogs = catalogs
        configuration.bundleID = bundleID
        configuration.bundleIDSource = bundleID.map { _ in SourceLocation(path: "iap.yml", line: 2) }
        return configuration
    }

    func testPathsGivenWinOverIAPYmlAndTheDefault() {
        let selection = CatalogSelection(["Given"], configuration: configuration())
        XCTAssertEqual(selection.paths, ["Given"])
        XCTAssertEqual(selection.origin, .given)
        XCTAssertEqual(selection.resolvedPaths, ["Given"])
        XCTAssertTrue(selection.isNamed)
    }

    func testIAPYmlsCatalogsWhenNoPathIsGiven() {
        let selection = CatalogSelection([], configuration: configuration())
        XCTAssertEqual(selection.paths, ["App/Store"])
        XCTAssertEqual(selection.origin, .configured)
        XCTAssertTrue(selection.isNamed)
    }

    func testTheDefaultWhenNeitherNamesThem() throws {
        let selection = CatalogSelection([], configuration: Configuration())
        XCTAssertEqual(selection.paths, [])
        XCTAssertEqual(selection.origin, .defaulted)
        XCTAssertFalse(selection.isNamed)
        // ./catalogs when it exists, else the catalogs found under the working folder.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-selection-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var missing = CatalogSelection(defaultPath: folder.path)
        XCTAssertEqual(missing.resolvedPaths, ["."])
        XCTAssertEqual(missing.defaultDescription, "the catalogs found under .")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        missing.defaultPath = folder.path
        XCTAssertEqual(missing.resolvedPaths, [folder.path])
        XCTAssertEqual(missing.defaultDescription, "./\(folder.path)")
    }

    func testBundleIDFlagWinsOverIAPYml() {
        let selection = CatalogSelection([], configuration: configuration(), bundleID: "com.acme.flag")
        XCTAssertEqual(selection.bundleID, "com.acme.flag")
        XCTAssertEqual(selection.bundleIDSource, SourceLocation(path: "--bundle-id"))
        // The paths still come from iap.yml: the flag names the app, not its catalogs.
        XCTAssertEqual(selection.origin, .configured)
    }

    func testIAPYmlsBundleIDWithItsLineWhenNoFlag() {
        let selection = CatalogSelection(["Given"], configuration: configuration())
        XCTAssertEqual(selection.bundleID, "com.acme.yml")
        XCTAssertEqual(selection.bundleIDSource, SourceLocation(path: "iap.yml", line: 2))
    }

    func testNoBundleIDLeavesEachCatalogItsOwn() {
        XCTAssertNil(CatalogSelection(["Given"], configuration: configuration(bundleID: nil)).bundleID)
        XCTAssertNil(CatalogSelection(["Given"], configuration: Configuration()).bundleID)
    }

    func testGeneratorsReadTheSamePathsWithTheCatalogsOwnBundleID() {
        let generating = CatalogSelection.generating([], configuration: configuration())
        XCTAssertEqual(generating.paths, ["App/Store"])
        XCTAssertEqual(generating.origin, .configured)
        XCTAssertNil(generating.bundleID)
        XCTAssertEqual(CatalogSelection.generating(["One"], configuration: configuration()).paths, ["One"])
        XCTAssertEqual(CatalogSelection.generating([], configuration: Configuration()).origin, .defaulted)
    }

    func testNamingOtherPathsKeepsTheBundleID() {
        let selection = CatalogSelection([], configuration: configuration(), bundleID: "com.acme.flag").naming(["Lint/Catalog"])
        XCTAssertEqual(selection.paths, ["Lint/Catalog"])
        XCTAssertEqual(selection.origin, .given)
        XCTAssertEqual(selection.bundleID, "com.acme.flag")
    }

    func testTheBundleIDReachesTheLoadedCatalogWithItsSource() throws {
        let root = Prerequisite.packageRoot
        let fakeGame = root.appendingPathComponent("catalogs/FakeGame").path
        let own = try CatalogSelection(given: [fakeGame]).loadOne()
        XCTAssertEqual(own.bundleID?.value, "com.appcoda.FakeGame")
        let configured = try CatalogSelection([fakeGame], configuration: configuration()).loadOne()
        XCTAssertEqual(configured.bundleID?.value, "com.acme.yml")
        XCTAssertEqual(configured.bundleID?.location, SourceLocation(path: "iap.yml", line: 2))
        let flagged = try CatalogSelection([fakeGame], configuration: configuration(), bundleID: "com.acme.flag").loadOne()
        XCTAssertEqual(flagged.bundleID?.value, "com.acme.flag")
        XCTAssertEqual(flagged.bundleID?.location, SourceLocation(path: "--bundle-id"))
    }

    /// `GenJob.loadCatalog` refuses a catalog with an unreadable file, with that file's finding,
    /// so no caller generates from half a catalog.
    func testGenerationRefusesACatalogWithAnUnreadableFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-selection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("IAP_ProductIDs.plist").path
        try "<plist><array><string>com.acme.a</string>".write(toFile: broken, atomically: true, encoding: .utf8)
        let job = GenJob(catalogs: CatalogSelection(given: [broken]), output: folder.appendingPathComponent("P.swift").path)
        XCTAssertThrowsError(try job.loadCatalog()) { error in
            guard let failure = error as? ToolFailure else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.status, .findings)
            XCTAssertEqual(failure.findings.map(\.ruleID), ["malformed-catalog"])
            XCTAssertEqual(failure.findings.first?.location.path, broken)
            XCTAssertTrue(failure.message.hasPrefix("\(broken):"), failure.message)
            XCTAssertTrue(failure.message.hasSuffix("; fix the file before generating"), failure.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("P.swift").path))
    }
}
