import AppStoreConnect
import CatalogJoins
import Diagnostics
import Foundation
import IAPCatalog
import TestSupport
import XCTest

/// The price-points file (written, read back, refused when it is not App Store Connect's) and the
/// rules that check declared prices against it.
final class PricePointTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-price-points" }

    func run(_ example: RuleExample, in name: String) throws -> (findings: [Diagnostic], marker: SourceLocation?) {
        let dir = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var catalogPaths: [String] = []
        var marker: SourceLocation?
        var points: PricePoints?
        for file in example.files {
            let path = dir.appendingPathComponent(file.name).path
            let marked = MarkedText(file.text)
            if let line = marked.line, let column = marked.column { marker = SourceLocation(path: path, line: line, column: column) }
            try marked.text.write(toFile: path, atomically: true, encoding: .utf8)
            if file.name == PriceExample.pricePointsName {
                points = try PricePoints.decode(Data(marked.text.utf8), path: path)
            } else {
                catalogPaths.append(path)
            }
        }
        let catalog = CatalogLoader(bundleIDOverride: example.bundleID).loadCatalog(name: name, paths: catalogPaths, explicit: Set(catalogPaths))
        return (PricePointCheck(points: try XCTUnwrap(points), path: PriceExample.pricePointsName).check(catalog), marker)
    }

    func testEveryPriceRuleFiresAtItsMarkerAndNotOnItsCounterExample() throws {
        XCTAssertEqual(PricePointRules.all.map(\.id), ["price-not-a-point", "price-far-from-equalization"])
        for rule in PricePointRules.all {
            for (n, example) in rule.triggering.enumerated() {
                let (findings, marker) = try run(example, in: "\(rule.id)-t\(n)")
                let mine = findings.filter { $0.ruleID == rule.id }
                XCTAssertEqual(mine.count, 1, "\(rule.id): \(findings.map(\.message))")
                XCTAssertEqual(mine.first?.location, marker, rule.id)
            }
            for (n, example) in rule.nonTriggering.enumerated() {
                XCTAssertEqual(try run(example, in: "\(rule.id)-n\(n)").findings.map(\.message), [], rule.id)
            }
        }
    }

    func testTheMessagesNameTheNearestPointsAndTheGapAsCustomersSeeThem() throws {
        let (notAPoint, _) = try run(PriceNotAPointRule.description.triggering[0], in: "not-a-point")
        XCTAssertEqual(notAPoint.map(\.message), ["'com.acme.app.pro' costs $4.95 in USA, which is not an App Store Connect in-app purchase price point there "
                                                  + "(price-points.json); the nearest are $3.99 and $4.99"])
        XCTAssertEqual(notAPoint.first?.fix?.message, "choose $3.99 or $4.99")
        let (far, _) = try run(PriceFarFromEqualizationRule.description.triggering[0], in: "far")
        XCTAssertEqual(far.map(\.message), ["'com.acme.app.pro' costs ¥150 in JPN, 80% below ¥750, Apple's equalization of its base price $4.99 in USA (price-points.json)"])
    }

    func testAnOffersPriceIsHeldToTheSubscriptionsLadder() throws {
        let example = PriceExample.priced("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>",
                                          "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>",
                                          "<key>price</key><string>4.99</string>", "<key>currency</key><string>USD</string>",
                                          "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>pay-as-you-go</string>"
                                            + "<key>period</key><string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>1.50</string></dict>")
        let (findings, marker) = try run(example, in: "offer")
        XCTAssertEqual(findings.map(\.message), ["an offer of 'com.acme.app.monthly' costs $1.50 in USA, which is not an App Store Connect subscription price point "
                                                 + "there (price-points.json); the nearest are $0.99 and $1.99"])
        XCTAssertEqual(findings.first?.location, marker)
    }

    func testTheFileIsTheSameBytesWhenWrittenAgainAndReadsBackEqual() throws {
        let text = PriceExample.priced("com.acme.app.pro").files[1].text
        let points = try PricePoints.decode(Data(text.utf8), path: "p.json")
        XCTAssertEqual(points.encoded(), text)
        XCTAssertEqual(points.ladders[PricePoints.Kind.inAppPurchases]?["JPN"]?.points.map { $0.price }, [150, 300, 450, 600, 750, 900])
        XCTAssertEqual(points.equalization(PricePoints.Kind.subscriptions, territory: "USA", price: Decimal(string: "4.99")!)?.prices["GBR"], Decimal(string: "4.49"))
    }

    /// A file anyone can edit is held to what App Store Connect writes, and says where it is not.
    func testAFileThatIsNotAppStoreConnectsIsRefusedNamingWhere() throws {
        let good = PriceExample.priced("com.acme.app.pro").files[1].text
        let cases: [(String, String, String)] = [
            (#""150 300 450"#, #""300 150 450"#, "ladders.inAppPurchases.JPN.points[1] is 150, not above the point before it (300): a ladder ascends"),
            (#""JPN" : { "currency""#, #""J\u001bN" : { "currency""#, "ladders.inAppPurchases has the territory 'J\\u{1B}N': not three capital letters"),
            (#""0.99 1.99 "#, #""0.99 1e3 "#, "ladders.inAppPurchases.USA.points[1] is '1e3': not a price (digits with an optional fraction: 0.99)"),
            // Digits past what a UInt64 holds (the fuzzer's crash): no price, never an overflow.
            (#""0.99 1.99 "#, #""0.99 123456789012345678901234567890 "#,
             "ladders.inAppPurchases.USA.points[1] is '123456789012345678901234567890': not a price (digits with an optional fraction: 0.99)"),
            (#""0.99 1.99 "#, #""0.99 1.12345678901234567890123 "#,
             "ladders.inAppPurchases.USA.points[1] is '1.12345678901234567890123': not a price (digits with an optional fraction: 0.99)"),
            (#""version" : 1"#, #""version" : 2"#, "price-points version 2 is not 1, the one this iap reads"),
        ]
        for (from, to, expected) in cases {
            XCTAssertTrue(good.contains(from), from)
            let bad = good.replacingOccurrences(of: from, with: to)
            XCTAssertThrowsError(try PricePoints.decode(Data(bad.utf8), path: "p.json"), expected) { error in
                XCTAssertTrue("\(error)".hasPrefix("p.json: " + expected), "\(error)")
            }
        }
        // Past the bounds: a ladder of 10,001 points.
        let many = (1...10_001).map(String.init).joined(separator: " ")
        let huge = good.replacingOccurrences(of: "150 300 450 600 750 900", with: many)
        XCTAssertNotEqual(huge, good)
        XCTAssertThrowsError(try PricePoints.decode(Data(huge.utf8), path: "p.json")) { error in
            XCTAssertTrue("\(error)".contains("ladders.inAppPurchases.JPN has more than 10000 points"), "\(error)")
        }
    }
}
