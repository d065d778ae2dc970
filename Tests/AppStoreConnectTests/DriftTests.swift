import Diagnostics
import Foundation
import TestSupport
import IAPCatalog
import XCTest
@testable import AppStoreConnect
@testable import CatalogJoins

/// The drift rules: every example fires at its marker (or not at all), and each field compared.
final class DriftTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes the example's files (the marker taken out), loads its catalog and compares it with its snapshot.
    func run(_ example: RuleExample, in name: String) throws -> (findings: [Diagnostic], marker: SourceLocation?) {
        let dir = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var catalogPaths: [String] = []
        var marker: SourceLocation?
        var snapshotPath = ""
        var snapshotText = ""
        for file in example.files {
            let path = dir.appendingPathComponent(file.name).path
            let marked = MarkedText(file.text)
            if let line = marked.line, let column = marked.column { marker = SourceLocation(path: path, line: line, column: column) }
            let text = marked.text
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            if file.name == ASCExample.snapshotName {
                (snapshotPath, snapshotText) = (path, text)
            } else {
                catalogPaths.append(path)
            }
        }
        let snapshot = try ASCSnapshot.decode(Data(snapshotText.utf8), path: snapshotPath)
        let catalog = CatalogLoader(bundleIDOverride: example.bundleID).loadCatalog(name: name, paths: catalogPaths, explicit: Set(catalogPaths))
        return (DriftCheck(snapshot: snapshot, path: snapshotPath, text: snapshotText).check(catalog), marker)
    }

    func testEveryDriftRuleFiresAtItsMarkerAndNotOnItsCounterExample() throws {
        for rule in ASCRules.all {
            XCTAssertFalse(rule.triggering.isEmpty || rule.nonTriggering.isEmpty, rule.id)
            for (n, example) in rule.triggering.enumerated() {
                let (findings, marker) = try run(example, in: "\(rule.id)-t\(n)")
                let mine = findings.filter { $0.ruleID == rule.id }
                XCTAssertEqual(mine.count, 1, "\(rule.id): \(findings.map(\.message))")
                XCTAssertEqual(mine.first?.location, marker, rule.id)
                XCTAssertEqual(mine.first?.severity, rule.severity, rule.id)
            }
            for (n, example) in rule.nonTriggering.enumerated() {
                let (findings, _) = try run(example, in: "\(rule.id)-n\(n)")
                XCTAssertEqual(findings.filter { $0.ruleID == rule.id }.map(\.message), [], rule.id)
            }
        }
    }

    func testTheMessagesNameBothPlaces() throws {
        let (missing, _) = try run(ASCMissingProductRule.description.triggering[0], in: "missing")
        let dir = folder.appendingPathComponent("missing").path
        XCTAssertEqual(missing.map(\.message), [
            "'com.acme.app.coins' is not in App Store Connect (app 'Acme', \(dir)/asc-snapshot.json): a product request for it returns nothing",
        ])
        let (drift, _) = try run(ASCDriftRule.description.triggering[0], in: "drift")
        let driftDir = folder.appendingPathComponent("drift").path
        XCTAssertEqual(drift.map(\.message), [
            "'com.acme.app.pro.monthly': the subscription period is P1M here (\(driftDir)/Metadata.plist:12:33) but P1Y (ONE_YEAR) in App Store Connect (\(driftDir)/asc-snapshot.json:25:11)",
        ])
        let (notReady, _) = try run(ASCProductNotReadyRule.description.triggering[0], in: "state")
        XCTAssertEqual(notReady.map(\.message).first?.hasPrefix("'com.acme.app.pro' is MISSING_METADATA in App Store Connect ("), true)
    }

    func testEachComparedFieldAndWhatIsNotCompared() throws {
        let metadata = """
        \t\t<key>com.acme.app.plus</key>
        \t\t<dict>
        \t\t\t<key>kind</key><string>auto-renewable</string>
        \t\t\t<key>subscriptionPeriod</key><string>P7D</string>
        \t\t\t<key>subscriptionGroup</key><string>Plus</string>
        \t\t\t<key>groupLevel</key><integer>2</integer>
        \t\t\t<key>familyShareable</key><true/>
        \t\t\t<key>localizations</key><dict>
        \t\t\t\t<key>en_US</key><dict><key>displayName</key><string>Plus</string><key>description</key><string>All of it</string></dict>
        \t\t\t\t<key>fr-FR</key><dict><key>displayName</key><string>Plus</string></dict>
        \t\t\t</dict>
        \t\t</dict>
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict><key>kind</key><string>consumable</string></dict>
        """
        var example = ASCExample.drift(metadata: metadata, remote: [
            .subscription("com.acme.app.plus", group: "Plus Tier", period: "ONE_WEEK", level: 1),
            .purchase("com.acme.app.gold", type: "NON_CONSUMABLE"),
        ])
        // Give the subscription an en-US localization with another description.
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.subscriptionGroups[0].subscriptions[0].familySharable = true
        snapshot.subscriptionGroups[0].subscriptions[0].localizations = [ASCSnapshot.Localization(locale: "en-US", name: "Plus", description: "Everything", state: nil)]
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "fields")
        let messages = findings.map { $0.message.replacingOccurrences(of: folder.appendingPathComponent("fields").path + "/", with: "") }
        XCTAssertEqual(messages, [
            "'com.acme.app.plus': the subscription group is 'Plus' here (Metadata.plist:13:32) but 'Plus Tier' in App Store Connect (asc-snapshot.json:39:11)",
            "'com.acme.app.plus': the group level is 2 here (Metadata.plist:14:25) but 1 in App Store Connect (asc-snapshot.json:39:11)",
            "'com.acme.app.plus': the en_US description is 'All of it' here (Metadata.plist:17:5) but 'Everything' in App Store Connect (asc-snapshot.json:39:11)",
            "'com.acme.app.plus': the fr-FR localization is present here (Metadata.plist:18:5) but absent in App Store Connect (asc-snapshot.json:39:11)",
            "'com.acme.app.gold': the kind is consumable here (Metadata.plist:22:24) but non-consumable in App Store Connect (asc-snapshot.json:16:7)",
        ])
        XCTAssertEqual(Set(findings.map(\.ruleID)), ["asc-drift"])
    }

    func testSnapshotLinesAreFoundInAnyLayout() {
        let compact = #"{"inAppPurchases":[{"productId":"a.b"}],"x":1}"# + "\n" + #"  "productId"  :  "c\"d" ,"#
        let lines = DriftCheck.productLines(compact, path: "s.json")
        XCTAssertEqual(lines["a.b"], SourceLocation(path: "s.json", line: 1, column: 21))
        XCTAssertEqual(lines["c\"d"], SourceLocation(path: "s.json", line: 2, column: 3))
    }

    func testPricesAndOffersAreComparedInTheSnapshotsStorefront() throws {
        let metadata = """
        \t\t<key>com.acme.app.plus</key>
        \t\t<dict>
        \t\t\t<key>kind</key><string>auto-renewable</string>
        \t\t\t<key>subscriptionGroup</key><string>Plus</string>
        \t\t\t<key>price</key><string>2.99</string>
        \t\t\t<key>currency</key><string>USD</string>
        \t\t\t<key>introductoryOffer</key><dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string></dict>
        \t\t</dict>
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict><key>kind</key><string>consumable</string><key>price</key><string>0.990</string><key>currency</key><string>USD</string></dict>
        """
        var example = ASCExample.drift(metadata: metadata, remote: [
            .subscription("com.acme.app.plus", group: "Plus", period: "ONE_MONTH"), .purchase("com.acme.app.gold", type: "CONSUMABLE"),
        ])
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.storefront = "USA"
        snapshot.subscriptionGroups[0].subscriptions[0].price = ASCSnapshot.Price(amount: "3.99", currency: "USD")
        snapshot.subscriptionGroups[0].subscriptions[0].introductoryOffer = ASCSnapshot.IntroductoryOffer(mode: "FREE_TRIAL", duration: "TWO_WEEKS", periods: 1, price: nil)
        snapshot.inAppPurchases[0].price = ASCSnapshot.Price(amount: "0.99", currency: "USD")
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "prices")
        let messages = findings.map { $0.message.replacingOccurrences(of: folder.appendingPathComponent("prices").path + "/", with: "") }
        XCTAssertEqual(messages.count, 2, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix("'com.acme.app.plus': the price in USA is 2.99 USD here (Metadata.plist:13:20) but 3.99 USD in App Store Connect (asc-snapshot.json:"), messages[0])
        XCTAssertTrue(messages[1].hasPrefix("'com.acme.app.plus': the introductory offer is free-trial P1W here (Metadata.plist:15:32) but free-trial P2W in App Store Connect (asc-snapshot.json:"), messages[1])
        // Without a storefront in the snapshot, no price or offer is compared.
        snapshot.storefront = nil
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        XCTAssertEqual(try run(example, in: "unpriced").findings.map(\.message), [])
    }

    func testEveryReviewStateStoreKitDoesNotServeIsAWarningAndNoOtherIs() throws {
        // Every state of the document's InAppPurchaseState enum (version 4.4.1).
        let states = ["MISSING_METADATA", "WAITING_FOR_UPLOAD", "PROCESSING_CONTENT", "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW",
                      "DEVELOPER_ACTION_NEEDED", "PENDING_BINARY_APPROVAL", "APPROVED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE", "REJECTED"]
        let ids = states.map { "com.acme.app.\($0.lowercased())" }
        let example = ASCExample.drift(ids: ids, remote: zip(ids, states).map { .purchase($0, type: "CONSUMABLE", state: $1) })
        // This rule's findings: another drift rule may say something else of a state.
        let findings = try run(example, in: "states").0.filter { $0.ruleID == ASCProductNotReadyRule.id }
        XCTAssertEqual(findings.count, 6)
        XCTAssertEqual(findings.compactMap { $0.message.firstMatch(of: /is ([A-Z_]+) in App Store Connect/).map { String($0.1) } },
                       ["MISSING_METADATA", "WAITING_FOR_UPLOAD", "DEVELOPER_ACTION_NEEDED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE", "REJECTED"])
        XCTAssertTrue(findings.allSatisfy { $0.severity == .warning })
    }

    func testAPriceTheCatalogDeclaresThatAppStoreConnectLacksIsDrift() throws {
        let metadata = """
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict><key>kind</key><string>consumable</string><key>price</key><string>0.99</string><key>currency</key><string>USD</string></dict>
        """
        var example = ASCExample.drift(metadata: metadata, remote: [.purchase("com.acme.app.gold", type: "CONSUMABLE")])
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.storefront = "USA"
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "none")
        let messages = findings.map { $0.message.replacingOccurrences(of: folder.appendingPathComponent("none").path + "/", with: "") }
        XCTAssertEqual(messages, ["'com.acme.app.gold': the price in USA is 0.99 USD here (Metadata.plist:10:67) but none (no price in USA today) in App Store Connect (asc-snapshot.json:16:7)"])
        XCTAssertEqual(findings.first?.fix?.message, "set its price in App Store Connect (Pricing and Availability), then pull the snapshot again: StoreKit does not sell a product without a price")
    }

    func testWithEveryTerritorysPriceEachStorefrontTheCatalogNamesIsCompared() throws {
        // A base price (no storefront: never compared but in the snapshot's storefront) and prices
        // by storefront: GBR differs, CAN is right, FRA has none in App Store Connect.
        let metadata = """
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict><key>kind</key><string>consumable</string><key>price</key><string>0.99</string><key>currency</key><string>USD</string>
        \t\t<key>prices</key><dict><key>GBR</key><string>0.99</string><key>CAN</key><string>1.39</string><key>FRA</key><string>0.99</string></dict></dict>
        """
        var example = ASCExample.drift(metadata: metadata, remote: [.purchase("com.acme.app.gold", type: "CONSUMABLE")])
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.storefront = "USA"
        snapshot.inAppPurchases[0].price = ASCSnapshot.Price(amount: "0.99", currency: "USD")
        snapshot.inAppPurchases[0].prices = ASCSnapshot.TerritoryPrices([
            "USA": ASCSnapshot.Price(amount: "0.99", currency: "USD"), "GBR": ASCSnapshot.Price(amount: "1.09", currency: "GBP"),
            "CAN": ASCSnapshot.Price(amount: "1.39", currency: "CAD"), "ECU": ASCSnapshot.Price(amount: "1.19", currency: "USD"),
        ])
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "everywhere")
        let messages = findings.map { $0.message.replacingOccurrences(of: folder.appendingPathComponent("everywhere").path + "/", with: "") }
        // ECU (USD, 1.19) is not compared with the base price: App Store Connect's price there is its own.
        XCTAssertEqual(messages, [
            "'com.acme.app.gold': the price in GBR is 0.99 GBP here (Metadata.plist:11:26) but 1.09 GBP in App Store Connect (asc-snapshot.json:26:7)",
            "'com.acme.app.gold': the price in FRA is 0.99 EUR here (Metadata.plist:11:96) but none (no price in FRA today) in App Store Connect (asc-snapshot.json:26:7)",
        ])
    }

    func testAPriceDeclaredFromADayAgreesOnceAppStoreConnectHasItScheduled() throws {
        let metadata = """
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict><key>kind</key><string>consumable</string><key>price</key><string>1.99</string><key>currency</key><string>USD</string>
        \t\t<key>priceStartDate</key><string>2027-03-01</string><key>prices</key><dict><key>GBR</key><string>1.79</string></dict></dict>
        """
        var example = ASCExample.drift(metadata: metadata, remote: [.purchase("com.acme.app.gold", type: "CONSUMABLE")])
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.storefront = "USA"
        snapshot.inAppPurchases[0].price = ASCSnapshot.Price(amount: "0.99", currency: "USD")
        snapshot.inAppPurchases[0].prices = ASCSnapshot.TerritoryPrices(["USA": .init(amount: "0.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")])
        // USA is scheduled from the day, GBR is not: only GBR differs.
        snapshot.inAppPurchases[0].scheduledPrices = .init(["USA": [.init(start: "2027-03-01", price: .init(amount: "1.99", currency: "USD"))],
                                                            "GBR": [.init(start: "2027-06-01", price: .init(amount: "1.79", currency: "GBP"))]])
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "scheduled")
        let messages = findings.map { $0.message.replacingOccurrences(of: folder.appendingPathComponent("scheduled").path + "/", with: "") }
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.hasPrefix("'com.acme.app.gold': the price in GBR is 1.79 GBP here (Metadata.plist:11:") ?? false, "\(messages)")
        XCTAssertTrue(messages.first?.contains("but 0.89 GBP (nothing scheduled from 2027-03-01) in App Store Connect") ?? false, "\(messages)")
        // Without every territory's prices, the snapshot cannot say what is scheduled: nothing is reported.
        snapshot.inAppPurchases[0].prices = nil
        snapshot.inAppPurchases[0].scheduledPrices = nil
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        XCTAssertEqual(try run(example, in: "storefront").findings.map(\.message), [])
    }

    func testAProductForSaleWhereItHasNoPriceIsFoundOverEveryTerritory() throws {
        let all = (ASCUnpricedTerritoryRule.description.triggering[0])
        let (findings, _) = try run(all, in: "unpriced")
        let dir = folder.appendingPathComponent("unpriced").path
        XCTAssertEqual(findings.filter { $0.ruleID == ASCUnpricedTerritoryRule.id }.map(\.message), [
            "'com.acme.app.pro' is for sale in GBR with no price there in App Store Connect (\(dir)/asc-snapshot.json:29:7), so the App Store there does not return it (1 of the 3 territories of its availability)",
        ])
        // Ten territories unpriced: eight named, the count of the rest; one finding a product.
        let many = ["AUS", "BRA", "CAN", "CHN", "DEU", "FRA", "GBR", "IND", "JPN", "KOR", "USA"]
        let example = ASCExample.drift(ids: ["com.acme.app.pro", "com.acme.app.gone"], remote: [
            .forSale("com.acme.app.pro", territories: many, price: "4.99", pricedIn: ["USA"]),
            // Withheld anyway: asc-product-not-ready says so, not this rule.
            .forSale("com.acme.app.gone", state: "REMOVED_FROM_SALE", territories: many, price: nil, pricedIn: []),
        ])
        let found = try run(example, in: "many").findings.filter { $0.ruleID == ASCUnpricedTerritoryRule.id }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found[0].message.hasPrefix("'com.acme.app.pro' is for sale in AUS, BRA, CAN, CHN, DEU, FRA, GBR, IND and 2 more with no price there"), found[0].message)
        XCTAssertTrue(found[0].message.hasSuffix("(10 of the 11 territories of its availability)"), found[0].message)
        XCTAssertEqual(found[0].fix?.message, "give it a price in them in App Store Connect (its prices, or its price schedule's base territory), or take them out of its availability; then pull again")
        // Not pulled with --all-storefronts: nothing is known, nothing is said.
        let unknown = ASCExample.drift(ids: ["com.acme.app.pro"], remote: [.forSale("com.acme.app.pro", territories: many, price: "4.99")])
        XCTAssertEqual(try run(unknown, in: "unknown").findings.filter { $0.ruleID == ASCUnpricedTerritoryRule.id }.count, 0)
    }

    func testDriftFindingsAreCappedAtAHundredPerRuleLikeEveryRule() throws {
        let ids = (0..<250).map { "com.acme.app.p\($0)" }
        let example = ASCExample.drift(ids: ids, remote: (0..<250).map { .purchase("com.acme.app.r\($0)", type: "CONSUMABLE") })
        let (findings, _) = try run(example, in: "many")
        let missing = findings.filter { $0.ruleID == "asc-missing-product" }
        let extra = findings.filter { $0.ruleID == "asc-extra-product" }
        XCTAssertEqual([missing.count, extra.count], [101, 101])
        XCTAssertEqual(missing.last?.message, "150 more 'asc-missing-product' findings not shown (250 in all, the first 100 above): one cause is likely behind them all; fix it and run again")
        XCTAssertEqual(extra.last?.message, "150 more 'asc-extra-product' findings not shown (250 in all, the first 100 above): one cause is likely behind them all; fix it and run again")
    }

    func testTheAppsNameFromASnapshotIsQuotedBoundedWithControlCharactersEscaped() throws {
        var example = ASCExample.drift(ids: ["com.acme.app.pro"], remote: [])
        let index = example.files.firstIndex { $0.name == ASCExample.snapshotName }!
        var snapshot = try ASCSnapshot.decode(Data(example.files[index].text.utf8), path: "s")
        snapshot.app.name = "\u{1B}]0;owned\u{07}" + String(repeating: "N", count: 3_990)
        example.files[index] = ExampleFile(ASCExample.snapshotName, snapshot.encoded())
        let (findings, _) = try run(example, in: "name")
        let message = try XCTUnwrap(findings.first { $0.ruleID == "asc-missing-product" }?.message)
        XCTAssertTrue(message.contains("(app '\\u{1B}]0;owned\\u{7}" + String(repeating: "N", count: 90) + "…' (4000 characters; the first 100 shown), "), message)
        XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 })
        XCTAssertLessThan(message.utf8.count, 400)
    }
}
