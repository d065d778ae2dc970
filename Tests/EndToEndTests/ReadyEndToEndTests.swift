import Foundation
import TestSupport
import XCTest

/// `iap asc ready` end to end: the pull of what it reads against the fake App Store Connect, and
/// its verdicts, findings and exit status on real files.
extension ASCEndToEndTests {
    /// The store behind Examples/AppStoreConnect/ShopApp.snapshot.json: Examples/ShopApp's three
    /// products, one approved, one ready to submit, a first subscription not for sale in JPN.
    static let shopStore = #"{"apps":[{"id":"6470000001","name":"Shop","bundleId":"com.acme.shop"}],"inAppPurchases":[{"id":"6470001001","app":"6470000001","productId":"com.acme.shop.coins.100","name":"100 Coins","inAppPurchaseType":"CONSUMABLE","state":"APPROVED","familySharable":false,"localizations":[{"id":"8470001001","locale":"en-US","name":"100 Coins","description":"A pile of coins","state":"APPROVED"}],"reviewScreenshot":true,"availability":{"id":"ia6470001001","availableInNewTerritories":true,"territories":["CAN","GBR","JPN","USA"]},"prices":[{"territory":"USA","currency":"USD","customerPrice":"0.99","proceeds":"0.84","manual":true},{"territory":"CAN","currency":"CAD","customerPrice":"1.39","proceeds":"1.06","manual":false},{"territory":"GBR","currency":"GBP","customerPrice":"0.99","proceeds":"0.69","manual":false},{"territory":"JPN","currency":"JPY","customerPrice":"160","proceeds":"127","manual":false}]},{"id":"6470001002","app":"6470000001","productId":"com.acme.shop.pro","name":"Shop Pro","inAppPurchaseType":"NON_CONSUMABLE","state":"READY_TO_SUBMIT","familySharable":true,"localizations":[{"id":"8470001002","locale":"en-US","name":"Shop Pro","description":"Every tool, for good","state":"PREPARE_FOR_SUBMISSION"}],"reviewScreenshot":true,"availability":{"id":"ia6470001002","availableInNewTerritories":true,"territories":["CAN","GBR","JPN","USA"]},"prices":[{"territory":"USA","currency":"USD","customerPrice":"4.99","proceeds":"4.24","manual":true},{"territory":"CAN","currency":"CAD","customerPrice":"6.99","proceeds":"5.32","manual":false},{"territory":"GBR","currency":"GBP","customerPrice":"4.99","proceeds":"3.49","manual":false},{"territory":"JPN","currency":"JPY","customerPrice":"800","proceeds":"636","manual":false}]}],"subscriptionGroups":[{"id":"21470001","app":"6470000001","referenceName":"Club","localizations":[{"id":"9470001001","locale":"en-US","name":"Shop Club","state":"PREPARE_FOR_SUBMISSION"}],"subscriptions":[{"id":"6470002001","productId":"com.acme.shop.club.monthly","name":"Club Monthly","state":"READY_TO_SUBMIT","subscriptionPeriod":"ONE_MONTH","groupLevel":1,"familySharable":false,"localizations":[{"id":"8470002001","locale":"en-US","name":"Shop Club","description":"New items every month","state":"PREPARE_FOR_SUBMISSION"}],"reviewScreenshot":true,"availability":{"id":"sa6470002001","availableInNewTerritories":false,"territories":["CAN","GBR","USA"]},"prices":[{"territory":"USA","currency":"USD","customerPrice":"2.99","proceeds":"2.54"},{"territory":"CAN","currency":"CAD","customerPrice":"3.99","proceeds":"3.04"}]}]}],"priceTerritories":{"USA":"USD","DEU":"EUR","GBR":"GBP","JPN":"JPY"}}"#

