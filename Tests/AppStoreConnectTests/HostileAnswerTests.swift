import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

/// A server's answer and a snapshot file are hostile input: every value is held to what App Store
/// Connect can hold before anything is made of it, and what cannot be is a positioned error, never
/// a crash, a request to another endpoint, or a value in a written file.
final class HostileAnswerTests: XCTestCase {
    let base = PullFixture()

    func client(_ transport: StubTransport) throws -> ASCClient {
        try base.client(transport)
    }

    /// The pull of `SnapshotPullTests`' store with one answer replaced.
    func pull(_ key: String, _ body: String, storefront: String? = nil) throws -> ASCSnapshot {
        var script = base.script(more: false)
        script[key] = [json(200, body)]
        return try SnapshotPull(storefront: storefront, connections: 1).pull(app: "com.acme.app", client: client(StubTransport(script))).snapshot
    }

    func subscriptions(_ attributes: String) -> String {
        #"{"data":[{"type":"subscriptions","id":"S1","attributes":{"productId":"com.acme.app.plus.monthly",\#(attributes)},"relationships":{"subscriptionLocalizations":{"data":[]}}}],"links":{"self":"x"}}"#
    }

    let subscriptionsKey = "/v1/subscriptionGroups/G1/subscriptions?limit=200&include=subscriptionLocalizations,appStoreReviewScreenshot,subscriptionAvailability&limit%5BsubscriptionLocalizations%5D=50"

