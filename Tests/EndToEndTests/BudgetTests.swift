import Foundation
import XCTest

/// Issue 22's bombs, one per class, each built here by a small generator: the run ends with the
/// exit status and the words docs/robustness.md (## Budgets) states, never a signal, and in the
/// time and memory a file of its size deserves. Peaks are asserted in `BoundedMemoryTests` below.
final class BudgetTests: XCTestCase {
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The offers fixture with an introductory offer of `periods` periods of `period`.
    static func offerCatalog(in folder: URL, periods: String, period: String = "P2Y", mode: String = "payUpFront") throws {
        let fixture = IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/StoreKit/Offers.storekit")
        let text = try String(contentsOf: fixture, encoding: .utf8).replacingOccurrences(
            of: #""introductoryOffer" : null"#,
            with: #""introductoryOffer" : { "displayPrice" : "0.99", "internalID" : "00000010", "numberOfPeriods" : \#(periods), "paymentMode" : "\#(mode)", "subscriptionPeriod" : "\#(period)" }"#)
        XCTAssertTrue(text.contains(periods))
        try text.write(to: folder.appendingPathComponent("Offers.storekit"), atomically: true, encoding: .utf8)
    }

    /// An introductory offer whose period × numberOfPeriods passes an Int trapped `price` and
    /// `report` (SIGILL); the count is now a positioned finding, read as 1.
    func testAnOfferLongerThanAnIntHoldsIsAFindingNotATrap() throws {
        let folder = try makeFolder()
        try Self.offerCatalog(in: folder, periods: "9223372036854775807")
        let validate = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(validate.status, 1)
        XCTAssertEqual(validate.stdout, """
            Offers.storekit:26:11: error: numberOfPeriods 9223372036854775807 of 'com.acme.app.pro.monthly' is not from 1 to 1000; read as 1 [invalid-metadata]
            Offers.storekit:26:11: error: introductory offer period 'P2Y' of 'com.acme.app.pro.monthly' is not one App Store Connect offers [unknown-subscription-period]

            """)
        let price = try IAPRunner.run(["price", "--catalog", "."], in: folder)
        XCTAssertEqual(price.status, 0, price.stderr)
        XCTAssertEqual(price.stdout, """
            ID                        LOCALE  PRICE  PER PERIOD   INTRODUCTORY OFFER
            com.acme.app.pro.monthly  en_US   $4.99  $4.99/month  $0.99 for 2 years

            """)
        // The report lists the finding (an error, so exit 1) beside the prices.
        let report = try IAPRunner.run(["report", ".", "--storefronts", "USA"], in: folder)
        XCTAssertEqual(report.status, 1, report.stderr)
        XCTAssertTrue(report.stdout.contains("| $0.99 for 2 years |"), report.stdout)
        // A negative count, which used to be taken silently, is the same finding.
        try Self.offerCatalog(in: folder, periods: "-3", mode: "payAsYouGo")
        XCTAssertTrue(try IAPRunner.run(["validate", "."], in: folder).stdout.hasPrefix(
            "Offers.storekit:26:11: error: numberOfPeriods -3 of 'com.acme.app.pro.monthly' is not from 1 to 1000; read as 1 [invalid-metadata]\n"))
    }

    /// Baseline counts that add up past an Int trapped when the baseline was applied.
    func testBaselineCountsPastAnIntAreAnErrorNotATrap() throws {
        let folder = try makeFolder()
        let entry = #"{"rule": "undeclared-kind", "path": "x", "subject": "s", "count": 9223372036854775807}"#
        try #"{"version": 1, "findings": [\#(entry), \#(entry.replacingOccurrences(of: "\"s\"", with: "\"t\""))]}"#
            .write(to: folder.appendingPathComponent("baseline.json"), atomically: true, encoding: .utf8)
        let catalog = IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame").path
        let run = try IAPRunner.run(["validate", catalog, "--baseline", "baseline.json"], in: folder)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "iap: error: baseline.json: findings[1]: the counts add up past 9223372036854775807; a count is how many times a finding occurs: recreate the baseline with --write-baseline baseline.json\n")
    }

