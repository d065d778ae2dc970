import Foundation
import XCTest

/// What every walk passes over (WalkPolicy): a repository unzipped from a Mac, with `__MACOSX/`,
/// AppleDouble `._` files, `.DS_Store`, build and dependency folders and a `.swift` file that is
/// binary. None of it is read by `validate`, `lint`, `check` or `iap init`; `--verbose` says each
/// with the same reason; every finding of a run names its file in one form.
final class WalkEndToEndTests: XCTestCase {
    /// The first bytes of a real AppleDouble file (magic, version 2, "Mac OS X" filler).
    static let appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8) + [0x00, 0x02])

    static let idList = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <array>
        \t<string>com.acme.junk.coins</string>
        </array>
        </plist>

        """

    /// A temporary app folder: `App/` with a product-ID list and one clean source, and the junk.
    func makeRepository() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-walk-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ data: Data) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try write("App/IAP_ProductIDs.plist", Data(Self.idList.utf8))
        try write("App/Shop.swift", Data("let shelf = 1\n".utf8))
        // What a zip made on a Mac leaves, and Finder's settings.
        try write("__MACOSX/App/._Shop.swift", Self.appleDouble)
        try write("__MACOSX/App/._IAP_ProductIDs.plist", Self.appleDouble)
        try write("App/._Shop.swift", Self.appleDouble)
        try write("App/._IAP_ProductIDs.plist", Self.appleDouble)
        try write(".DS_Store", Data([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]))
        // A .swift file whose content is not source: AppleDouble data, and binary data.
        try write("App/Resource.swift", Self.appleDouble)
        try write("App/Blob.swift", Data("let a = 1\n".utf8 + [0, 1, 2]))
        // Build output and dependencies, each with a finding lint would report if it read it.
        for folder in ["Pods/Kit", "DerivedData/App/Build", "Carthage/Build", "node_modules/x", ".build/debug", "build"] {
            try write("\(folder)/Price.swift", Data("let price = \"$0.99\"\n".utf8))
        }
        return root
    }

    static let passedOver = """
        iap: passed over .DS_Store: Finder's folder settings (.DS_Store): not read
        iap: passed over .build: a build or dependency folder (.build): not walked; name it to check what it holds
        iap: passed over App/._IAP_ProductIDs.plist: an AppleDouble file (macOS metadata, named ._…): not read
        iap: passed over App/._Shop.swift: an AppleDouble file (macOS metadata, named ._…): not read
        iap: passed over Carthage: a build or dependency folder (Carthage): not walked; name it to check what it holds
        iap: passed over DerivedData: a build or dependency folder (DerivedData): not walked; name it to check what it holds
        iap: passed over Pods: a build or dependency folder (Pods): not walked; name it to check what it holds
        iap: passed over __MACOSX: macOS archive metadata (__MACOSX, left by a zip made on a Mac): not walked
        iap: passed over build: a build or dependency folder (build): not walked; name it to check what it holds
        iap: passed over node_modules: a build or dependency folder (node_modules): not walked; name it to check what it holds

        """

    /// The source files whose content is not source, which only the lint walk opens.
    static let notSource = """
        iap: passed over App/Blob.swift: binary data (a NUL byte), not source text: not read
        iap: passed over App/Resource.swift: AppleDouble data (macOS metadata), not source text: not read

        """

    static let finding = "App/IAP_ProductIDs.plist:4:2: info: kind of 'com.acme.junk.coins' is consumable, inferred from 'coins' in the ID; declare it in metadata [undeclared-kind]\n"

    func testJunkIsPassedOverByEveryWalkAndSaidWithVerbose() throws {
        let root = try makeRepository()
        let check = try IAPRunner.run(["check", "--verbose"], in: root)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, Self.finding)
        XCTAssertEqual(check.stderr, Self.passedOver + """
            iap: no iap.yml here or above; validating the catalogs found under . (iap init writes one)
            1 catalog file (1 product in 1 catalog) checked: 0 errors, 0 warnings, 1 info

            """)

        let validate = try IAPRunner.run(["validate", "--verbose"], in: root)
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, Self.finding)
        XCTAssertEqual(validate.stderr, Self.passedOver + "1 file checked: 0 errors, 0 warnings, 1 info, 1 product in 1 catalog\n")

        let lint = try IAPRunner.run(["lint", "--verbose"], in: root)
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "")
        let lintPassedOver = (Self.passedOver + Self.notSource).split(separator: "\n").sorted().joined(separator: "\n") + "\n"
        XCTAssertEqual(lint.stderr, lintPassedOver + """
            iap: using the catalog in App (1 product)
            1 file checked: 0 errors, 0 warnings, 0 infos

            """)

        // iap init proposes App, never __MACOSX or a build folder, and says the same.
        let starter = try IAPRunner.run(["init", "--stdout", "--verbose"], in: root)
        XCTAssertEqual(starter.status, 0, starter.stderr)
        XCTAssertEqual(starter.stderr, lintPassedOver)
        XCTAssertTrue(starter.stdout.contains("\ncatalogs:\n  - App\n"), starter.stdout)
        XCTAssertTrue(starter.stdout.contains("\nlint:\n  paths:\n    - App\n  # exclude"), starter.stdout)
        XCTAssertFalse(starter.stdout.contains("__MACOSX"), starter.stdout)

        // check under an iap.yml that lints the folder: both walks' junk, each said once.
        try "lint:\n  paths: [.]\n".write(to: root.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let configured = try IAPRunner.run(["check", "--verbose"], in: root)
        XCTAssertEqual(configured.status, 0, configured.stderr)
        XCTAssertEqual(configured.stdout, Self.finding)
        XCTAssertEqual(configured.stderr, "iap: using iap.yml in the working folder\n" + lintPassedOver + """
            iap: using the catalog in . (1 product)
            1 catalog file (1 product in 1 catalog), 1 source file checked: 0 errors, 0 warnings, 1 info

            """)

        // A folder the user names is read: the junk rule is for what a walk meets.
        let pods = try IAPRunner.run(["lint", "Pods"], in: root)
        XCTAssertEqual(pods.status, 0, pods.stderr)
        XCTAssertEqual(pods.stdout, "Pods/Kit/Price.swift:1:13: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
    }

    func testAFileNamedThatIsNotAnInputIsAUsageError() throws {
        let root = try makeRepository()
        try "# Shop\n".write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        try "// swift-tools-version:6.0\n".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let readme = try IAPRunner.run(["lint", "README.md"], in: root)
        XCTAssertEqual(readme.status, 64)
        XCTAssertEqual(readme.stdout, "")
        XCTAssertEqual(readme.stderr, "iap: error: README.md: not a Swift or Objective-C source: iap lint reads .swift, .m, .mm and .h files, or the folders that hold them\n")
        let package = try IAPRunner.run(["validate", "Package.swift"], in: root)
        XCTAssertEqual(package.status, 64)
        XCTAssertEqual(package.stdout, "")
        XCTAssertEqual(package.stderr, "iap: error: Package.swift: not a catalog file: catalogs are read from property lists (.plist: product-ID lists, metadata, Info.plist) and StoreKit configurations (.storekit); pass those files, or the folder that holds them\n")
        // list and gen read catalogs the same way, and say the same.
        let list = try IAPRunner.run(["list", "README.md"], in: root)
        XCTAssertEqual(list.status, 64)
        XCTAssertEqual(list.stderr, package.stderr.replacingOccurrences(of: "Package.swift", with: "README.md"))
    }

    func testExcludesMatchWithOrWithoutALeadingDotSlash() throws {
        let root = try makeRepository()
        let generated = root.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
        try "let price = \"$1.99\"\n".write(to: generated.appendingPathComponent("Prices.swift"), atomically: true, encoding: .utf8)
        let all = try IAPRunner.run(["lint", "."], in: root)
        XCTAssertEqual(all.stdout, "Generated/Prices.swift:1:13: warning: the literal shows a price ('$1.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        XCTAssertEqual(all.stderr, "iap: using the catalog in App (1 product)\n2 files checked: 0 errors, 1 warning, 0 infos\n")
        for pattern in ["Generated/*", "./Generated/*"] {
            for target in [".", "./"] {
                let run = try IAPRunner.run(["lint", target, "--exclude", pattern], in: root)
                XCTAssertEqual(run.stdout, "", "\(pattern) on \(target)")
                XCTAssertEqual(run.stderr, "iap: using the catalog in App (1 product)\n1 file checked: 0 errors, 0 warnings, 0 infos\n", "\(pattern) on \(target)")
            }
        }
        // iap.yml's lint.exclude, in either form.
        for pattern in ["Generated/*", "./Generated/*"] {
            try "lint:\n  paths: [.]\n  exclude: [\"\(pattern)\"]\n".write(to: root.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
            let check = try IAPRunner.run(["check"], in: root)
            XCTAssertEqual(check.status, 0, check.stderr)
            XCTAssertEqual(check.stdout, Self.finding, pattern)
        }
    }

    func testEveryFindingOfARunNamesItsFileInOneForm() throws {
        let root = try makeRepository()
        try "let price = \"$0.99\"\n".write(to: root.appendingPathComponent("App/Price.swift"), atomically: true, encoding: .utf8)
        // iap.yml names no catalogs (its folder, `.`, is walked) and lints ./App.
        try "lint:\n  paths: [./App]\n".write(to: root.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let check = try IAPRunner.run(["check"], in: root)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, Self.finding + "App/Price.swift:1:13: warning: the literal shows a price ('$0.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]\n")
        // A path given as ./App is reported as App.
        let validate = try IAPRunner.run(["validate", "./App/"], in: root)
        XCTAssertEqual(validate.stdout, Self.finding)
        let lint = try IAPRunner.run(["lint", "./App/Price.swift"], in: root)
        XCTAssertTrue(lint.stdout.hasPrefix("App/Price.swift:1:13: warning:"), lint.stdout)
    }

    func testALinksTargetIsShownRelativeNeverAbsolute() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-links-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("repo"), outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Self.idList.write(to: root.appendingPathComponent("App/IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        try Self.idList.write(to: outside.appendingPathComponent("Other_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let fm = FileManager.default
        // Absolute link targets, as a script writes them: shown relative all the same.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Again_ProductIDs.plist").path,
                                  withDestinationPath: root.appendingPathComponent("App/IAP_ProductIDs.plist").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("App/Linked_ProductIDs.plist").path,
                                  withDestinationPath: outside.appendingPathComponent("Other_ProductIDs.plist").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("App/loop").path, withDestinationPath: root.path)
        let run = try IAPRunner.run(["validate", "--verbose", "."], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, """
            iap: passed over Again_ProductIDs.plist: a link to App/IAP_ProductIDs.plist, which is read there
            iap: passed over App/Linked_ProductIDs.plist: a link to ../outside/Other_ProductIDs.plist, outside the folders checked: not followed
            iap: passed over App/loop: a link to ., a folder already checked: not walked again
            1 file checked: 0 errors, 0 warnings, 1 info, 1 product in 1 catalog

            """)
        XCTAssertFalse(run.stderr.contains(base.path), run.stderr)
    }
}

/// Every walk stays inside the folders named: a link a pull request commits (to a file the CI job
/// can read, or a folder of them) is passed over, said under --verbose, and never read or quoted.
final class WalkStaysInsideTests: XCTestCase {
    func testLinksThatLeadOutOfTheFolderNamedAreNotFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-walk-inside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("repo/Sources/Inner"), withIntermediateDirectories: true)
        try Data("let token = \"$0.99 secret\"\n".utf8).write(to: outside.appendingPathComponent("Secret.swift"))
        try Data("let price = \"$1.99\"\n".utf8).write(to: root.appendingPathComponent("repo/Sources/Inner/Shop.swift"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("repo/Sources/Evil.swift").path, withDestinationPath: "../../outside/Secret.swift")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("repo/Sources/Linked").path, withDestinationPath: "../../outside")
        // A link that stays inside is linted like any file.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("repo/Sources/Alias.swift").path, withDestinationPath: "Inner/Shop.swift")
        let result = try IAPRunner.run(["lint", "Sources", "--verbose"], in: root.appendingPathComponent("repo"))
        XCTAssertEqual(result.stdout, """
        Sources/Alias.swift:1:13: warning: the literal shows a price ('$1.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]
        Sources/Inner/Shop.swift:1:13: warning: the literal shows a price ('$1.99'); show the product's displayPrice so every storefront sees its own [hardcoded-price]

        """)
        XCTAssertTrue(result.stderr.contains("iap: passed over Sources/Evil.swift: a link to ../../outside/Secret.swift, outside the folders checked: not followed\n"), result.stderr)
        XCTAssertTrue(result.stderr.contains("iap: passed over Sources/Linked: a link to ../../outside, outside the folders checked: not followed\n"), result.stderr)
        XCTAssertFalse(result.stdout.contains("secret") || result.stderr.contains("secret"))
    }

    /// The bundle ID is never read from outside the repository: not through a `project.pbxproj`
    /// linked out of it, nor through an XcodeGen `include:` that climbs out, is absolute or goes
    /// through such a link. `--verbose` names what was not followed; nothing outside is quoted.
    func testProjectsAndSpecIncludesStayInsideTheRepository() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-spec-inside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let target = "targets:\n  App:\n    type: application\n    settings:\n      base:\n        PRODUCT_BUNDLE_IDENTIFIER: com.secret.token\n"
        try write("outside/outside.yml", target)
        try write("outside/project.pbxproj", """
        {
        \tobjects = {
        \t\tT1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; };
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
        \t\tC1 = {isa = XCBuildConfiguration; name = Release; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.secret.token; }; };
        \t};
        }
        """)
        try write("repo/.git/HEAD", "ref: refs/heads/main\n")
        let idList = "<plist version=\"1.0\">\n<array>\n\t<string>com.acme.coins</string>\n</array>\n</plist>\n"
        try write("repo/Gen/IAP_ProductIDs.plist", idList)
        try write("repo/Gen/project.yml", "name: Gen\ninclude:\n  - ../../outside/outside.yml\n  - \(root.path)/outside/outside.yml\n  - linked.yml\n")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("repo/Gen/linked.yml").path, withDestinationPath: "../../outside/outside.yml")
        try write("repo/Linked/IAP_ProductIDs.plist", idList)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("repo/Linked/App.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("repo/Linked/App.xcodeproj/project.pbxproj").path,
                                                   withDestinationPath: "../../../outside/project.pbxproj")
        let list = try IAPRunner.run(["list", "--verbose", "."], in: root.appendingPathComponent("repo"))
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("Gen: 1 product\n") && list.stdout.contains("Linked: 1 product\n"), list.stdout)
        XCTAssertEqual(list.stderr.split(separator: "\n").filter { !$0.hasPrefix("iap: passed over .git:") }.joined(separator: "\n"), """
        iap: passed over Gen/project.yml: its include '../../outside/outside.yml' leads out of the repository ('..'): not read
        iap: passed over Gen/project.yml: its include '\(root.path)/outside/outside.yml' is an absolute path: not read
        iap: passed over Gen/project.yml: its include 'linked.yml' leads out of the repository through the link 'linked.yml': not read
        iap: passed over Linked/App.xcodeproj/project.pbxproj: an Xcode project that leads out of the repository through the link 'project.pbxproj': not read
        """)
        let validate = try IAPRunner.run(["validate", "--verbose", "."], in: root.appendingPathComponent("repo"))
        for output in [list.stdout, list.stderr, validate.stdout, validate.stderr] {
            XCTAssertFalse(output.contains("secret"), output)
        }
    }

    /// `report --sales FOLDER` takes the reports in the folder, not links out of it, and never
    /// quotes a file that is not a report (a walk takes every .txt there).
    func testTheSalesWalkStaysInsideAndQuotesNoOtherFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iap-sales-inside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("reports"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/Sales/S_D_80012345_20261102.txt"),
                                         to: root.appendingPathComponent("reports/S_D_80012345_20261102.txt"))
        try Data("AWS_SECRET=abc123 token\n".utf8).write(to: root.appendingPathComponent("secret.txt"))
        try Data("AWS_SECRET=abc123 token\n".utf8).write(to: root.appendingPathComponent("reports/notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("reports/S_D_80012345_20261109.txt").path,
                                                   withDestinationPath: "../secret.txt")
        let result = try IAPRunner.run(["report", "--sales", "reports", "--format", "csv"], in: root)
        XCTAssertFalse(result.stdout.contains("20261109") || result.stderr.contains("20261109"), result.stderr)
        XCTAssertFalse(result.stdout.contains("SECRET") || result.stderr.contains("SECRET"), result.stderr)
        XCTAssertTrue(result.stderr.contains("reports/notes.txt:1:1: error: not a tab-separated App Store Connect report: its first line has no tab (23 characters) [unreadable-report]"),
                      result.stderr)
    }
}