    func testAResourceOfAnotherTypeIsNotReadAsAProduct() throws {
        XCTAssertThrowsError(try pull(base.purchasesQuery, #"{"data":[{"type":"financeReports","id":"1","attributes":{"productId":"com.x"}}],"links":{"self":"x"}}"#)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/apps/1/inAppPurchasesV2 cannot be read: data[0] is of type 'financeReports', not 'inAppPurchases'")
        }
        // A localization linked by an ID that another kind of included resource has is not that localization.
        let body = #"{"data":[{"type":"inAppPurchases","id":"11","attributes":{"productId":"com.acme.app.gems"},"relationships":{"inAppPurchaseLocalizations":{"data":[{"type":"inAppPurchaseLocalizations","id":"L1"}]}}}],"included":[{"type":"territories","id":"L1","attributes":{"locale":"xx"}}],"links":{"self":"x"}}"#
        var script = base.script(more: false)
        script[base.purchasesQuery] = [json(200, body)]
        script["/v2/inAppPurchases/11/inAppPurchaseLocalizations?limit=200"] = [json(200, #"{"data":[{"type":"inAppPurchaseLocalizations","id":"L1","attributes":{"locale":"en-US","name":"Gems"}}],"links":{"self":"x"}}"#)]
        let transport = StubTransport(script)
        let snapshot = try SnapshotPull(connections: 1).pull(app: "com.acme.app", client: client(transport)).snapshot
        XCTAssertEqual(snapshot.inAppPurchases[0].localizations.map { $0.locale }, ["en-US"])
        XCTAssertTrue(transport.requested.contains("/v2/inAppPurchases/11/inAppPurchaseLocalizations?limit=200"))
    }

    func testAnIDThatIsNotOneIsNeverPutInAPath() throws {
        for id in ["../../v1/financeReports", "a b", "50%", "x?y", "x#y", "Çé"] {
            let escapedID = id.replacingOccurrences(of: "\"", with: "\\\"")
            let body = #"{"data":[{"type":"subscriptionGroups","id":"\#(escapedID)","attributes":{"referenceName":"Plus"}}],"links":{"self":"x"}}"#
            let transport = StubTransport({ var s = base.script(more: false); s["/v1/apps/1/subscriptionGroups?limit=200&include=subscriptionGroupLocalizations&limit%5BsubscriptionGroupLocalizations%5D=50"] = [json(200, body)]; return s }())
            XCTAssertThrowsError(try SnapshotPull(connections: 1).pull(app: "com.acme.app", client: client(transport)), id) { error in
                XCTAssertTrue("\(error)".hasPrefix("App Store Connect's answer to GET /v1/subscriptionGroups cannot be read: the resource ID '"), "\(error)")
            }
            XCTAssertFalse(transport.requested.contains { $0.contains("financeReports") || $0.hasPrefix("/v1/subscriptionGroups/") }, "\(transport.requested)")
        }
    }

    func testNumbersAndPricesOutsideWhatAppStoreConnectHoldsAreRefused() throws {
        for (attributes, why) in [
            (#""groupLevel":9223372036854775807"#, "subscriptionGroups[0].subscriptions[0].groupLevel is 9223372036854775807: not between 1 and 10000"),
            (#""groupLevel":0"#, "subscriptionGroups[0].subscriptions[0].groupLevel is 0: not between 1 and 10000"),
            (#""subscriptionPeriod":"ONE\u001bMONTH""#, "subscriptionGroups[0].subscriptions[0].period is 'ONE\\u{1B}MONTH': not one of App Store Connect's values (capital letters, digits and '_')"),
        ] {
            XCTAssertThrowsError(try pull(subscriptionsKey, subscriptions(attributes)), attributes) { error in
                XCTAssertEqual("\(error)", "App Store Connect's answer to GET the app's products cannot be read: \(why)")
            }
        }
        // An integer past 64 bits: where it is.
        XCTAssertThrowsError(try pull(subscriptionsKey, subscriptions(#""groupLevel":99999999999999999999"#))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/subscriptionGroups/G1/subscriptions cannot be read: the body is not valid JSON: line 1, column 111: the integer 99999999999999999999 does not fit in 64 bits")
        }
    }

    func testAProductIDTwiceIsRefused() throws {
        let none = #""relationships":{"inAppPurchaseLocalizations":{"data":[]}}"#
        let twice = #"{"data":[{"type":"inAppPurchases","id":"11","attributes":{"productId":"com.acme.app.gems"},\#(none)},{"type":"inAppPurchases","id":"12","attributes":{"productId":"com.acme.app.gems"},\#(none)}],"links":{"self":"x"}}"#
        XCTAssertThrowsError(try pull(base.purchasesQuery, twice)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET the app's products cannot be read: inAppPurchases[1].productId is 'com.acme.app.gems': a second product with that ID")
        }
    }

    func testAPriceOrAnOfferThatCannotBeOneIsRefused() throws {
        let q = "?filter%5Bterritory%5D=USA&include=inAppPurchasePricePoint,territory&limit=200"
        let sq = "?filter%5Bterritory%5D=USA&include=subscriptionPricePoint,territory&limit=200"
        func script(_ gemsPrice: String, offerPeriods: Int = 3, start: String = "2026-01-01") -> [String: [Result<HTTPResponse, TransportError>]] {
            var script = base.script(more: false)
            let listed = script.removeValue(forKey: subscriptionsKey)
            script[subscriptionsKey.replacingOccurrences(of: "subscriptionAvailability&", with: "subscriptionAvailability,introductoryOffers&")
                + "&limit%5BintroductoryOffers%5D=1"] = listed
            script["/v1/inAppPurchasePriceSchedules/11/manualPrices" + q] = [json(200, base.pricePage([("a", start, nil, "p1", gemsPrice)], point: "inAppPurchasePricePoint", pointType: "inAppPurchasePricePoints"))]
            script["/v1/inAppPurchasePriceSchedules/10/manualPrices" + q] = [json(200, #"{"data":[],"links":{"self":"x"}}"#)]
            script["/v1/inAppPurchasePriceSchedules/10/automaticPrices" + q] = [json(200, #"{"data":[],"links":{"self":"x"}}"#)]
            for id in ["S1", "S2"] {
                script["/v1/subscriptions/\(id)/prices" + sq] = [json(200, #"{"data":[],"links":{"self":"x"}}"#)]
                script["/v1/subscriptions/\(id)/introductoryOffers" + sq] = [json(200, #"{"data":[{"type":"subscriptionIntroductoryOffers","id":"o\#(id)","attributes":{"duration":"ONE_MONTH","offerMode":"FREE_TRIAL","numberOfPeriods":\#(offerPeriods)}}],"links":{"self":"x"}}"#)]
            }
            return script
        }
        let today = ISO8601DateFormatter().date(from: "2026-11-24T12:00:00Z")!
        func pulled(_ script: [String: [Result<HTTPResponse, TransportError>]]) throws -> ASCSnapshot {
            try SnapshotPull(storefront: "USA", today: today, connections: 1).pull(app: "com.acme.app", client: client(StubTransport(script))).snapshot
        }
        // Each good, first: a price and an offer as App Store Connect gives them; a product without a price has none.
        let good = try pulled(script("1200.0"))
        XCTAssertEqual(good.inAppPurchases.map { $0.price?.amount }, ["1200.0", nil])
        for (bad, why) in [("0x10", "is '0x10': not a price"), ("-1", "is '-1': not a price"), ("1e3", "is '1e3': not a price"), ("", "is '': not a price")] {
            XCTAssertThrowsError(try pulled(script(bad)), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix("App Store Connect's answer to GET the app's products cannot be read: inAppPurchases[0].price.amount \(why) (digits"), "\(error)")
            }
        }
        XCTAssertThrowsError(try pulled(script("0.99", offerPeriods: -5))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET the app's products cannot be read: subscriptionGroups[0].subscriptions[0].introductoryOffer.periods is -5: not between 1 and 100")
        }
        XCTAssertThrowsError(try pulled(script("0.99", start: "9999"))) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/inAppPurchasePriceSchedules/11/manualPrices cannot be read: a startDate is '9999': not a day (YYYY-MM-DD)")
        }
    }

    // MARK: A snapshot file is read through the same checks

    func snapshotText(_ replace: (String) -> String) throws -> String {
        let pulled = try SnapshotPull(connections: 1).pull(app: "com.acme.app", client: client(StubTransport(base.script(more: false)))).snapshot
        return replace(pulled.encoded())
    }

    func testASnapshotFileIsHeldToWhatAPullIs() throws {
        let cases: [(String, (String) -> String, String)] = [
            ("a level past Int", { $0.replacingOccurrences(of: "\"groupLevel\" : 2", with: "\"groupLevel\" : 9223372036854775807") },
             "subscriptionGroups[0].subscriptions[1].groupLevel is 9223372036854775807: not between 1 and 10000"),
            ("a product twice", { $0.replacingOccurrences(of: "com.acme.app.plus.yearly", with: "com.acme.app.gems") },
             "subscriptionGroups[0].subscriptions[1].productId is 'com.acme.app.gems': a second product with that ID"),
            ("a name of a megabyte", { $0.replacingOccurrences(of: "\"name\" : \"Acme\"", with: "\"name\" : \"\(String(repeating: "A", count: 1 << 20))\"") },
             "app.name is '\(String(repeating: "A", count: 100))…' (1048576 characters; the first 100 shown): longer than 4000 characters"),
            ("an ID that leads elsewhere", { $0.replacingOccurrences(of: "\"id\" : \"G1\"", with: "\"id\" : \"../../v1/financeReports\"") },
             "subscriptionGroups[0].id is '../../v1/financeReports': not an App Store Connect ID (letters, digits, '-' and '_')"),
        ]
        for (name, replace, why) in cases {
            let text = try snapshotText(replace)
            XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.utf8), path: "s.json"), name) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("s.json: \(why)"), "\(name): \(message.prefix(400))")
                XCTAssertLessThan(message.utf8.count, 600, name)
            }
        }
    }

    func testEveryTerritorysPricesAreWrittenOneLineEachAndReadBackCheckedLikeAnAnswer() throws {
        var snapshot = try ASCSnapshot.decode(Data(try snapshotText { $0 }.utf8), path: "s.json")
        snapshot.inAppPurchases[0].prices = ASCSnapshot.TerritoryPrices(["USA": ASCSnapshot.Price(amount: "0.99", currency: "USD"),
                                                                         "JPN": ASCSnapshot.Price(amount: "160", currency: "JPY")])
        let text = snapshot.encoded()
        XCTAssertTrue(text.contains("      \"prices\" : {\n        \"JPN\" : \"160 JPY\",\n        \"USA\" : \"0.99 USD\"\n      },\n"), text)
        XCTAssertEqual(try ASCSnapshot.decode(Data(text.utf8), path: "s.json"), snapshot)
        let at = "inAppPurchases[0].prices"
        let cases: [(String, String, String)] = [
            ("a territory that is not one", #""JPN" : "160 JPY""#, #""jpn" : "160 JPY""#),
            ("an amount that is not one", #""USA" : "0.99 USD""#, #""USA" : "1e9 USD""#),
            ("a currency that is not one", #""USA" : "0.99 USD""#, #""USA" : "0.99 US Dollars""#),
            ("a negative amount", #""USA" : "0.99 USD""#, #""USA" : "-0.99 USD""#),
        ]
        let expected = ["\(at) is 'jpn'", "\(at).USA.amount is '1e9'", "\(at).USA.currency is 'US Dollars'", "\(at).USA.amount is '-0.99'"]
        for ((name, from, to), why) in zip(cases, expected) {
            let hostile = text.replacingOccurrences(of: from, with: to)
            XCTAssertNotEqual(hostile, text, name)
            XCTAssertThrowsError(try ASCSnapshot.decode(Data(hostile.utf8), path: "s.json"), name) { error in
                XCTAssertTrue("\(error)".hasPrefix("s.json: \(why)"), "\(name): \(error)")
            }
        }
    }

    func testAnIntegerPast64BitsInASnapshotFileIsFoundWhereItIs() throws {
        let text = try snapshotText { $0.replacingOccurrences(of: "\"groupLevel\" : 2", with: "\"groupLevel\" : 99999999999999999999") }
        // Where the number is, counted here from the text.
        let before = try XCTUnwrap(text.range(of: "99999999999999999999")).lowerBound
        let line = text[..<before].filter { $0 == "\n" }.count + 1
        let column = text.distance(from: text[..<before].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex, to: before) + 1
        XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.utf8), path: "s.json")) { error in
            XCTAssertEqual("\(error)", "s.json: not valid JSON (line \(line), column \(column): the integer 99999999999999999999 does not fit in 64 bits); write one with `iap asc pull --snapshot s.json`")
        }
    }

    func testAPartialSnapshotIsNeverTakenForAWholeOne() throws {
        var partial = try SnapshotPull(connections: 1).pull(app: "com.acme.app", client: client(StubTransport(base.script(more: false)))).snapshot
        partial.pending = [.init(.price, "S1"), .init(.subscriptions, "G1")]
        let text = partial.encoded()
        XCTAssertTrue(text.contains("\"format\" : \"iap-asc-snapshot-partial\""))
        // Pending work in a fixed order.
        XCTAssertTrue(text.contains("\"pending\" : [\n    {\n      \"id\" : \"G1\",\n      \"work\" : \"subscriptions\"\n    },\n    {\n      \"id\" : \"S1\",\n      \"work\" : \"price\"\n    }\n  ]"), text)
        XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.utf8), path: "p.json")) { error in
            XCTAssertEqual("\(error)", "p.json: a partial snapshot: its pull stopped before it was done, so it lacks products or prices; finish it with `iap asc pull --resume --snapshot p.json`")
        }
        XCTAssertEqual(try ASCSnapshot.decode(Data(text.utf8), path: "p.json", partial: true).encoded(), text)
        // A whole snapshot's format with pending work is neither.
        let mixed = text.replacingOccurrences(of: "iap-asc-snapshot-partial", with: "iap-asc-snapshot")
        XCTAssertThrowsError(try ASCSnapshot.decode(Data(mixed.utf8), path: "p.json", partial: true)) { error in
            XCTAssertEqual("\(error)", "p.json: pending is set but the format is \"iap-asc-snapshot\"; pull it again")
        }
    }

    func testAPullStoppedByTheHourFinishesOnResumeAskingOnlyForWhatItLacks() throws {
        let q = "?filter%5Bterritory%5D=USA&include=inAppPurchasePricePoint,territory&limit=200"
        var script = base.script(more: false)
        // The hour has 5 requests left after the app: the two lists of in-app purchases and groups,
        // the group's subscriptions, and two prices.
        script["/v1/apps?filter%5BbundleId%5D=com.acme.app&limit=200"] = [json(200, base.apps, headers: ["x-rate-limit": "user-hour-lim:3600;user-hour-rem:5;"])]
        let listed = script.removeValue(forKey: subscriptionsKey)
        script[subscriptionsKey.replacingOccurrences(of: "subscriptionAvailability&", with: "subscriptionAvailability,introductoryOffers&")
            + "&limit%5BintroductoryOffers%5D=1"] = listed
        for id in ["10", "11"] {
            script["/v1/inAppPurchasePriceSchedules/\(id)/manualPrices" + q] = [json(200, base.pricePage([("m\(id)", nil, nil, "p\(id)", "0.99")], point: "inAppPurchasePricePoint", pointType: "inAppPurchasePricePoints"))]
        }
        let sq = "?filter%5Bterritory%5D=USA&include=subscriptionPricePoint,territory&limit=200"
        for id in ["S1", "S2"] {
            script["/v1/subscriptions/\(id)/prices" + sq] = [json(200, base.pricePage([("s\(id)", nil, nil, "q\(id)", "2.99")], point: "subscriptionPricePoint", pointType: "subscriptionPricePoints"))]
            script["/v1/subscriptions/\(id)/introductoryOffers" + sq] = [json(200, #"{"data":[],"links":{"self":"x"}}"#)]
        }
        let first = StubTransport(script)
        let stopped = try SnapshotPull(storefront: "USA", connections: 1).pull(app: "com.acme.app", client: client(first))
        XCTAssertEqual(first.requested.count, 6)
        guard case .budgetSpent? = stopped.stoppedBy else { return XCTFail("\(String(describing: stopped.stoppedBy))") }
        XCTAssertEqual(stopped.snapshot.pending, [.init(.price, "S1"), .init(.price, "S2"), .init(.introductoryOffer, "S1"), .init(.introductoryOffer, "S2")])
        XCTAssertEqual(stopped.snapshot.inAppPurchases.map { $0.price?.amount }, ["0.99", "0.99"])
        // Read back from its file, then finished: four requests, none asked before.
        let partial = try ASCSnapshot.decode(Data(stopped.snapshot.encoded().utf8), path: "p.json", partial: true)
        let second = StubTransport(script)
        let finished = try SnapshotPull(storefront: "USA", connections: 3).resume(partial, client: client(second))
        XCTAssertNil(finished.stoppedBy)
        XCTAssertNil(finished.snapshot.pending)
        XCTAssertEqual(Set(second.requested), Set(["/v1/subscriptions/S1/prices" + sq, "/v1/subscriptions/S2/prices" + sq,
                                                   "/v1/subscriptions/S1/introductoryOffers" + sq, "/v1/subscriptions/S2/introductoryOffers" + sq]))
        XCTAssertEqual(second.requested.count, 4)
        XCTAssertEqual(finished.snapshot.subscriptionGroups[0].subscriptions.map { $0.price?.amount }, ["2.99", "2.99"])
        // Work a partial snapshot repeats is done once.
        var repeated = partial
        repeated.pending = Array(repeating: partial.pending ?? [], count: 1_000).flatMap { $0 }
        let third = StubTransport(script)
        _ = try SnapshotPull(storefront: "USA", connections: 2).resume(repeated, client: client(third))
        XCTAssertEqual(third.requested.count, 4)
        // Pending work that names nothing the snapshot holds is refused.
        var wrong = partial
        wrong.pending = [.init(.price, "S9")]
        XCTAssertThrowsError(try SnapshotPull(storefront: "USA").resume(wrong, client: client(StubTransport(script)))) { error in
            XCTAssertEqual("\(error)", "the partial snapshot's pending[0] names 'S9', which it does not hold; pull it again without --resume")
        }
    }

    /// The deepest JSON 100 kB can hold, and JSON just within the 511 levels a body may nest, as
    /// the answer to every price request on eight connections: an error, never a stack overflow on
    /// a connection's thread.
    func testDeeplyNestedAnswersOnEveryConnectionAreErrors() throws {
        for depth in [50_000, 500] {
            var script = base.script(more: false)
            let deep = "{\"data\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
            let q = "?filter%5Bterritory%5D=USA&include=inAppPurchasePricePoint,territory&limit=200"
            for id in ["10", "11"] { script["/v1/inAppPurchasePriceSchedules/\(id)/manualPrices" + q] = [json(200, deep)] }
            let listed = script.removeValue(forKey: subscriptionsKey)
            script[subscriptionsKey.replacingOccurrences(of: "subscriptionAvailability&", with: "subscriptionAvailability,introductoryOffers&")
                + "&limit%5BintroductoryOffers%5D=1"] = listed
            XCTAssertThrowsError(try SnapshotPull(storefront: "USA", connections: 8).pull(app: "com.acme.app", client: client(StubTransport(script)))) { error in
                // `{"data":` is 8 characters; the object is the first level, so the 511th bracket is the 512th.
                let why = depth > 511 ? "the body is not valid JSON: line 1, column \(8 + 511): nesting deeper than 511 levels" : "data[0] has an unexpected type"
                XCTAssertTrue("\(error)".hasPrefix("App Store Connect's answer to GET /v1/inAppPurchasePriceSchedules/1"), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("/manualPrices cannot be read: \(why)"), "\(error)")
            }
        }
    }
}

extension HostileAnswerTests {
    static let offerCodesKey = "/v1/subscriptions/S1/offerCodes?limit=200&include=customCodes&limit%5BcustomCodes%5D=50"

    /// The pull with `--offer-codes` of `SnapshotPullTests`' store, its subscription S1 listed with
    /// `links` as its offer codes, and `more` answering the other requests.
    func pullOfferCodes(_ links: String, more: [String: String] = [:]) throws -> (ASCSnapshot, StubTransport) {
        var script = base.script(more: false)
        script.removeValue(forKey: subscriptionsKey)
        let list = #"{"data":[{"type":"subscriptions","id":"S1","attributes":{"productId":"com.acme.app.plus.monthly"},"relationships":{"subscriptionLocalizations":{"data":[]},"offerCodes":\#(links)}}],"links":{"self":"x"}}"#
        script[subscriptionsKey.replacingOccurrences(of: "subscriptionAvailability&", with: "subscriptionAvailability,offerCodes&") + "&limit%5BofferCodes%5D=1"] = [json(200, list)]
        for (key, answer) in more { script[key] = [json(200, answer)] }
        let transport = StubTransport(script)
        let snapshot = try SnapshotPull(connections: 1, offerCodes: true).pull(app: "com.acme.app", client: client(transport)).snapshot
        return (snapshot, transport)
    }

    static let oneCode = #"{"meta":{"paging":{"total":1,"limit":1}},"data":[{"type":"subscriptionOfferCodes","id":"C1"}]}"#

    /// A page of one offer code, C1 named Spring, with `attributes` and its custom codes `customs` (with `total`).
    func codePage(_ attributes: String, customs: [String] = [], total: Int? = nil) -> String {
        let links = customs.indices.map { #"{"type":"subscriptionOfferCodeCustomCodes","id":"K\#($0)"}"# }.joined(separator: ",")
        let included = customs.enumerated().map { #"{"type":"subscriptionOfferCodeCustomCodes","id":"K\#($0.offset)","attributes":{\#($0.element)}}"# }
        return #"{"data":[{"type":"subscriptionOfferCodes","id":"C1","attributes":{"name":"Spring",\#(attributes)},"relationships":{"customCodes":{"meta":{"paging":{"total":\#(total ?? customs.count),"limit":50}},"data":[\#(links)]}}}],"included":[\#(included.joined(separator: ","))],"links":{"self":"x"}}"#
    }

    func testOfferCodesAreHeldToWhatAppStoreConnectHolds() throws {
        // None: no request more.
        let (none, quiet) = try pullOfferCodes(#"{"meta":{"paging":{"total":0,"limit":1}},"data":[]}"#)
        XCTAssertEqual(none.subscriptionGroups[0].subscriptions[0].offerCodes, [])
        XCTAssertFalse(quiet.requested.contains { $0.contains("/offerCodes") })
        // Some: the subscription's own list, once, with their custom codes.
        let (read, transport) = try pullOfferCodes(Self.oneCode, more: [Self.offerCodesKey: codePage(
            #""customerEligibilities":["NEW","EXPIRED"],"offerEligibility":"REPLACE_INTRO_OFFERS","offerMode":"FREE_TRIAL","duration":"ONE_WEEK","numberOfPeriods":1,"active":true"#,
            customs: [#""customCode":"SPRING25","numberOfCodes":500,"expirationDate":"2027-06-30","active":true"#])])
        XCTAssertEqual(read.subscriptionGroups[0].subscriptions[0].offerCodes, [.init(
            name: "Spring", mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1, eligibilities: ["NEW", "EXPIRED"], offerEligibility: "REPLACE_INTRO_OFFERS",
            active: true, id: "C1", customCodes: [.init(code: "SPRING25", numberOfCodes: 500, expirationDate: "2027-06-30", active: true)])])
        XCTAssertEqual(transport.requested.filter { $0.contains("/offerCodes") }, [Self.offerCodesKey])
        for (attributes, customs, why) in [
            (#""customerEligibilities":["NEW","NEW","NEW","NEW"]"#, [String](), "offerCodes[0].eligibilities has 4 entries, more than the 3 kinds of customer"),
            (#""customerEligibilities":["new kind"]"#, [], "offerCodes[0].eligibilities[0] is 'new kind': not one of App Store Connect's values (capital letters, digits and '_')"),
            (#""numberOfPeriods":0"#, [], "offerCodes[0].periods is 0: not between 1 and 100"),
            (#""offerEligibility":"STACK\u0000""#, [], "offerCodes[0].offerEligibility is 'STACK\\u{0}': not one of App Store Connect's values (capital letters, digits and '_')"),
            ("\"active\":true", [#""customCode":"","numberOfCodes":1"#], "offerCodes[0].customCodes[0].code is '': is empty"),
            ("\"active\":true", [#""customCode":"A","numberOfCodes":-1"#], "offerCodes[0].customCodes[0].numberOfCodes is -1: not a number of redemptions"),
            ("\"active\":true", [#""customCode":"A","numberOfCodes":1,"expirationDate":"soon""#], "offerCodes[0].customCodes[0].expirationDate is 'soon': not a day (YYYY-MM-DD)"),
        ] {
            XCTAssertThrowsError(try pullOfferCodes(Self.oneCode, more: [Self.offerCodesKey: codePage(attributes, customs: customs)]), attributes) { error in
                XCTAssertEqual("\(error)", "App Store Connect's answer to GET the app's products cannot be read: subscriptionGroups[0].subscriptions[0].\(why)")
            }
        }
        // A link to another kind of resource is refused, not read as an offer code.
        let other = #"{"meta":{"paging":{"total":1,"limit":1}},"data":[{"type":"subscriptionPromotionalOffers","id":"C1"}]}"#
        XCTAssertThrowsError(try pullOfferCodes(other)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/subscriptionGroups/G1/subscriptions cannot be read: "
                           + "an offerCodes link is of type 'subscriptionPromotionalOffers', not 'subscriptionOfferCodes'")
        }
        // More custom codes than were included: the offer code's own list is read, once.
        let page = #"{"data":[{"type":"subscriptionOfferCodeCustomCodes","id":"K9","attributes":{"customCode":"LATE","numberOfCodes":2,"active":false}}],"links":{"self":"x"}}"#
        let (more, asked) = try pullOfferCodes(Self.oneCode, more: [Self.offerCodesKey: codePage("\"active\":true", customs: [], total: 51),
                                                                    "/v1/subscriptionOfferCodes/C1/customCodes?limit=200": page])
        XCTAssertEqual(more.subscriptionGroups[0].subscriptions[0].offerCodes?.first?.customCodes, [.init(code: "LATE", numberOfCodes: 2, expirationDate: nil, active: false)])
        XCTAssertEqual(asked.requested.filter { $0.contains("fferCodes") && !$0.contains("subscriptionGroups") }, [Self.offerCodesKey, "/v1/subscriptionOfferCodes/C1/customCodes?limit=200"])
    }
}