    /// A binary-plist date of 1e300 seconds trapped `plist print` converting it to an integer.
    func testABinaryPlistDateBeyondYear9999IsAPositionedError() throws {
        let folder = try makeFolder()
        let seconds = (1e300).bitPattern
        var bytes = Array("bplist00".utf8) + [0x33] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds >> ($0 * 8)) }
        bytes += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 17]
        try Data(bytes).write(to: folder.appendingPathComponent("date.plist"))
        for command in [["plist", "print", "date.plist"], ["plist", "lint", "date.plist"]] {
            let run = try IAPRunner.run(command, in: folder)
            XCTAssertEqual(run.status, 1, command.joined(separator: " "))
            XCTAssertEqual(run.stdout + run.stderr,
                           "date.plist:1:9: error: binary property list: date 1e+300 s from 2001-01-01 is outside the years 0000 to 9999 a plist date can write\n")
        }
    }

    /// A product ID of a megabyte is quoted by its first 100 characters and its length, in every
    /// format (a 300 MB one made 314 MB of output).
    func testALongProductIDIsQuotedBounded() throws {
        let folder = try makeFolder()
        let id = "com.acme.app." + String(repeating: "a", count: 1 << 20)
        try "<plist><array><string>\(id)</string></array></plist>\n"
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let shown = "'com.acme.app." + String(repeating: "a", count: 87) + "…' (1048589 characters; the first 100 shown)"
        let text = try IAPRunner.run(["validate", "."], in: folder)
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stdout, """
            IAP_ProductIDs.plist:1:15: error: product ID is 1048589 characters long; App Store Connect allows at most 100 [id-too-long]
            IAP_ProductIDs.plist:1:15: info: kind of \(shown) is unknown: nothing declares it and no word of its ID tells; declare it in metadata [undeclared-kind]

            """)
        for format in ["json", "sarif", "junit", "checkstyle", "github", "gitlab", "markdown"] {
            let run = try IAPRunner.run(["validate", ".", "--format", format], in: folder)
            XCTAssertEqual(run.status, 1, format)
            XCTAssertLessThan(run.stdout.utf8.count, 40_000, format)
        }
    }

    /// A `.storekit` file of 2,000 subscription groups took 136 s: each group's line was looked
    /// for by reading the whole file again.
    func testAStoreKitFileOfManyGroupsIsReadInLinearTime() throws {
        let folder = try makeFolder()
        let groups = (0..<2000).map { g in
            """
                {
                  "id" : "G\(g)", "name" : "Group \(g)",
                  "localizations" : [ { "description" : "Group \(g)", "displayName" : "Group \(g)", "locale" : "en_US" } ],
                  "subscriptions" : [ {
                    "displayPrice" : "4.99", "familyShareable" : false, "groupNumber" : 1, "internalID" : "S\(g)",
                    "localizations" : [ { "description" : "Monthly \(g)", "displayName" : "Monthly \(g)", "locale" : "en_US" } ],
                    "productID" : "com.acme.app.group\(g).monthly", "recurringSubscriptionPeriod" : "P1M",
                    "referenceName" : "Monthly \(g)", "subscriptionGroupID" : "G\(g)", "type" : "RecurringSubscription"
                  } ]
                }
            """
        }
        let text = "{\n  \"products\" : [],\n  \"subscriptionGroups\" : [\n" + groups.joined(separator: ",\n")
            + "\n  ],\n  \"version\" : { \"major\" : 4, \"minor\" : 0 }\n}\n"
        try text.write(to: folder.appendingPathComponent("Groups.storekit"), atomically: true, encoding: .utf8)
        let start = Date()
        let run = try IAPRunner.run(["list", "Groups.storekit", "--format", "json"], in: folder)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "\"Group 1999\"").count, 2, "group 1999 listed once")
        XCTAssertLessThan(seconds, 30, "2,000 groups took \(seconds) s")
    }
}