    func testPullWithAvailabilityAndEveryPriceWritesWhatReadinessReads() throws {
        let (url, log) = try startStoreServer(Data(Self.shopStore.utf8), pageSize: 200)
        var env = environment
        env["IAP_ASC_URL"] = url
        let snapshot = folder.appendingPathComponent("shop.json")
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.acme.shop", "--storefront", "USA", "--availability", "--all-storefronts",
                                        "--snapshot", snapshot.path], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        // 1 app, 1 page of in-app purchases, 1 of groups, 1 of subscriptions; 3 territory lists;
        // every territory's prices: 2 lists an in-app purchase (manual, automatic), 1 a subscription.
        XCTAssertEqual(result.stderr, "iap: pulled 2 in-app purchases and 1 subscription in 1 group of 'Shop', com.acme.shop, Apple ID 6470000001 in 12 requests\n"
                       + "iap: wrote \(snapshot.path)\n")
        let paths = try requests(log).compactMap { $0["path"] as? String }
        XCTAssertEqual(paths.filter { $0.hasSuffix("/availableTerritories") }.sorted(),
                       ["/v1/inAppPurchaseAvailabilities/ia6470001001/availableTerritories", "/v1/inAppPurchaseAvailabilities/ia6470001002/availableTerritories",
                        "/v1/subscriptionAvailabilities/sa6470002001/availableTerritories"])
        XCTAssertEqual(paths.filter { $0.hasSuffix("Prices") || $0.hasSuffix("/prices") }.sorted(),
                       ["/v1/inAppPurchasePriceSchedules/6470001001/automaticPrices", "/v1/inAppPurchasePriceSchedules/6470001001/manualPrices",
                        "/v1/inAppPurchasePriceSchedules/6470001002/automaticPrices", "/v1/inAppPurchasePriceSchedules/6470001002/manualPrices",
                        "/v1/subscriptions/6470002001/prices"])
        // Not one of them filtered to a territory: every territory's price comes in one list.
        XCTAssertFalse(try requests(log).contains { ($0["query"] as? [String: Any])?["filter[territory]"] != nil })
        XCTAssertEqual(try requests(log).filter { ($0["status"] as? Int) != 200 }.count, 0)
        XCTAssertEqual(try String(contentsOf: snapshot, encoding: .utf8),
                       try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Examples/AppStoreConnect/ShopApp.snapshot.json"), encoding: .utf8))
        assertNoSecrets(result)
    }

    func testPricePointsArePulledOnceAKindAndOnceABasePrice() throws {
        // Pages as long as the document allows each operation: 200 products, 8,000 price points.
        let (url, log) = try startStoreServer(Data(Self.shopStore.utf8), pageSize: 8000)
        var env = environment
        env["IAP_ASC_URL"] = url
        let snapshot = folder.appendingPathComponent("ShopApp.snapshot.json")
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.acme.shop", "--storefront", "USA", "--availability", "--snapshot", snapshot.path,
                                        "--price-points", "--equalize", "USA:9.99"], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = folder.appendingPathComponent("ShopApp.snapshot.price-points.json")
        // A ladder a kind (4 territories × 828 points: one page of 8,000), and an equalization for each distinct base:
        // in-app purchases at 0.99, 4.99 and 9.99 (--equalize), subscriptions at 2.99 and 9.99.
        XCTAssertTrue(result.stderr.contains("iap: pulled the price points in 7 requests\n"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("iap: wrote \(file.path) (8 ladders, 5 equalized base prices)\n"), result.stderr)
        let paths = try requests(log).compactMap { $0["path"] as? String }
        XCTAssertEqual(paths.filter { $0.hasSuffix("/pricePoints") }.count, 2)
        XCTAssertEqual(paths.filter { $0.hasSuffix("/equalizations") }.count, 5)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8),
                       try String(contentsOf: IAPRunner.packageRoot.appendingPathComponent("Examples/AppStoreConnect/ShopApp.snapshot.price-points.json"),
                                  encoding: .utf8))
    }
}

/// `iap asc ready` and `iap check` on small repositories written for each test: exit status,
/// what an old snapshot cannot tell, a hostile snapshot.
/// An app's Info.plist with the bundle ID com.acme.app.
enum ReadyExampleText {
    static let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>com.acme.app</string>
        </dict>
        </plist>

