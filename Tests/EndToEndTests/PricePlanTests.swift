import AppStoreConnect
import Foundation
import IAPTool
import TestSupport
import XCTest

/// `iap price plan`'s arithmetic: snapping, multipliers, and what it refuses.
final class PricePlanTests: XCTestCase {
    let ladder = PricePoints.Ladder(currency: "USD", points: ["0.99", "1.99", "2.99", "4.99"].map {
        PricePoints.Point(price: Decimal(string: $0)!, proceeds: nil)
    })

    func testSnappingNearestTakesTheLowerHalfwayAndDownNeverGoesAbove() {
        func snap(_ target: String, _ rounding: PricePlan.Rounding) -> Decimal? {
            PricePlan.snap(Decimal(string: target)!, on: ladder, rounding)?.price
        }
        XCTAssertEqual(snap("2.99", .nearest), Decimal(string: "2.99"))
        XCTAssertEqual(snap("3.99", .nearest), Decimal(string: "2.99"))   // halfway between 2.99 and 4.99
        XCTAssertEqual(snap("4.00", .nearest), Decimal(string: "4.99"))
        XCTAssertEqual(snap("4.98", .down), Decimal(string: "2.99"))
        XCTAssertEqual(snap("0.10", .down), Decimal(string: "0.99"))      // every point is above: the lowest
        XCTAssertEqual(snap("99", .nearest), Decimal(string: "4.99"))
    }

    func testMultipliersAreReadWithAHeaderAndCommentsAndRefusedNamingTheLine() throws {
        let read = try PricePlan.multipliers(csv: "# index\nstorefront,multiplier\nJPN,0.6\r\nde, 0.9\n", path: "p.csv")
        XCTAssertEqual(read, ["JPN": Decimal(string: "0.6")!, "DEU": Decimal(string: "0.9")!])
        let bad: [(String, String)] = [
            ("JPN,0.6\nXXX,1\n", "p.csv:2: 'XXX' is not one of the App Store's 175 storefronts (`iap storefronts` lists them)"),
            ("JPN,-1\n", "p.csv:1: the multiplier '-1' is not a number above 0 and at most 100 (like 0.8)"),
            ("JPN,1e3\n", "p.csv:1: the multiplier '1e3' is not a number above 0 and at most 100 (like 0.8)"),
            ("JPN,0.6\nJPN,0.7\n", "p.csv:2: JPN has a multiplier already"),
            ("JPN;0.6\n", "p.csv:1: expected TERRITORY,MULTIPLIER (like JPN,0.8), found 'JPN;0.6'"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try PricePlan.multipliers(csv: text, path: "p.csv")) { error in
                XCTAssertEqual((error as? ToolFailure)?.message, message)
            }
        }
    }

    func testThePlanAsAMetadataPlistIsACatalogIapReads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-plan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plist = folder.appendingPathComponent("Plan.plist").path
        let result = try IAPRunner.run(["price", "plan", "--base", "USA:4.99", "--price-points", "Examples/AppStoreConnect/ShopApp.snapshot.price-points.json",
                                        "--product", "com.acme.shop.pro", "-o", plist])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "iap: wrote \(plist) (com.acme.shop.pro in 4 storefronts)\n")
        let listed = try IAPRunner.run(["price", "--catalog", plist])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("com.acme.shop.pro  en_US   $4.99"), listed.stdout)
        let validated = try IAPRunner.run(["validate", plist, "--price-points", "Examples/AppStoreConnect/ShopApp.snapshot.price-points.json"])
        XCTAssertFalse(validated.stdout.contains("price-"), validated.stdout)
    }

    func testWhatThePlanRefusesIsAUsageErrorOrSaysWhatToPull() throws {
        let file = "Examples/AppStoreConnect/ShopApp.snapshot.price-points.json"
        let cases: [([String], Int32, String)] = [
            (["--base", "USA:4.95"], 64, "iap: error: 4.95 is not an App Store Connect price point in USA; the nearest are 4.89 and 4.99\n"),
            (["--base", "USA:5.99"], 2, "iap: error: \(file) has no equalization of 5.99 in USA: pull it with `iap asc pull --price-points --equalize USA:5.99`\n"),
            (["--base", "4.99"], 64, "iap: error: --base is a storefront and a price in its currency, like USA:4.99 or JPN:800; found '4.99'\n"),
            (["--base", "USA:4.99", "-o", "x.storekit"], 64, "iap: error: -o writes a metadata plist (FILE.plist): a .storekit file holds one storefront's prices, not a plan's\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = try IAPRunner.run(["price", "plan", "--price-points", file] + arguments)
            XCTAssertEqual(result.status, status, "\(arguments)")
            XCTAssertEqual(result.stderr, stderr, "\(arguments)")
            XCTAssertEqual(result.stdout, "")
        }
    }
}