extension BoundedMemoryTests {
    /// A 2 GiB sparse `.storekit` was read whole (4.2 GB); it is refused by its size, unread.
    func testAStoreKitFileOverTheLimitIsRefusedUnread() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-sparse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Huge.storekit").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: nil))
        XCTAssertEqual(truncate(file, 2 << 30), 0)
        let run = try IAPRunner.run(["validate", file])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "\(file): error: file is larger than 1073741824 bytes, the most iap reads of a StoreKit configuration; split the catalog into several files [malformed-catalog]\n")
        let (status, kilobytes) = try peak(["validate", file])
        XCTAssertEqual(status, 1)
        XCTAssertLessThan(kilobytes, 100_000, "peak \(kilobytes) KB refusing a 2 GiB file")
    }

    /// An `Info.plist` over the 1 GiB limit was read whole a second time for the C preprocessor
    /// (97 s, 3.4 GB); a walk now passes it over at once.
    func testAnInfoPlistOverTheLimitIsNotReadAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<plist><array><string>com.acme.app.coins</string></array></plist>\n"
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let info = folder.appendingPathComponent("Info.plist").path
        XCTAssertTrue(FileManager.default.createFile(atPath: info, contents: nil))
        XCTAssertEqual(truncate(info, (1 << 30) + (64 << 20)), 0)
        let start = Date()
        let (status, kilobytes) = try peak(["validate", folder.path, "--bundle-id", "com.acme.app"])
        XCTAssertEqual(status, 0)
        XCTAssertLessThan(kilobytes, 100_000, "peak \(kilobytes) KB")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    /// A 100 kB binary plist whose 50,000 references name one 50 kB string took 2.47 GB, in a
    /// walk too, where a `Settings.plist` is read and passed over.
    func testABinaryPlistOfSharedStringsIsBoundedInAWalk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Object 0: a 50,000-byte ASCII string; object 1 (the top): an array of 50,000 references to it.
        let (length, count) = (50_000, 50_000)
        func be(_ v: Int, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        var bytes = Array("bplist00".utf8)
        let offsets = [bytes.count, bytes.count + 2 + 4 + length]
        bytes += [0x5F, 0x12] + be(length, 4) + [UInt8](repeating: 0x61, count: length)
        bytes += [0xAF, 0x12] + be(count, 4) + [UInt8](repeating: 0, count: count)
        let table = bytes.count
        for offset in offsets { bytes += be(offset, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 1] + be(2, 8) + be(1, 8) + be(table, 8)
        try Data(bytes).write(to: folder.appendingPathComponent("Settings.plist"))
        try "<plist><array><string>com.acme.app.coins</string></array></plist>\n"
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let lint = try IAPRunner.run(["plist", "lint", "Settings.plist"], in: folder)
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout + lint.stderr,
                       "Settings.plist:1:9: error: shared strings and data expand to more than 17177456 bytes (16 MiB and 4 per byte of the file); refused\n")
        let walk = try IAPRunner.run(["validate", ".", "--verbose", "--bundle-id", "com.acme.app"], in: folder)
        XCTAssertEqual(walk.status, 0, walk.stderr)
        XCTAssertTrue(walk.stderr.contains("iap: passed over Settings.plist: not readable as a property list: shared strings and data expand to more than 17177456 bytes (16 MiB and 4 per byte of the file); refused\n"), walk.stderr)
        for arguments in [["plist", "lint", folder.appendingPathComponent("Settings.plist").path], ["validate", folder.path]] {
            let (status, kilobytes) = try peak(arguments)
            XCTAssertEqual(status, arguments[0] == "plist" ? 1 : 0)
            XCTAssertLessThan(kilobytes, 100_000, "peak \(kilobytes) KB: \(arguments)")
        }
    }

    /// `gen --check` on a stale file of 10,000 products built a table of every line against
    /// every line (7.1 GB, 35 s); it now compares, then aligns at most 1,000 changed lines.
    func testGenCheckOnAStaleFileOfTenThousandProductsIsBounded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = (0..<10_000).map { String(format: "<string>com.acme.app.product%05d</string>", $0) }
        try ("<plist><array>\n" + ids.joined(separator: "\n") + "\n</array></plist>\n")
            .write(to: folder.appendingPathComponent("IAP_ProductIDs.plist"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("ProductID.swift").path
        XCTAssertEqual(try IAPRunner.run(["gen", folder.path, "-o", output]).status, 0)
        // Every line changed: a trailing space on each.
        let generated = try String(contentsOfFile: output, encoding: .utf8)
        let stale = generated.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : $0 + " " }.joined(separator: "\n")
        try stale.write(toFile: output, atomically: true, encoding: .utf8)
        let run = try IAPRunner.run(["gen", folder.path, "-o", output, "--check"])
        XCTAssertEqual(run.status, 1)
        let first = generated.prefix { $0 != "\n" }
        XCTAssertEqual(run.stdout, """
            --- \(output)
            +++ \(output) (generated)
            @@ -1,1 +1,1 @@
            -\(first) 
            +\(first)
            # iap: the files differ in more than 1000 lines: only the first difference is shown; run iap gen \(folder.path) -o \(output) to write the file

            """)
        XCTAssertEqual(run.stderr, "iap: \(output) is stale: run iap gen \(folder.path) -o \(output) to update it\n")
        let (status, kilobytes) = try peak(["gen", folder.path, "-o", output, "--check"])
        XCTAssertEqual(status, 1)
        XCTAssertLessThan(kilobytes, 150_000, "peak \(kilobytes) KB")
    }
}