        """
}

final class ReadyCommandTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-ready" }

    static let idList = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <array>
        \t<string>com.acme.app.coins</string>
        </array>
        </plist>

        """

    /// An approved in-app purchase of the snapshot: `review` as given (nil: as an older iap wrote it).
    static func product(_ productId: String = "com.acme.app.coins", id: String = "6450000001",
                        review: String? = #"{"availability":{"id":"A1","territories":["USA"]},"screenshot":true}"#) -> String {
        #"{"id":"\#(id)","localizations":[{"locale":"en-US","name":"Coins"}],"price":{"amount":"0.99","currency":"USD"},"productId":"\#(productId)","#
            + #""state":"APPROVED","type":"CONSUMABLE""# + (review.map { #","review":"# + $0 } ?? "") + "}"
    }

    /// A snapshot of app com.acme.app, prices in USA, each product on a line of its own.
    static func snapshot(_ products: [String] = [product()]) -> String {
        #"{"app":{"bundleId":"com.acme.app","id":"6450000000","name":"Acme"},"format":"iap-asc-snapshot","inAppPurchases":["# + "\n"
            + products.joined(separator: ",\n") + "\n" + #"],"storefront":"USA","subscriptionGroups":[],"version":1}"# + "\n"
    }

    /// Where the finding about a product of `snapshot` points: its `"productId"`.
    static func location(of productId: String, in snapshot: String) -> String {
        let lines = snapshot.components(separatedBy: "\n")
        let line = lines.firstIndex { $0.contains(#""productId":"\#(productId)""#) }!
        let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: #""productId""#)!.lowerBound) + 1
        return "asc.json:\(line + 1):\(column)"
    }

    func ready(_ extra: [String] = []) throws -> IAPRunner.Result {
        try IAPRunner.run(["asc", "ready", "--snapshot", "asc.json", "--sources", "App", "Catalog"] + extra, in: folder)
    }

    func testEverythingTheAppAsksForServedExitsZero() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", #"let products = try await Product.products(for: ["com.acme.app.coins"])"# + "\n")
        try write("asc.json", Self.snapshot())
        let result = try ready()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, """
            PRODUCT             ASKED BY           SANDBOX  APP STORE USA
            com.acme.app.coins  App/Store.swift:1  yes      yes

            """)
        XCTAssertEqual(result.stderr, "1 product (1 ID asked for in code): none of those the app asks for is refused by the App Store\n")
    }

