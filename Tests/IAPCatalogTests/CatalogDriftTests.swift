import Diagnostics
import Foundation
import XCTest
@testable import IAPCatalog

/// `catalog-drift`: every disagreement between a metadata plist and `.storekit` files, with both
/// places; and silence where files legitimately differ (other storefronts, other locales, products
/// split over several configurations).
final class CatalogDriftTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func drift(_ files: [String: String]) throws -> [Diagnostic] {
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let catalog = CatalogLoader().loadCatalog(name: "drift", paths: paths, explicit: Set(paths))
        XCTAssertEqual(catalog.loadDiagnostics.map(\.message), [])
        return CatalogDriftRule().check(catalog, options: ValidationOptions()).sortedForOutput()
    }

    static let metadata = RuleExample.metadataPlist("""
        \t\t<key>com.acme.app.coins</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>consumable</string>
        \t\t\t<key>referenceName</key>
        \t\t\t<string>Coins</string>
        \t\t\t<key>price</key>
        \t\t\t<string>0.99</string>
        \t\t\t<key>currency</key>
        \t\t\t<string>USD</string>
        \t\t\t<key>localizations</key>
        \t\t\t<dict>
        \t\t\t\t<key>en-US</key>
        \t\t\t\t<dict>
        \t\t\t\t\t<key>displayName</key>
        \t\t\t\t\t<string>100 Coins</string>
        \t\t\t\t\t<key>description</key>
        \t\t\t\t\t<string>A bag of coins</string>
        \t\t\t\t</dict>
        \t\t\t</dict>
        \t\t</dict>
        \t\t<key>com.acme.app.club</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>auto-renewable</string>
        \t\t\t<key>price</key>
        \t\t\t<string>2.99</string>
        \t\t\t<key>currency</key>
        \t\t\t<string>USD</string>
        \t\t\t<key>familyShareable</key>
        \t\t\t<true/>
        \t\t\t<key>subscriptionGroup</key>
        \t\t\t<string>Club</string>
        \t\t\t<key>groupLevel</key>
        \t\t\t<integer>1</integer>
        \t\t\t<key>subscriptionPeriod</key>
        \t\t\t<string>P1M</string>
        \t\t\t<key>introductoryOffer</key>
        \t\t\t<dict>
        \t\t\t\t<key>paymentMode</key>
        \t\t\t\t<string>free-trial</string>
        \t\t\t\t<key>period</key>
        \t\t\t\t<string>P1W</string>
        \t\t\t</dict>
        \t\t</dict>
        \t\t<key>com.acme.app.gold</key>
        \t\t<dict>
        \t\t\t<key>kind</key>
        \t\t\t<string>non-consumable</string>
        \t\t</dict>
        """)

    /// A `.storekit` file: `coins` with `coinsPrice` and `coinsName`, and, when `club`, the club
    /// subscription with these fields; `extra` adds a product the plist lacks.
    static func storeKit(storefront: String = "USA", coinsPrice: String = "0.99", coinsName: String = "100 Coins",
                         locale: String = "en_US", club: (price: String, period: String, group: String, level: Int, family: Bool, intro: String)? = nil,
                         extra: Bool = false) -> String {
        var subscriptions = ""
        if let club {
            subscriptions = """
                { "name" : "\(club.group)", "subscriptions" : [ {
                  "displayPrice" : "\(club.price)", "familyShareable" : \(club.family), "groupNumber" : \(club.level),
                  "introductoryOffer" : \(club.intro), "localizations" : [],
                  "productID" : "com.acme.app.club", "recurringSubscriptionPeriod" : "\(club.period)",
                  "type" : "RecurringSubscription" } ] }
                """
        }
        let extraProduct = extra ? """
            ,
                { "displayPrice" : "4.99", "productID" : "com.acme.app.gems", "type" : "Consumable", "localizations" : [] }
            """ : ""
        return """
            {
              "products" : [
                {
                  "displayPrice" : "\(coinsPrice)",
                  "localizations" : [ { "description" : "A bag of coins", "displayName" : "\(coinsName)", "locale" : "\(locale)" } ],
                  "productID" : "com.acme.app.coins",
                  "referenceName" : "Coins",
                  "type" : "Consumable"
                }\(extraProduct)
              ],
              "settings" : { "_storefront" : "\(storefront)" },
              "subscriptionGroups" : [ \(subscriptions) ],
              "version" : { "major" : 4, "minor" : 0 }
            }
            """
    }

    static let freeWeek = #"{ "paymentMode" : "free", "subscriptionPeriod" : "P1W" }"#

    func testAgreeingFilesAreQuiet() throws {
        let found = try drift([
            "Metadata.plist": Self.metadata,
            "Products.storekit": Self.storeKit(club: ("2.99", "P1M", "Club", 1, true, Self.freeWeek)),
        ])
        // gold is in the plist only.
        XCTAssertEqual(found.map(\.message), [
            "'com.acme.app.gold' is in the metadata plist but in no StoreKit configuration of this catalog (Products.storekit)",
        ])
    }

    /// A configuration with fewer than half of the plist's products is a partial test setup: one
    /// finding, not one per missing product; the products it has are still compared.
    func testAPartialConfigurationIsSaidOnce() throws {
        let found = try drift([
            "Metadata.plist": Self.metadata,
            "Products.storekit": Self.storeKit(coinsPrice: "1.99"),
        ])
        XCTAssertEqual(Set(found.map(\.message)), [
            "'com.acme.app.coins': price in USA is 1.99 USD in Products.storekit but 0.99 USD in Metadata.plist",
            "Products.storekit holds 1 of the metadata plist's 3 products: a partial test configuration, not compared product by product (2 missing, the first 'com.acme.app.club')",
        ])
        XCTAssertEqual(found.count, 2)
    }

    func testEveryFieldThatDiffersIsOneFindingPointingAtBothPlaces() throws {
        let found = try drift([
            "Metadata.plist": Self.metadata,
            "Products.storekit": Self.storeKit(coinsPrice: "1.99", coinsName: "100 Gold Coins",
                                               club: ("3.99", "P1Y", "VIP", 2, false, #"{ "displayPrice" : "0.99", "paymentMode" : "payUpFront", "subscriptionPeriod" : "P1M" }"#),
                                               extra: true),
        ])
        XCTAssertEqual(Set(found.map(\.message)), [
            "'com.acme.app.coins': price in USA is 1.99 USD in Products.storekit but 0.99 USD in Metadata.plist",
            "'com.acme.app.coins': display name (en-US) is '100 Gold Coins' in Products.storekit but '100 Coins' in Metadata.plist",
            "'com.acme.app.club': price in USA is 3.99 USD in Products.storekit but 2.99 USD in Metadata.plist",
            "'com.acme.app.club': subscription period is P1Y in Products.storekit but P1M in Metadata.plist",
            "'com.acme.app.club': subscription group is 'VIP' in Products.storekit but 'Club' in Metadata.plist",
            "'com.acme.app.club': group level is 2 in Products.storekit but 1 in Metadata.plist",
            "'com.acme.app.club': family sharing is off in Products.storekit but on in Metadata.plist",
            "'com.acme.app.club': introductory offer is pay-up-front P1M at 0.99 in Products.storekit but free-trial P1W in Metadata.plist",
            "'com.acme.app.gems' is in Products.storekit but not in the metadata plist (Metadata.plist)",
            "'com.acme.app.gold' is in the metadata plist but in no StoreKit configuration of this catalog (Products.storekit)",
        ])
        XCTAssertEqual(found.count, 10)
        // The price finding is at the .storekit product and names the plist's price line.
        let price = try XCTUnwrap(found.first { $0.message.hasPrefix("'com.acme.app.coins': price") })
        XCTAssertEqual(price.location.path, folder.appendingPathComponent("Products.storekit").path)
        XCTAssertEqual(price.location.line, 6)
        XCTAssertEqual(price.related.map { "\(($0.location.path as NSString).lastPathComponent):\($0.location.line) \($0.message)" },
                       ["Metadata.plist:16 price in USA 0.99 USD here"])
    }

    /// Another storefront's price, another locale's text and products split over two files are
    /// not drift.
    func testLegitimateDifferencesAreQuiet() throws {
        var found = try drift([
            "Metadata.plist": Self.metadata.replacingOccurrences(of: "<key>com.acme.app.gold</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>non-consumable</string>\n\t\t</dict>\n", with: ""),
            "Japan.storekit": Self.storeKit(storefront: "JPN", coinsPrice: "160", coinsName: "コイン100枚", locale: "ja"),
            "Club.storekit": #"{ "products" : [], "subscriptionGroups" : [ { "name" : "Club", "subscriptions" : [ { "displayPrice" : "2.99", "familyShareable" : true, "groupNumber" : 1, "introductoryOffer" : { "paymentMode" : "free", "subscriptionPeriod" : "P1W" }, "localizations" : [], "productID" : "com.acme.app.club", "recurringSubscriptionPeriod" : "P1M", "type" : "RecurringSubscription" } ] } ], "version" : { "major" : 4, "minor" : 0 } }"#,
        ])
        XCTAssertEqual(found.map(\.message), [])

        // Two configurations for one storefront are compared with each other.
        found = try drift([
            "A.storekit": Self.storeKit(coinsPrice: "0.99"),
            "B.storekit": Self.storeKit(coinsPrice: "1.49", extra: true),
        ])
        XCTAssertEqual(found.map(\.message), ["'com.acme.app.coins': price in USA is 1.49 USD in B.storekit but 0.99 USD in A.storekit"])
    }
}
