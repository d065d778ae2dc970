import AppStoreConnect
import CatalogJoins
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint
import TestSupport
import XCTest

/// `iap asc ready`'s verdicts and rules: every readiness rule's examples, each place's verdict
/// for each cause, and the product IDs lint's flow hands on.
final class ReadinessTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-ready-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes the example's files (the marker taken out), loads its catalog, lints its code for the
    /// IDs it asks for, and judges them against its snapshot.
    func run(_ example: RuleExample, in name: String, storefronts: [String] = []) throws -> (readiness: Readiness, marker: SourceLocation?) {
        let dir = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var catalogPaths: [String] = [], codePaths: [String] = []
        var marker: SourceLocation?
        var snapshot = (path: "", text: "")
        for file in example.files {
            let path = dir.appendingPathComponent(file.name).path
            let marked = MarkedText(file.text)
            if let line = marked.line, let column = marked.column { marker = SourceLocation(path: path, line: line, column: column) }
            try marked.text.write(toFile: path, atomically: true, encoding: .utf8)
            if file.name == ASCExample.snapshotName {
                snapshot = (path, marked.text)
            } else if file.name.hasSuffix(".swift") {
                codePaths.append(path)
            } else {
                catalogPaths.append(path)
            }
        }
        let decoded = try ASCSnapshot.decode(Data(snapshot.text.utf8), path: snapshot.path)
        let catalog = CatalogLoader(bundleIDOverride: example.bundleID).loadCatalog(name: name, paths: catalogPaths, explicit: Set(catalogPaths))
        let requested = SourceLinter(context: LintContext(catalog: catalog)).run(files: codePaths).requested
        let readiness = Readiness(catalog: catalog, drift: DriftCheck(snapshot: decoded, path: snapshot.path, text: snapshot.text),
                                  requests: requested.map { CodeRequest(id: $0.id, location: $0.location) }, storefronts: storefronts)
        return (readiness, marker)
    }

    func testEveryReadinessRuleFiresAtItsMarkerAndNotOnItsCounterExample() throws {
        XCTAssertEqual(ReadinessRules.all.map(\.id), ["ready-unknown-product", "ready-bundle-prefix", "ready-not-approved", "ready-storefront"])
        for rule in ReadinessRules.all {
            XCTAssertFalse(rule.triggering.isEmpty || rule.nonTriggering.isEmpty, rule.id)
            for (n, example) in rule.triggering.enumerated() {
                let (readiness, marker) = try run(example, in: "\(rule.id)-t\(n)")
                let mine = readiness.findings().filter { $0.ruleID == rule.id }
                XCTAssertEqual(mine.count, 1, "\(rule.id): \(readiness.findings().map(\.message))")
                XCTAssertEqual(mine.first?.location, marker, rule.id)
                XCTAssertEqual(mine.first?.severity, rule.severity, rule.id)
            }
            for (n, example) in rule.nonTriggering.enumerated() {
                let (readiness, _) = try run(example, in: "\(rule.id)-n\(n)")
                XCTAssertEqual(readiness.findings().filter { $0.ruleID == rule.id }.map(\.message), [], rule.id)
            }
        }
    }

    /// One example with a product for each cause; the verdict at each place, and the exit rule.
    func testEachCauseGivesItsVerdictAtEachPlace() throws {
        let code = #"let products = try await Product.products(for: ["com.acme.app.coins", "com.acme.app.gold", "com.acme.app.ghost", "com.acme.app.jpn"])"#
        let example = ASCExample.ready(
            code: code, ids: ["com.acme.app.coins", "com.acme.app.pro", "com.acme.app.broken", "com.acme.app.missing", "com.acme.app.jpn"],
            remote: [.forSale("com.acme.app.coins", territories: ["JPN", "USA"], price: "0.99"),
                     .forSale("com.acme.app.pro", state: "READY_TO_SUBMIT", territories: ["USA"], price: "4.99"),
                     .purchase("com.acme.app.broken", type: "CONSUMABLE", state: "MISSING_METADATA"),
                     .purchase("gold", type: "CONSUMABLE"),
                     .forSale("com.acme.app.jpn", territories: ["JPN"], price: "2.99")])
        let (readiness, _) = try run(example, in: "causes", storefronts: ["USA"])
        XCTAssertEqual(readiness.places, [Readiness.Place.sandbox, .appStore("USA")])
        let verdicts: [String: [Readiness.Verdict]] = Dictionary(uniqueKeysWithValues: readiness.rows.map { ($0.id, $0.verdicts) })
        XCTAssertEqual(readiness.rows.map(\.id), ["com.acme.app.coins", "com.acme.app.pro", "com.acme.app.broken", "com.acme.app.missing",
                                                  "com.acme.app.jpn", "com.acme.app.gold", "com.acme.app.ghost"])
        XCTAssertEqual(verdicts["com.acme.app.coins"], [.served, .served])
        XCTAssertEqual(verdicts["com.acme.app.pro"], [.served, .notServed("READY_TO_SUBMIT: not approved")])
        XCTAssertEqual(verdicts["com.acme.app.broken"], [.notServed("MISSING_METADATA"), .notServed("MISSING_METADATA")])
        XCTAssertEqual(verdicts["com.acme.app.missing"], [.notServed("not in App Store Connect"), .notServed("not in App Store Connect")])
        XCTAssertEqual(verdicts["com.acme.app.jpn"], [.served, .notServed("not available in USA")])
        XCTAssertEqual(verdicts["com.acme.app.gold"], [.notServed("not in App Store Connect, which has 'gold'"),
                                                       .notServed("not in App Store Connect, which has 'gold'")])
        XCTAssertEqual(verdicts["com.acme.app.ghost"], [.notServed("not in App Store Connect"), .notServed("not in App Store Connect")])
        // Every ID but coins is asked for (the product list, or the code) and not served in the App Store.
        XCTAssertEqual(readiness.askedForAndNotServed.map(\.id), ["com.acme.app.pro", "com.acme.app.broken", "com.acme.app.missing",
                                                                  "com.acme.app.jpn", "com.acme.app.gold", "com.acme.app.ghost"])
        let byRule = Dictionary(grouping: readiness.findings(), by: \.ruleID).mapValues(\.count)
        XCTAssertEqual(byRule, ["asc-missing-product": 1, "asc-product-not-ready": 1, "ready-not-approved": 1, "ready-storefront": 1,
                                "ready-bundle-prefix": 1, "ready-unknown-product": 1])
        // iap check has lint's unknown-product-id on the ghost's literal: the readiness rule stays out.
        XCTAssertEqual(Set(readiness.ruleFindings(inCheck: true).map(\.ruleID)), ["ready-not-approved", "ready-storefront", "ready-bundle-prefix"])
    }

    func testWhatTheSnapshotDoesNotShowIsUnknownNeverServed() throws {
        // Territories not pulled (a snapshot without --availability), and a storefront without prices.
        let example = ASCExample.ready(ids: ["com.acme.app.coins"], remote: [.forSale("com.acme.app.coins", territories: nil, price: "0.99")])
        let (readiness, _) = try run(example, in: "unknown", storefronts: ["USA", "JPN"])
        XCTAssertEqual(readiness.rows.map(\.verdicts), [[.served, .unknown("availability not pulled (iap asc pull --availability)"),
                                                         .unknown("availability not pulled (iap asc pull --availability)")]])
        XCTAssertEqual(readiness.askedForAndNotServed.map(\.id), [])
        // Territories pulled, a price only in the snapshot's storefront: JPN's price is not known.
        let usaOnly = ASCExample.ready(ids: ["com.acme.app.coins"], remote: [.forSale("com.acme.app.coins", territories: ["JPN", "USA"], price: "0.99")])
        XCTAssertEqual(try run(usaOnly, in: "usa-only", storefronts: ["USA", "JPN"]).readiness.rows.map(\.verdicts),
                       [[.served, .served, .unknown("prices pulled for USA only (iap asc pull --all-storefronts)")]])
        // Every territory's price pulled: each storefront has its answer.
        let everywhere = ASCExample.ready(ids: ["com.acme.app.coins"], remote: [
            .forSale("com.acme.app.coins", territories: ["JPN", "USA"], price: "0.99", pricedIn: ["USA"]),
        ])
        let all = try run(everywhere, in: "everywhere", storefronts: ["all"]).readiness
        XCTAssertEqual(all.places, [.sandbox, .appStore("JPN"), .appStore("USA")])
        XCTAssertEqual(all.rows.map(\.verdicts), [[.served, .notServed("no price in JPN"), .served]])
    }

    func testLintHandsOnTheIDsTheCodeAsksForInSwiftAndObjectiveC() throws {
        let swift = folder.appendingPathComponent("Store.swift")
        try """
        let ids: Set<String> = ["com.acme.app.coins", "com.acme.app.gold"]
        let request = SKProductsRequest(productIdentifiers: ids)
        print("com.acme.app.logged")
        """.write(to: swift, atomically: true, encoding: .utf8)
        let objc = folder.appendingPathComponent("Store.m")
        try """
        NSSet *ids = [NSSet setWithObjects:@"com.acme.app.coins", @"com.acme.app.pro", nil];
        SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
        """.write(to: objc, atomically: true, encoding: .utf8)
        let context = LintContext(productConstants: ["com.acme.app.coins": "coins"])
        let run = SourceLinter(context: context).run(files: [objc.path, swift.path])
        XCTAssertEqual(run.requested.map { "\(($0.location.path as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.id)" },
                       ["Store.m:1:36 com.acme.app.coins", "Store.m:1:59 com.acme.app.pro",
                        "Store.swift:1:25 com.acme.app.coins", "Store.swift:1:47 com.acme.app.gold"])
        // Handing them on is no finding: the catalog's ID written as a literal, and the one it lacks, in each file.
        XCTAssertEqual(run.diagnostics.map { "\(($0.location.path as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.ruleID)" },
                       ["Store.m:1:36 hardcoded-product-id", "Store.m:1:59 unknown-product-id",
                        "Store.swift:1:25 hardcoded-product-id", "Store.swift:1:47 unknown-product-id"])
    }

    func testAnAskThroughAnotherFilesDeclarationsIsFoundAndGivesNoLintFinding() throws {
        let ids = folder.appendingPathComponent("IDs.swift")
        try """
        enum PurchaseID: String, CaseIterable {
            case plus = "com.acme.app.plus"
            case tip = "com.acme.app.tip"
        }
        enum Plan: String {
            case monthly = "com.acme.app.monthly"
            case yearly = "com.acme.app.yearly"
        }
        enum Legacy: String { case yearly = "com.acme.app.legacy.yearly" }
        enum ProductIDs { static let gold = "com.acme.app.gold" }
        let kExtraIDs = ["com.acme.app.extra"]
        struct Store { enum ProductID: String { case silver = "com.acme.app.silver" } }
        """.write(to: ids, atomically: true, encoding: .utf8)
        let view = folder.appendingPathComponent("View.swift")
        try """
        func a() async throws { _ = try await Product.products(for: PurchaseID.allCases.compactMap { $0.rawValue }) }
        func b() { SKProductsRequest(productIdentifiers: Set(([.monthly, .yearly] as [Plan]).map { $0.rawValue })).start() }
        func c() async throws { _ = try await Product.products(for: [ProductIDs.gold, Store.ProductID.silver.rawValue]) }
        func d() async throws { _ = try await Product.products(for: kExtraIDs) }
        #Preview { Task { _ = try await Product.products(for: [ProductIDs.gold]) } }
        """.write(to: view, atomically: true, encoding: .utf8)
        let context = LintContext(productConstants: ["com.acme.app.plus": "plus"])
        let run = SourceLinter(context: context).run(files: [ids.path, view.path])
        // `.yearly` is a case of two enums: which one is not known, so neither is said; a preview ships nothing.
        XCTAssertEqual(run.requested.map { "\(($0.location.path as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.id)" },
                       ["View.swift:1:61 com.acme.app.plus", "View.swift:1:61 com.acme.app.tip",
                        "View.swift:2:50 com.acme.app.monthly",
                        "View.swift:3:61 com.acme.app.gold", "View.swift:3:61 com.acme.app.silver",
                        "View.swift:4:61 com.acme.app.extra"])
        // Lint's findings are those of each file alone.
        let alone = SourceLinter(context: context).run(files: [ids.path]).diagnostics + SourceLinter(context: context).run(files: [view.path]).diagnostics
        XCTAssertEqual(run.diagnostics, alone.sortedForOutput())
    }
}