    func testTheCodeAskingWithoutTheBundlePrefixExitsOne() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", #"let products = try await Product.products(for: ["com.acme.app.coins", "gold"])"# + "\n")
        let snapshot = Self.snapshot([Self.product(), Self.product("com.acme.app.gold", id: "6450000002")])
        try write("asc.json", snapshot)
        let result = try ready()
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("gold                App/Store.swift:1  no       no\n"), result.stdout)
        let there = Self.location(of: "com.acme.app.gold", in: snapshot)
        XCTAssertTrue(result.stdout.contains("App/Store.swift:1:71: error: 'gold' is asked for here, but App Store Connect (app 'Acme') has 'com.acme.app.gold', "
                                             + "with the app's bundle prefix (\(there)): a product request for 'gold' returns nothing [ready-bundle-prefix]\n"), result.stdout)
        XCTAssertTrue(result.stderr.hasSuffix("2 products (2 IDs asked for in code): 1 the app asks for is not served in the App Store\n"), result.stderr)
    }

    func testAnOlderSnapshotIsReadAndWhatItCannotTellIsAQuestionMark() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", "\n")
        try write("asc.json", Self.snapshot([Self.product(review: nil)]))
        let result = try ready(["--storefront", "USA", "--storefront", "JPN"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, """
            PRODUCT             ASKED BY                        SANDBOX  APP STORE USA  APP STORE JPN
            com.acme.app.coins  Catalog/IAP_ProductIDs.plist:4  yes      ?              ?

            """)
        XCTAssertEqual(result.stderr, "iap: ? in App Store USA, App Store JPN: the snapshot cannot tell; availability not pulled (iap asc pull --availability)\n"
                       + "1 product (no ID found asked for in code, so its product lists stand for what it asks): "
                       + "none of those the app asks for is refused by the App Store\n")
    }

    func testNotForSaleInTheStorefrontIsAWarningAndExitsOne() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", "\n")
        try write("asc.json", Self.snapshot([Self.product(review: #"{"availability":{"id":"A1","territories":["CAN"]},"screenshot":true}"#)]))
        let result = try ready(["--format", "json"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["ruleID"] as? String }, ["ready-storefront"])
        XCTAssertEqual(findings.map { $0["severity"] as? String }, ["warning"])
    }

    func testEveryStorefrontIsEachTerritoryTheSnapshotNamesWithItsPrice() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", "\n")
        // For sale in four territories, priced in three of them (GBR left out).
        let review = #"{"availability":{"id":"A1","territories":["CAN","GBR","JPN","USA"]},"screenshot":true}"#
        let product = Self.product(review: review).replacingOccurrences(
            of: #""productId""#, with: #""prices":{"CAN":"1.39 CAD","JPN":"160 JPY","USA":"0.99 USD"},"productId""#)
        let snapshot = Self.snapshot([product])
        try write("asc.json", snapshot)
        let result = try ready(["--storefront", "all"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, """
            PRODUCT             ASKED BY                        SANDBOX  APP STORE CAN  APP STORE GBR  APP STORE JPN  APP STORE USA
            com.acme.app.coins  Catalog/IAP_ProductIDs.plist:4  yes      yes            no             yes            yes

            Catalog/IAP_ProductIDs.plist:4:2: warning: 'com.acme.app.coins' has no price in GBR in App Store Connect (\(Self.location(of: "com.acme.app.coins", in: snapshot))), so the App Store there does not return it [ready-storefront]
            \(Self.location(of: "com.acme.app.coins", in: snapshot)): note: in App Store Connect
            Catalog/IAP_ProductIDs.plist:4:2: note: fix: give it a price in GBR in App Store Connect, then pull again

            """)
        // A snapshot that names no territory cannot say which storefronts "all" is.
        try write("asc.json", Self.snapshot([Self.product(review: nil)]))
        let none = try ready(["--storefront", "all"])
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stderr, "iap: error: --storefront all: asc.json names no territory; pull it with the territories and prices "
                       + "(`iap asc pull --availability --all-storefronts --snapshot asc.json`)\n")
        XCTAssertEqual(try ready(["--storefront", "ALLL"]).status, 64)
    }

    func testAHostileSnapshotIsAnErrorNamingTheValue() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", "\n")
        try write("asc.json", Self.snapshot([Self.product(review: #"{"availability":{"id":"A1","territories":["USA","\u001b[31m"]},"screenshot":true}"#)]))
        let result = try ready()
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "iap: error: asc.json: inAppPurchases[0].review.availability.territories[1] is '\\u{1B}[31m': not three capital letters; pull it again with `iap asc pull --snapshot asc.json`\n")
    }

    func testANoThatNoFindingExplainsSaysItsCauseAndEachIDIsReportedOnce() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        // 'bronze' is only in the code (twice) and App Store Connect holds it removed from sale;
        // 'ghost' is nowhere, asked for in two places.
        try write("App/Store.swift", #"let a = try await Product.products(for: ["com.acme.app.coins", "com.acme.app.bronze", "com.acme.app.ghost"])"# + "\n"
                  + #"let b = try await Product.products(for: ["com.acme.app.bronze", "com.acme.app.ghost"])"# + "\n")
        let bronze = Self.product("com.acme.app.bronze", id: "6450000002").replacingOccurrences(of: #""state":"APPROVED""#, with: #""state":"REMOVED_FROM_SALE""#)
        try write("asc.json", Self.snapshot([Self.product(), bronze]))
        let result = try ready()
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let ghost = result.stdout.components(separatedBy: "\n").filter { $0.contains("[ready-unknown-product]") }
        XCTAssertEqual(ghost, ["App/Store.swift:1:87: error: 'com.acme.app.ghost' is asked for here (and in 1 more place), but no catalog has it and App Store "
                               + "Connect (app 'Acme', asc.json) does not either: no product request returns it [ready-unknown-product]"])
        XCTAssertTrue(result.stderr.hasPrefix("iap: 'com.acme.app.bronze' is not served in sandbox: REMOVED_FROM_SALE\n"
                                              + "iap: 'com.acme.app.bronze' is not served in App Store USA: REMOVED_FROM_SALE\n"), result.stderr)
    }

    func testAnotherCatalogsIDAndTheStartOfABuiltIDAreNotThisAppsAsks() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("Catalog/Info.plist", ReadyExampleText.infoPlist)
        try write("Dev/IAP_ProductIDs.plist", Self.idList.replacingOccurrences(of: "com.acme.app.coins", with: "com.acme.app.dev.pro"))
        try write("Dev/Info.plist", ReadyExampleText.infoPlist.replacingOccurrences(of: "com.acme.app<", with: "com.acme.app.dev<"))
        try write("App/Store.swift", """
            let ids = ["com.acme.app.coins", "com.acme.app.dev.pro", "com.acme.app." + tier]
            let products = try await Product.products(for: ids)

            """)
        try write("asc.json", Self.snapshot())
        let result = try IAPRunner.run(["asc", "ready", "--snapshot", "asc.json", "--sources", "App", "Catalog", "Dev"], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, """
            PRODUCT             ASKED BY           SANDBOX  APP STORE USA
            com.acme.app.coins  App/Store.swift:1  yes      yes

            """)
    }

    func testASourceThatCannotBeReadIsSaid() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", "\n")
        try write("App/Huge.swift", String(repeating: "let x = 1\n", count: 500_000))
        try write("asc.json", Self.snapshot())
        let result = try ready()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("iap: warning: App/Huge.swift: 4.8 MB, more than the 4 MB iap lints: not read; if it is generated, leave it out "
                                              + "with --exclude or lint.exclude in iap.yml; the IDs it asks for, if any, are not known\n"), result.stderr)
    }

    func testASnapshotOfAnotherAppIsOneClearError() throws {
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("Catalog/Info.plist", ReadyExampleText.infoPlist)
        try write("App/Store.swift", "\n")
        try write("asc.json", Self.snapshot().replacingOccurrences(of: "com.acme.app\"", with: "com.other.app\""))
        let result = try ready()
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "iap: error: asc.json is App Store Connect's 'com.other.app', but the catalog Catalog is for 'com.acme.app': "
                       + "pull the app's own snapshot (`iap asc pull --app com.acme.app --snapshot asc.json`), or name its catalog\n")
    }

    func testCheckRunsTheReadinessRulesWithTheSnapshotItNames() throws {
        try write("iap.yml", "bundle-id: com.acme.app\ncatalogs: [Catalog]\nlint:\n  paths: [App]\nasc:\n  snapshot: asc.json\n")
        try write("Catalog/IAP_ProductIDs.plist", Self.idList)
        try write("App/Store.swift", #"let products = try await Product.products(for: ["com.acme.app.coins"])"# + "\n")
        let snapshot = Self.snapshot([Self.product(review: #"{"screenshot":true}"#)])
        try write("asc.json", snapshot)
        let result = try IAPRunner.run(["check"], in: folder)
        XCTAssertTrue(result.stdout.contains("Catalog/IAP_ProductIDs.plist:4:2: warning: 'com.acme.app.coins' is for sale in no territory in App Store Connect "
                                             + "(\(Self.location(of: "com.acme.app.coins", in: snapshot))): it has no availability, so no App Store returns it [ready-storefront]\n"),
                      result.stdout)
    }
}