extension PricePlanTests {
    /// A plan written beside a catalog's metadata is its prices: kind, names and the rest come
    /// from the metadata plist, the base price and every storefront's price from the plan, and
    /// `iap asc plan` sets them all.
    func testAPricePlanAdoptedBesideTheMetadataIsWhatAscPlanSets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-adopt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Shop"), withIntermediateDirectories: true)
        // The shop without the gems' price: the plan gives it.
        let metadata = ShopCatalog.metadata.replacingOccurrences(of: "<key>price</key><string>0.99</string>", with: "")
            .replacingOccurrences(of: "<key>prices</key><dict><key>GBR</key><string>0.89</string></dict>", with: "")
        // The review note and availability in a second file: merged as the other fields are.
        let moved = metadata.replacingOccurrences(of: "<key>reviewNote</key><string>Buy from the shop tab.</string>", with: "")
        try moved.write(to: folder.appendingPathComponent("Shop/Metadata.plist"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>IAPCatalogMetadata</key><integer>1</integer><key>products</key><dict>
            <key>com.acme.shop.gems</key><dict><key>reviewNote</key><string>Buy from the shop tab.</string></dict></dict></dict></plist>
            """.write(to: folder.appendingPathComponent("Shop/Review.plist"), atomically: true, encoding: .utf8)
        let plist = folder.appendingPathComponent("Shop/Prices.plist").path
        let planned = try IAPRunner.run(["price", "plan", "--base", "USA:4.99", "--price-points", "Examples/AppStoreConnect/ShopApp.snapshot.price-points.json",
                                         "--product", "com.acme.shop.gems", "-o", plist])
        XCTAssertEqual(planned.status, 0, planned.stderr)
        // No kind: the plan does not know the in-app purchase's, and the catalog says consumable.
        XCTAssertFalse(try String(contentsOfFile: plist, encoding: .utf8).contains("<key>kind</key>"))
        let validated = try IAPRunner.run(["validate", folder.appendingPathComponent("Shop").path])
        XCTAssertEqual(validated.status, 0, validated.stdout)
        let snapshot = folder.appendingPathComponent("shop.snapshot.json")
        try #"{"app":{"bundleId":"com.acme.shop","id":"1500000000"},"format":"iap-asc-snapshot","inAppPurchases":[],"subscriptionGroups":[],"version":1}"#
            .write(to: snapshot, atomically: true, encoding: .utf8)
        let plan = try IAPRunner.run(["asc", "plan", "--snapshot", snapshot.path, folder.appendingPathComponent("Shop").path])
        XCTAssertEqual(plan.status, 0, plan.stdout + plan.stderr)
        XCTAssertTrue(plan.stdout.contains("Prices.plist:12: info: step 7: set the price of 'com.acme.shop.gems' in DEU, GBR, JPN, USA: "
                                           + "DEU '4.99', GBR '4.89', JPN '750', USA '4.99' [asc-plan-change]"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("step 5: create the in-app purchase 'com.acme.shop.gems': name 'Gems', reviewNote 'Buy from the shop tab.' [asc-plan-change]"),
                      plan.stdout)
    }
}
