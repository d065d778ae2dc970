import Foundation
import XCTest

/// `iap init` proposes the app's own sources to lint: not vendored code and frameworks, a Flutter
/// app's desktop runners or an Android project; and `--exclude NAME` leaves out that folder at
/// any depth, as `.gitignore` reads a name.
final class InitNoiseTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-init-noise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ path: String, _ text: String = "let price = \"$0.99\"\n") throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The `lint:` section `init --stdout` writes, from its first line to the next blank one.
    func lintSection() throws -> String {
        let starter = try IAPRunner.run(["init", "--stdout"], in: folder)
        XCTAssertEqual(starter.status, 0, starter.stderr)
        let blocks = starter.stdout.components(separatedBy: "\n\n")
        return try XCTUnwrap(blocks.first { $0.contains("\nlint:\n") || $0.contains("\n# lint:") }) + "\n"
    }

    func testAFlutterAppsDesktopRunnersAndAndroidProjectAreNotLinted() throws {
        try write("pubspec.yaml", "name: shop\n")
        try write("lib/main.dart", "void main() {}\n")
        try write("ios/Runner/AppDelegate.swift")
        try write("macos/Runner/MainFlutterWindow.swift")
        try write("linux/my_application.h", "#pragma once\n")
        try write("windows/runner/flutter_window.h", "#pragma once\n")
        try write("android/build.gradle", "buildscript {}\n")
        try write("android/app/src/main/cpp/native.h", "#pragma once\n")
        XCTAssertEqual(try lintSection(), """
        # Sources to lint for hardcoded prices, titles and product IDs.
        # Not linted: android, an Android project.
        # Not linted: linux, a Flutter app's desktop runner (pubspec.yaml beside it).
        # Not linted: macos, a Flutter app's desktop runner (pubspec.yaml beside it).
        # Not linted: windows, a Flutter app's desktop runner (pubspec.yaml beside it).
        lint:
          paths:
            - ios
          # exclude: ["*/Generated/*"]

        """)
    }

    func testANativeMacAppsFolderIsItsCode() throws {
        try write("ios/App.swift")
        try write("macos/App.swift")
        try write("linux/notes.h", "#pragma once\n")
        XCTAssertEqual(try lintSection(), """
        # Sources to lint for hardcoded prices, titles and product IDs.
        lint:
          paths:
            - ios
            - linux
            - macos
          # exclude: ["*/Generated/*"]

        """)
    }

    func testVendoredCodeBesideTheAppIsLeftOutAndInsideItExcluded() throws {
        try write("App/Shop.swift")
        try write("App/Vendor/Lib.swift")
        try write("App/Frameworks/Ads.framework/Headers/Ads.h", "#pragma once\n")
        try write("ThirdParty/Analytics/Tracker.m", "int x;\n")
        try write("app-android/build.gradle.kts", "plugins {}\n")
        try write("app-android/src/main/jni/bridge.h", "#pragma once\n")
        try write("SourcePackages/checkouts/Lib/Sources/Lib.swift")
        XCTAssertEqual(try lintSection(), """
        # Sources to lint for hardcoded prices, titles and product IDs.
        # Not linted: SourcePackages, vendored code.
        # Not linted: ThirdParty, vendored code.
        # Not linted: app-android, an Android project.
        lint:
          paths:
            - App
          # Not the app's code: App/Frameworks/Ads.framework (a framework bundle), App/Vendor (vendored code).
          exclude:
            - App/Frameworks/Ads.framework
            - App/Vendor

        """)
        // `iap check` with that file lints the app's own file only, and its finding stays.
        XCTAssertEqual(try IAPRunner.run(["init"], in: folder).status, 0)
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, "App/Shop.swift:1:13: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        XCTAssertTrue(check.stderr.hasSuffix("1 source file checked: 0 errors, 1 warning, 0 infos\n"), check.stderr)
    }

    func testSourcesAtTheTopWithVendoredCodeBesideThemAreExcluded() throws {
        try write("Shop.swift")
        try write("Vendor/Lib.swift")
        XCTAssertEqual(try lintSection(), """
        # Sources to lint for hardcoded prices, titles and product IDs.
        lint:
          paths:
            - .
          # Not the app's code: Vendor (vendored code).
          exclude:
            - Vendor

        """)
    }

    func testABareNameExcludesThatFolderAtAnyDepth() throws {
        try write("App/Shop.swift")
        try write("App/Vendor/Lib.swift")
        try write("Vendor/Top.swift")
        try write("App/VendorList.swift")
        try write("Modules/Pay/vendor/Old.swift")
        func linted(_ arguments: [String]) throws -> [String] {
            let result = try IAPRunner.run(["lint", "."] + arguments, in: folder)
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        }
        let all = ["App/Shop.swift", "App/Vendor/Lib.swift", "App/VendorList.swift", "Modules/Pay/vendor/Old.swift", "Vendor/Top.swift"]
        XCTAssertEqual(try linted([]), all)
        // The name, in each spelling a user writes, and a path; a name is matched exactly (fnmatch is case-sensitive).
        XCTAssertEqual(try linted(["--exclude", "Vendor"]), ["App/Shop.swift", "App/VendorList.swift", "Modules/Pay/vendor/Old.swift"])
        XCTAssertEqual(try linted(["--exclude", "./Vendor"]), ["App/Shop.swift", "App/VendorList.swift", "Modules/Pay/vendor/Old.swift"])
        XCTAssertEqual(try linted(["--exclude", "[Vv]endor"]), ["App/Shop.swift", "App/VendorList.swift"])
        XCTAssertEqual(try linted(["--exclude", "App/Vendor"]), ["App/Shop.swift", "App/VendorList.swift", "Modules/Pay/vendor/Old.swift", "Vendor/Top.swift"])
        XCTAssertEqual(try linted(["--exclude", "*/Vendor/*"]), ["App/Shop.swift", "App/VendorList.swift", "Modules/Pay/vendor/Old.swift", "Vendor/Top.swift"])
        // From iap.yml too.
        try write("iap.yml", "lint:\n  paths: [.]\n  exclude: [Vendor, vendor]\n")
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(check.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }, ["App/Shop.swift", "App/VendorList.swift"])
    }

    /// The summary counts the catalog's files, not the `Info.plist` that lent its bundle ID.
    func testTheCheckSummaryCountsCatalogFilesOnly() throws {
        try write("App/Info.plist", AppRepository.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>com.acme.app</string>\n</dict>"))
        try write("App/IAP_ProductIDs.plist", AppRepository.plist("<array>\n\t<string>com.acme.app.coins</string>\n\t<string>com.acme.app.gems</string>\n</array>"))
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertTrue(check.stderr.contains("\n1 catalog file (2 products in 1 catalog) checked: "), check.stderr)
        let list = try IAPRunner.run(["list", "--verbose", "App"], in: folder)
        XCTAssertTrue(list.stdout.contains("bundle ID com.acme.app from App/Info.plist:6:2\n"), list.stdout)
    }
}
