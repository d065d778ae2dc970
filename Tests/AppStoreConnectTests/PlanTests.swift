import AppStoreConnect
import CatalogJoins
import Diagnostics
import Foundation
import IAPCatalog
import TestSupport
import XCTest

/// `iap asc plan`'s steps (the declared catalog against a snapshot) and `iap asc apply`'s
/// judgement of each step against App Store Connect as it is.
final class PlanTests: ScratchFolderTestCase {
    func catalog(_ text: String = ShopCatalog.metadata) throws -> Catalog {
        try write("Catalog/Metadata.plist", text)
        let path = folder.appendingPathComponent("Catalog/Metadata.plist").path
        return CatalogLoader().loadCatalog(name: "Catalog", paths: [path], explicit: [path])
    }

    static let app = ASCSnapshot.App(id: "1500000000", bundleId: "com.acme.shop", name: "Shop")

    func plan(_ catalog: Catalog, _ snapshot: ASCSnapshot) -> CatalogPlan {
        Planner(snapshot: snapshot, path: "shop.snapshot.json", text: snapshot.encoded()).plan(catalog)
    }

    /// The snapshot of an app that holds the catalog exactly (prices everywhere pulled, territories pulled).
    static func matching() -> ASCSnapshot {
        let availability = ASCSnapshot.Review(screenshot: true, availability: .init(id: "av1", availableInNewTerritories: true, territories: ["GBR", "USA"]))
        let gems = ASCSnapshot.InAppPurchase(
            productId: "com.acme.shop.gems", id: "6400000001", name: "Gems", type: "CONSUMABLE", state: "APPROVED", familySharable: nil,
            localizations: [.init(locale: "en-US", name: "Gems", description: "A bag of gems", state: "APPROVED")],
            prices: .init(["USA": .init(amount: "0.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")]),
            review: availability, reviewNote: "Buy from the shop tab.")
        let club = ASCSnapshot.Subscription(
            productId: "com.acme.shop.club.monthly", id: "6400000002", name: "Club Monthly", state: "APPROVED", period: "ONE_MONTH", groupLevel: 1,
            familySharable: true, localizations: [.init(locale: "en-US", name: "Club", description: "Every month", state: "APPROVED")],
            prices: .init(["USA": .init(amount: "2.99", currency: "USD")]), review: availability)
        return ASCSnapshot(app: app, inAppPurchases: [gems], subscriptionGroups: [.init(id: "2100000001", referenceName: "Club", subscriptions: [club])])
    }

    func testOnAnEmptyAppEverythingIsCreatedGroupFirstThenEachProductAndWhatHangsOnIt() throws {
        let plan = plan(try catalog(), ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        let shown = plan.steps.map { "\($0.number) \($0.action.rawValue) \($0.product ?? $0.group ?? "") \($0.locale ?? "")".trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(shown, [
            "1 create-group Club",
            "2 create-product com.acme.shop.club.monthly",
            "3 create-localization com.acme.shop.club.monthly en-US",
            "4 set-prices com.acme.shop.club.monthly",
            "5 create-product com.acme.shop.gems",
            "6 create-localization com.acme.shop.gems en-US",
            "7 set-prices com.acme.shop.gems",
            "8 set-availability com.acme.shop.gems",
        ])
        XCTAssertEqual(plan.steps[1].set, ["name": "Club Monthly", "period": "ONE_MONTH", "groupLevel": "1", "familySharable": "true"])
        XCTAssertEqual(plan.steps[1].type, "AUTO_RENEWABLE")
        XCTAssertEqual(plan.steps[1].group, "Club")
        XCTAssertEqual(plan.steps[3].set, ["USA": "2.99", "baseTerritory": "USA"])
        XCTAssertEqual(plan.steps[4].set, ["name": "Gems", "reviewNote": "Buy from the shop tab."])
        XCTAssertEqual(plan.steps[4].type, "CONSUMABLE")
        XCTAssertEqual(plan.steps[6].set, ["USA": "0.99", "GBR": "0.89", "baseTerritory": "USA"])
        XCTAssertEqual(plan.steps[7].set, ["territories": "GBR,USA", "newTerritories": "true"])
        XCTAssertTrue(plan.steps.allSatisfy { $0.before == nil })
        XCTAssertEqual(plan.blocked, [])
    }

    func testAnAppThatHoldsTheCatalogNeedsNoStepAndTheSameInputsMakeTheSameBytes() throws {
        let catalog = try catalog()
        let first = plan(catalog, Self.matching())
        XCTAssertEqual(first.steps, [])
        XCTAssertEqual(first.blocked, [])
        XCTAssertEqual(first.encoded(), plan(catalog, Self.matching()).encoded())
    }

    func testEachChangedFieldIsOneUpdateWithWhatItWas() throws {
        var snapshot = Self.matching()
        snapshot.inAppPurchases[0].name = "Gem Pack"
        snapshot.inAppPurchases[0].localizations[0].description = "Gems"
        snapshot.inAppPurchases[0].prices = .init(["USA": .init(amount: "1.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")])
        snapshot.subscriptionGroups[0].subscriptions[0].review?.availability?.territories = ["USA"]
        let plan = plan(try catalog(), snapshot)
        XCTAssertEqual(plan.steps.map(\.action), [.updateProduct, .updateLocalization, .setPrices])
        XCTAssertEqual(plan.steps[0].set, ["name": "Gems"])
        XCTAssertEqual(plan.steps[0].before, ["name": "Gem Pack"])
        XCTAssertEqual(plan.steps[1].set, ["description": "A bag of gems"])
        XCTAssertEqual(plan.steps[1].before, ["description": "Gems"])
        // An in-app purchase's schedule is written whole: base territory and every named price.
        XCTAssertEqual(plan.steps[2].set, ["USA": "0.99", "GBR": "0.89", "baseTerritory": "USA"])
        XCTAssertEqual(plan.steps[2].before, ["USA": "1.99", "GBR": "0.89"])
    }

    func testWhatAppStoreConnectCannotChangeIsBlockedAndRemovalsAreOnlySaid() throws {
        var snapshot = Self.matching()
        snapshot.inAppPurchases[0].type = "NON_CONSUMABLE"
        snapshot.subscriptionGroups[0].subscriptions[0].familySharable = true
        snapshot.subscriptionGroups[0].referenceName = "Members"
        snapshot.inAppPurchases.append(.init(productId: "com.acme.shop.old", id: "6400000009", name: "Old", type: "CONSUMABLE", state: "APPROVED",
                                             familySharable: false, localizations: []))
        let text = ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><false/>")
        let plan = plan(try catalog(text), snapshot)
        XCTAssertEqual(plan.steps, [])
        XCTAssertEqual(plan.blocked.map { "\($0.level.rawValue) \($0.product ?? "") \($0.what)" }, [
            "error com.acme.shop.club.monthly move it from the group 'Members' to 'Club'",
            "error com.acme.shop.club.monthly turn Family Sharing off",
            "error com.acme.shop.gems change the type from non-consumable to consumable",
            "info com.acme.shop.old remove the product",
        ])
        XCTAssertTrue(plan.blocked[2].reason.contains("give the consumable a new product ID"), plan.blocked[2].reason)
        XCTAssertEqual(plan.blocked[3].source, "shop.snapshot.json:\(snapshot.encoded().split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("com.acme.shop.old") }! + 1)")
    }

    func testWhatTheSnapshotDoesNotHoldIsNotPlannedButSaid() throws {
        var snapshot = Self.matching()
        snapshot.inAppPurchases[0].prices = nil
        snapshot.inAppPurchases[0].review?.availability?.territories = nil
        let plan = plan(try catalog(), snapshot)
        XCTAssertEqual(plan.steps, [])
        XCTAssertEqual(plan.blocked.map(\.what), ["set the price in GBR, USA", "set the availability"])
        XCTAssertTrue(plan.blocked.allSatisfy { $0.level == .info })
        XCTAssertTrue(plan.blocked[0].reason.contains("--all-storefronts"))
        XCTAssertTrue(plan.blocked[1].reason.contains("--availability"))
    }

    func testAProductWithoutWhatAppStoreConnectNeedsIsNotCreated() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>IAPCatalogMetadata</key><integer>1</integer><key>products</key><dict>
        <key>com.acme.shop.nameless</key><dict><key>kind</key><string>consumable</string><key>referenceName</key><string> </string></dict>
        <key>com.acme.shop.blank</key><dict><key>kind</key><string>consumable</string><key>referenceName</key><string>Blank</string>
        <key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string></string></dict>
        <key>fr_FR</key><dict><key>displayName</key><string>Vide</string></dict></dict></dict>
        <key>com.acme.shop.loose</key><dict><key>kind</key><string>auto-renewable</string><key>referenceName</key><string>Loose</string></dict>
        <key>com.acme.shop.euro</key><dict><key>kind</key><string>consumable</string><key>referenceName</key><string>Euro</string>
        <key>price</key><string>0.99</string><key>currency</key><string>EUR</string></dict>
        </dict></dict></plist>
        """
        let loaded = try catalog(text)
        XCTAssertEqual(loaded.products.count, 4, "\(loaded.loadDiagnostics)")
        let plan = plan(loaded, ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        XCTAssertEqual(plan.steps.map { "\($0.action.rawValue) \($0.product ?? "") \($0.locale ?? "")" },
                       ["create-product com.acme.shop.blank ", "create-localization com.acme.shop.blank fr-FR", "create-product com.acme.shop.euro "])
        XCTAssertEqual(plan.blocked.map { "\($0.product ?? "") \($0.what)" }, [
            "com.acme.shop.blank create the en-US localization",
            "com.acme.shop.euro set the price 0.99 EUR",
            "com.acme.shop.loose create the subscription",
            "com.acme.shop.nameless create the product",
        ])
        XCTAssertEqual(plan.blocked.map(\.level), [.error, .error, .error, .error])
        XCTAssertTrue(plan.blocked[3].reason.contains("referenceName"), plan.blocked[3].reason)
    }

    // MARK: The plan file

    func testThePlanFileReadsBackAndAHandEditedOneIsRefusedWhereItIsWrong() throws {
        let plan = plan(try catalog(), ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        let text = plan.encoded()
        XCTAssertEqual(try CatalogPlan.decode(Data(text.utf8), path: "p.json"), plan)
        let cases: [(String, String, String)] = [
            (#""GBR" : "0.89""#, #""GB" : "0.89""#, "steps[6].set.GB is 'GB': not three capital letters"),
            (#""USA" : "0.99""#, #""USA" : "1e3""#, "steps[6].set.USA is '1e3': not a price"),
            (#""name" : "Gems""#, #""sku" : "Gems""#, "steps[4].set.sku is not a field create-product sets"),
            (#""number" : 3"#, #""number" : 9"#, "steps[2].number is 9, not 3"),
            (#""productId""#, #""productId""#, ""),
            (#""territories" : "GBR,USA""#, #""territories" : "GBR,../x""#, "steps[7].set.territories is '../x': not three capital letters"),
            (#""id" : "1500000000""#, #""id" : "../apps""#, "app.id is '../apps'"),
        ]
        for (from, to, expected) in cases where !expected.isEmpty {
            XCTAssertTrue(text.contains(from), from)
            let edited = text.replacingOccurrences(of: from, with: to)
            XCTAssertThrowsError(try CatalogPlan.decode(Data(edited.utf8), path: "p.json"), from) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("make it again with `iap asc plan --plan p.json`"), "\(error)")
            }
        }
        XCTAssertThrowsError(try CatalogPlan.decode(Data("{\"format\":\"iap-asc-snapshot\",\"version\":1}".utf8), path: "p.json")) { error in
            XCTAssertTrue("\(error)".contains("not an iap plan"), "\(error)")
        }
    }

    func testThePlanFileIsTheBytesFoundationsJSONEncoderWrites() throws {
        var plan = plan(try catalog(), ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        plan.app.name = nil
        plan.against.storefront = "USA"
        plan.steps[4].set["reviewNote"] = "Quotes \" and \\, a slash /, a tab \t, \u{08}\u{0C}\u{01}, é and 🎉"
        plan.steps[4].before = [:]
        plan.blocked = [.init(level: .info, group: "Club", what: "remove", reason: "by hand"),
                        .init(level: .error, product: "com.acme.shop.x", what: "w", reason: "r", source: "a/b.plist:3")]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for candidate in [plan, CatalogPlan(app: Self.app, against: plan.against, steps: [], blocked: [])] {
            XCTAssertEqual(candidate.encoded(), String(decoding: try encoder.encode(candidate), as: UTF8.self) + "\n")
            XCTAssertEqual(try CatalogPlan.decode(Data(candidate.encoded().utf8), path: "p.json"), candidate)
        }
    }

    // MARK: Judging steps at apply

    func testEachStepIsPlannedDoneOrMovedAndAStalePlanNamesWhatMoved() throws {
        let catalog = try catalog()
        var before = Self.matching()
        before.inAppPurchases[0].name = "Gem Pack"
        before.inAppPurchases[0].prices = .init(["USA": .init(amount: "1.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")])
        let plan = plan(catalog, before)
        let apply = PlanApply(plan: plan, allTerritories: ["GBR", "USA"])
        XCTAssertEqual(apply.statuses(before), [.planned, .planned])
        XCTAssertEqual(apply.staleness(before, resuming: false), [])
        // Written: done, and a resumed run finds nothing to write.
        XCTAssertEqual(apply.statuses(Self.matching()), [.done, .done])
        XCTAssertEqual(apply.verify(Self.matching()), [])
        // Half written (an apply stopped after step 1): fresh to a resumed run, stale to a new one.
        var half = before
        half.inAppPurchases[0].name = "Gems"
        XCTAssertEqual(apply.statuses(half), [.done, .planned])
        XCTAssertEqual(apply.staleness(half, resuming: true), [])
        XCTAssertEqual(apply.staleness(half, resuming: false).count, 1)
        XCTAssertTrue(apply.staleness(half, resuming: false)[0].contains("changed since the plan was made"))
        // Changed by someone else: named, resumed or not.
        var moved = before
        moved.inAppPurchases[0].name = "Gem Bag"
        XCTAssertEqual(apply.staleness(moved, resuming: true), ["step 1 (update 'com.acme.shop.gems': name): its name is now 'Gem Bag'"])
        XCTAssertEqual(apply.verify(before), [
            "step 1 (update 'com.acme.shop.gems': name): App Store Connect does not hold it",
            "step 2 (set the price of 'com.acme.shop.gems' in GBR, USA): App Store Connect does not hold it",
        ])
        // A review state that moves on its own does not make a plan stale.
        var reviewed = before
        reviewed.inAppPurchases[0].state = "WAITING_FOR_REVIEW"
        XCTAssertEqual(apply.staleness(reviewed, resuming: false), [])
    }
}

extension PlanTests {
    /// The shop's subscription with an introductory offer.
    static func withOffer(_ mode: String, _ period: String, periods: Int = 1, price: String? = nil) -> String {
        let offer = "<key>introductoryOffer</key><dict><key>paymentMode</key><string>\(mode)</string><key>period</key><string>\(period)</string>"
            + "<key>periods</key><integer>\(periods)</integer>" + (price.map { "<key>price</key><string>\($0)</string>" } ?? "") + "</dict>"
        return ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><true/>" + offer)
    }

    func testAnIntroductoryOfferIsAddedWhereAppStoreConnectHasNoneAndSaidWhereItHasAnother() throws {
        var empty = ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: [])
        empty.storefront = "USA"
        let free = plan(try catalog(Self.withOffer("free-trial", "P7D")), empty)
        let offer = try XCTUnwrap(free.steps.first { $0.action == .setIntroductoryOffer })
        // After the subscription's prices: an offer goes where it has a price.
        XCTAssertEqual(offer.number, 5)
        XCTAssertEqual(offer.set, ["mode": "FREE_TRIAL", "duration": "ONE_WEEK", "periods": "1"])
        XCTAssertNil(offer.before)
        XCTAssertEqual(PlanApply.describe(offer), "add the introductory offer of 'com.acme.shop.club.monthly'")
        // A paid offer is in the territory of the product's price (USD: the USA).
        let paid = plan(try catalog(Self.withOffer("pay-as-you-go", "P1M", periods: 3, price: "0.99")), empty)
        XCTAssertEqual(paid.steps.first { $0.action == .setIntroductoryOffer }?.set,
                       ["mode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH", "periods": "3", "price": "0.99", "baseTerritory": "USA"])
        // Without a storefront the snapshot has no offers to compare: said, not planned.
        let unknown = plan(try catalog(Self.withOffer("free-trial", "P1W")), ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        XCTAssertFalse(unknown.steps.contains { $0.action == .setIntroductoryOffer })
        XCTAssertEqual(unknown.blocked.map { "\($0.level) \($0.what)" }, ["info add the introductory offer free-trial P1W"])
        // A duration App Store Connect does not offer: the catalog must change.
        let odd = plan(try catalog(Self.withOffer("free-trial", "P5D")), empty)
        XCTAssertEqual(odd.blocked.map(\.level), [.error])
        XCTAssertTrue(odd.blocked[0].reason.hasPrefix("App Store Connect's introductory offers last 3 days, 1 or 2 weeks"), odd.blocked[0].reason)

        // A new subscription without a price: App Store Connect would have nowhere to make the offer.
        let unpriced = plan(try catalog(Self.withOffer("free-trial", "P1W").replacingOccurrences(of: "<key>price</key><string>2.99</string>", with: "")), empty)
        XCTAssertEqual(unpriced.blocked.map { "\($0.level) \($0.product ?? "")" }, ["error com.acme.shop.club.monthly"])
        XCTAssertTrue(unpriced.blocked[0].reason.hasPrefix("the subscription has no price"), unpriced.blocked[0].reason)
        // App Store Connect holds the same offer: nothing to do; another: said, never changed.
        var matching = Self.matching()
        matching.storefront = "USA"
        matching.subscriptionGroups[0].subscriptions[0].introductoryOffer = .init(mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1, price: nil)
        XCTAssertEqual(plan(try catalog(Self.withOffer("free-trial", "P1W")), matching).steps, [])
        let other = plan(try catalog(Self.withOffer("free-trial", "P1M")), matching)
        XCTAssertEqual(other.steps, [])
        XCTAssertEqual(other.blocked.map { "\($0.level) \($0.what): \($0.reason)" }, [
            "info add the introductory offer free-trial P1M: App Store Connect has free-trial P1W in USA and changes an introductory offer only by "
                + "ending it: end it in App Store Connect, then plan again",
        ])
        // Judged by apply: none is planned, the offer set is done, another has moved.
        var none = matching
        none.subscriptionGroups[0].subscriptions[0].introductoryOffer = nil
        let step = try XCTUnwrap(plan(try catalog(Self.withOffer("free-trial", "P1W")), none).steps.first)
        let apply = PlanApply(plan: CatalogPlan(app: Self.app, against: .init(none), steps: [step], blocked: []), allTerritories: ["GBR", "USA"])
        XCTAssertEqual(apply.statuses(none), [.planned])
        XCTAssertEqual(apply.statuses(matching), [.done])
        var moved = matching
        moved.subscriptionGroups[0].subscriptions[0].introductoryOffer = .init(mode: "PAY_UP_FRONT", duration: "ONE_MONTH", periods: 1,
                                                                                 price: .init(amount: "1.99", currency: "USD"))
        XCTAssertEqual(apply.statuses(moved), [.moved("it now has an introductory offer: duration ONE_MONTH, mode PAY_UP_FRONT, periods 1, price 1.99")])
    }
}

extension PlanTests {
    /// The shop's subscription with two promotional offers: a paid one and a free month.
    static let withPromotionalOffers = ShopCatalog.metadata.replacingOccurrences(
        of: "<key>familyShareable</key><true/>",
        with: "<key>familyShareable</key><true/><key>promotionalOffers</key><array>"
            + "<dict><key>id</key><string>WINBACK1</string><key>referenceName</key><string>Come back</string><key>paymentMode</key><string>pay-up-front</string>"
            + "<key>period</key><string>P3M</string><key>price</key><string>4.99</string></dict>"
            + "<dict><key>id</key><string>FREEMONTH</string><key>referenceName</key><string>A free month</string><key>paymentMode</key><string>free-trial</string>"
            + "<key>period</key><string>P1M</string></dict></array>")

    func testEachPromotionalOfferAppStoreConnectLacksIsAddedByItsCode() throws {
        let empty = ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: [])
        let new = plan(try catalog(Self.withPromotionalOffers), empty)
        let offers = new.steps.filter { $0.action == .createPromotionalOffer }
        XCTAssertEqual(offers.map(\.set), [
            ["code": "WINBACK1", "name": "Come back", "mode": "PAY_UP_FRONT", "duration": "THREE_MONTHS", "periods": "1", "price": "4.99", "baseTerritory": "USA"],
            ["code": "FREEMONTH", "name": "A free month", "mode": "FREE_TRIAL", "duration": "ONE_MONTH", "periods": "1"],
        ])
        // After the subscription's prices: an offer is made where it has one.
        XCTAssertEqual(offers.map(\.number), [5, 6])
        XCTAssertEqual(PlanApply.describe(offers[0]), "add the promotional offer 'WINBACK1' of 'com.acme.shop.club.monthly'")

        // App Store Connect holds one of them: the other is added; a snapshot without them says so.
        var matching = Self.matching()
        let held = ASCSnapshot.PromotionalOffer(code: "FREEMONTH", name: "A free month", mode: "FREE_TRIAL", duration: "ONE_MONTH", periods: 1)
        matching.subscriptionGroups[0].subscriptions[0].promotionalOffers = [held]
        let one = plan(try catalog(Self.withPromotionalOffers), matching)
        XCTAssertEqual(one.steps.map { $0.set["code"] ?? "" }, ["WINBACK1"])
        XCTAssertEqual(one.against.promotionalOffers, true)
        let unread = plan(try catalog(Self.withPromotionalOffers), Self.matching())
        XCTAssertEqual(unread.steps, [])
        XCTAssertEqual(unread.blocked.map { "\($0.level) \($0.what)" }, ["info add the promotional offer 'WINBACK1'", "info add the promotional offer 'FREEMONTH'"])
        XCTAssertNil(unread.against.promotionalOffers)
        // Held on other terms: said, never changed.
        var other = matching
        other.subscriptionGroups[0].subscriptions[0].promotionalOffers = [.init(code: "FREEMONTH", name: "A free month", mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1)]
        let differs = plan(try catalog(Self.withPromotionalOffers), other)
        XCTAssertEqual(differs.steps.map { $0.set["code"] ?? "" }, ["WINBACK1"])
        XCTAssertEqual(differs.blocked.map(\.reason), ["App Store Connect has the offer 'FREEMONTH' as FREE_TRIAL ONE_WEEK × 1 named 'A free month', and changes only "
                                                        + "an offer's prices: change it there, or give the catalog's offer a new identifier"])
        // An offer without a name cannot be made.
        let unnamed = plan(try catalog(Self.withPromotionalOffers.replacingOccurrences(of: "<key>referenceName</key><string>Come back</string>", with: "")), empty)
        XCTAssertEqual(unnamed.blocked.map { "\($0.level) \($0.what)" }, ["error add the promotional offer 'WINBACK1'"])

        // Judged by apply, by code: missing is planned, held is done, held otherwise has moved.
        let step = try XCTUnwrap(plan(try catalog(Self.withPromotionalOffers), { var s = matching; s.subscriptionGroups[0].subscriptions[0].promotionalOffers = []; return s }()).steps.last)
        let apply = PlanApply(plan: CatalogPlan(app: Self.app, against: .init(matching), steps: [step], blocked: []), allTerritories: ["GBR", "USA"])
        XCTAssertEqual(step.set["code"], "FREEMONTH")
        XCTAssertEqual(apply.statuses(matching), [.done])
        XCTAssertEqual(apply.statuses(other), [.moved("its promotional offer 'FREEMONTH' is now name A free month, mode FREE_TRIAL, duration ONE_WEEK, periods 1")])
        var none = matching
        none.subscriptionGroups[0].subscriptions[0].promotionalOffers = []
        XCTAssertEqual(apply.statuses(none), [.planned])
    }
}

extension PlanTests {
    func testBlankTextInTheCatalogChangesNothingInAppStoreConnect() throws {
        // A `.storekit` file made in Xcode holds "" until filled in: App Store Connect's text stays.
        let blank = ShopCatalog.metadata
            .replacingOccurrences(of: "<key>displayName</key><string>Gems</string><key>description</key><string>A bag of gems</string>",
                                  with: "<key>displayName</key><string></string><key>description</key><string> </string>")
            .replacingOccurrences(of: "<key>referenceName</key><string>Gems</string>", with: "<key>referenceName</key><string></string>")
            .replacingOccurrences(of: "<key>subscriptionGroup</key><string>Club</string>", with: "<key>subscriptionGroup</key><string> </string>")
        XCTAssertNotEqual(blank, ShopCatalog.metadata)
        let plan = plan(try catalog(blank), Self.matching())
        XCTAssertEqual(plan.steps, [])
        XCTAssertEqual(plan.blocked, [])
        // On an empty app: no group named blank, no localization without a name, each said.
        let new = self.plan(try catalog(blank), ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        XCTAssertFalse(new.steps.contains { $0.action == .createGroup })
        XCTAssertEqual(new.blocked.map { "\($0.level) \($0.product ?? "") \($0.what)" }, [
            "error com.acme.shop.club.monthly create the subscription",
            "error com.acme.shop.gems create the product",
        ])
    }
}

extension PlanTests {
    /// The shop with the gems' USA price `price` from `start`.
    static func gemsFrom(_ start: String, price: String = "1.99") -> String {
        ShopCatalog.metadata.replacingOccurrences(of: "<key>price</key><string>0.99</string>",
                                                  with: "<key>price</key><string>\(price)</string><key>priceStartDate</key><string>\(start)</string>")
    }

    func testAPriceChangeWithAStartDateIsDoneOnceAppStoreConnectHoldsItFromThatDay() throws {
        let catalog = try catalog(Self.gemsFrom("2027-03-01"))
        XCTAssertEqual(catalog.products.first { $0.id == "com.acme.shop.gems" }?.metadata.priceStartDate?.value, "2027-03-01")
        let before = Self.matching()
        let plan = plan(catalog, before)
        XCTAssertEqual(plan.steps, [CatalogPlan.Step(number: 1, action: .setPrices, product: "com.acme.shop.gems",
                                                     set: ["USA": "1.99", "GBR": "0.89", "baseTerritory": "USA", "startDate": "2027-03-01"],
                                                     before: ["USA": "0.99", "GBR": "0.89"], source: plan.steps.first?.source)])
        XCTAssertEqual(plan.blocked, [])
        XCTAssertEqual(PlanApply.describe(plan.steps[0]), "set the price of 'com.acme.shop.gems' in GBR, USA from 2027-03-01")
        // Scheduled: today's price stays, the next one starts that day; the step is done and
        // planning again finds nothing to do.
        var scheduled = before
        scheduled.inAppPurchases[0].scheduledPrices = .init(["USA": [.init(start: "2027-03-01", price: .init(amount: "1.99", currency: "USD"))]])
        let apply = PlanApply(plan: plan, allTerritories: ["GBR", "USA"])
        XCTAssertEqual(apply.statuses(before), [.planned])
        XCTAssertEqual(apply.statuses(scheduled), [.done])
        XCTAssertEqual(self.plan(catalog, scheduled).steps, [])
        // Another change scheduled before it does not hide it: every price to come is kept.
        var two = before
        two.inAppPurchases[0].scheduledPrices = .init(["USA": [.init(start: "2027-01-01", price: .init(amount: "1.49", currency: "USD")),
                                                                .init(start: "2027-03-01", price: .init(amount: "1.99", currency: "USD"))]])
        XCTAssertEqual(apply.statuses(two), [.done])
        XCTAssertEqual(self.plan(catalog, two).steps, [])
        XCTAssertTrue(two.encoded().contains("\"USA\" : \"2027-01-01 1.49 USD, 2027-03-01 1.99 USD\""), two.encoded())
        XCTAssertEqual(try ASCSnapshot.decode(Data(two.encoded().utf8), path: "s.json"), two)
        // Once the day has come, today's price is the new one: done too.
        var started = before
        started.inAppPurchases[0].prices = .init(["USA": .init(amount: "1.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")])
        XCTAssertEqual(apply.statuses(started), [.done])
        XCTAssertEqual(self.plan(catalog, started).steps, [])
        // Another change scheduled (another day): planned again, and what moved is named.
        var other = before
        other.inAppPurchases[0].scheduledPrices = .init(["USA": [.init(start: "2027-06-01", price: .init(amount: "1.99", currency: "USD"))]])
        XCTAssertEqual(self.plan(catalog, other).steps.map { $0.set["startDate"] }, ["2027-03-01"])
        var elsewhere = before
        elsewhere.inAppPurchases[0].prices = .init(["USA": .init(amount: "2.99", currency: "USD"), "GBR": .init(amount: "0.89", currency: "GBP")])
        elsewhere.inAppPurchases[0].scheduledPrices = .init(["USA": [.init(start: "2027-06-01", price: .init(amount: "3.99", currency: "USD"))]])
        XCTAssertEqual(apply.statuses(elsewhere), [.moved("its prices are now GBR 0.89, USA 2.99 (3.99 from 2027-06-01)")])
        // The snapshot keeps the scheduled price, one line a territory, and reads it back.
        let text = scheduled.encoded()
        XCTAssertTrue(text.contains("\"scheduledPrices\" : {\n        \"USA\" : \"2027-03-01 1.99 USD\"\n      }"), text)
        XCTAssertEqual(try ASCSnapshot.decode(Data(text.utf8), path: "s.json"), scheduled)
        XCTAssertThrowsError(try ASCSnapshot.decode(Data(text.replacingOccurrences(of: "2027-03-01 1.99", with: "2027-3-1 1.99").utf8), path: "s.json")) {
            XCTAssertTrue("\($0)".contains("inAppPurchases[0].scheduledPrices.USA is '2027-3-1': not a day (YYYY-MM-DD)"), "\($0)")
        }
        // A plan file's start date is a day.
        let file = plan.encoded().replacingOccurrences(of: "\"startDate\" : \"2027-03-01\"", with: "\"startDate\" : \"soon\"")
        XCTAssertThrowsError(try CatalogPlan.decode(Data(file.utf8), path: "p.json")) {
            XCTAssertTrue("\($0)".contains("steps[0].set.startDate is 'soon': not a day (YYYY-MM-DD)"), "\($0)")
        }
    }

    func testAStartDateIsNotPlannedWhereItCannotBeOne() throws {
        let catalog = try catalog(Self.gemsFrom("2027-03-01"))
        // A new product's first price starts the day it is set.
        let empty = plan(catalog, ASCSnapshot(app: Self.app, inAppPurchases: [], subscriptionGroups: []))
        XCTAssertFalse(empty.steps.contains { $0.action == .setPrices && $0.product == "com.acme.shop.gems" })
        XCTAssertEqual(empty.blocked.map { "\($0.level) \($0.what)" }, ["error change the price from 2027-03-01"])
        XCTAssertTrue(empty.blocked[0].reason.hasPrefix("App Store Connect has no price for it, and a product's first price starts the day it is set"))
        XCTAssertEqual(empty.blocked[0].source.map { String($0.split(separator: "/").last!) }, "Metadata.plist:12")
        // Without every territory's prices the snapshot has no scheduled ones: said, not planned.
        var storefront = Self.matching()
        storefront.storefront = "USA"
        storefront.inAppPurchases[0].price = .init(amount: "0.99", currency: "USD")
        storefront.inAppPurchases[0].prices = nil
        let unpulled = try self.catalog(Self.gemsFrom("2027-03-01").replacingOccurrences(of: "<key>prices</key><dict><key>GBR</key><string>0.89</string></dict>", with: ""))
        let said = plan(unpulled, storefront)
        XCTAssertEqual(said.steps, [])
        XCTAssertEqual(said.blocked.map { "\($0.level) \($0.what)" }, ["info change the price from 2027-03-01"])
        XCTAssertTrue(said.blocked[0].reason.contains("`iap asc pull --all-storefronts`"), said.blocked[0].reason)
        // A day that is not one is the catalog's error, and no start date is planned from it.
        let wrong = try self.catalog(Self.gemsFrom("2027-02-30"))
        XCTAssertEqual(wrong.loadDiagnostics.map(\.message),
                       ["priceStartDate must be a day as <string>YYYY-MM-DD</string>, e.g. 2027-01-15 (found '2027-02-30')"])
        XCTAssertEqual(plan(wrong, Self.matching()).steps.map { $0.set["startDate"] }, [nil])
        let dated = try self.catalog(Self.gemsFrom("x").replacingOccurrences(of: "<string>x</string>", with: "<date>2027-03-01T00:00:00Z</date>"))
        XCTAssertEqual(dated.products.first { $0.id == "com.acme.shop.gems" }?.metadata.priceStartDate?.value, "2027-03-01")
    }
}

extension PlanTests {
    /// The shop's subscription with a win-back offer, `extra` keys added to it.
    static func withWinBack(_ extra: String = "<key>paidMonths</key><integer>2</integer><key>lapsedMonths</key><dict><key>min</key><integer>1</integer>"
                            + "<key>max</key><integer>6</integer></dict><key>startDate</key><string>2027-05-01</string>") -> String {
        let offer = "<key>winBackOffers</key><array><dict><key>id</key><string>BACK</string><key>referenceName</key><string>Back</string>"
            + "<key>paymentMode</key><string>free-trial</string><key>period</key><string>P1M</string>\(extra)</dict></array>"
        return ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><true/>" + offer)
    }

    func testAWinBackOfferIsAddedByItsIdentifierWithItsEligibility() throws {
        let catalog = try catalog(Self.withWinBack())
        var snapshot = Self.matching()
        snapshot.subscriptionGroups[0].subscriptions[0].winBackOffers = []
        let plan = plan(catalog, snapshot)
        XCTAssertEqual(plan.steps.map(\.action), [.createWinBackOffer])
        XCTAssertEqual(plan.steps.first?.set, ["code": "BACK", "name": "Back", "mode": "FREE_TRIAL", "duration": "ONE_MONTH", "periods": "1",
                                               "paidMonths": "2", "lapsedMinMonths": "1", "lapsedMaxMonths": "6", "startDate": "2027-05-01",
                                               "priority": "NORMAL"])
        XCTAssertEqual(plan.against.winBackOffers, true)
        XCTAssertTrue(plan.encoded().contains("\"winBackOffers\" : true"))
        XCTAssertEqual(try CatalogPlan.decode(Data(plan.encoded().utf8), path: "p.json"), plan)
        // Held as declared: done, and nothing planned; held otherwise: said, not changed.
        var held = snapshot
        held.subscriptionGroups[0].subscriptions[0].winBackOffers = [.init(
            offerId: "BACK", name: "Back", mode: "FREE_TRIAL", duration: "ONE_MONTH", periods: 1, paidMonths: 2, lapsedMinMonths: 1,
            lapsedMaxMonths: 6, waitMonths: nil, startDate: "2027-05-01", endDate: nil, priority: "NORMAL")]
        XCTAssertEqual(PlanApply(plan: plan, allTerritories: ["GBR", "USA"]).statuses(held), [.done])
        XCTAssertEqual(self.plan(catalog, held).steps, [])
        held.subscriptionGroups[0].subscriptions[0].winBackOffers?[0].lapsedMaxMonths = 12
        let other = self.plan(catalog, held)
        XCTAssertEqual(other.steps, [])
        XCTAssertEqual(other.blocked.map { "\($0.level) \($0.what)" }, ["info add the win-back offer 'BACK'"])
        XCTAssertTrue(other.blocked[0].reason.hasPrefix("App Store Connect has the win-back offer 'BACK' with lapsedMaxMonths '12'"), other.blocked[0].reason)
        // Not pulled: said.
        let unpulled = self.plan(catalog, Self.matching())
        XCTAssertEqual(unpulled.blocked.map(\.reason), ["the snapshot has no win-back offers: pull it with --win-back-offers (`iap asc pull --win-back-offers`) to plan them"])
        // A plan file's priority is App Store Connect's.
        let edited = plan.encoded().replacingOccurrences(of: "\"priority\" : \"NORMAL\"", with: "\"priority\" : \"LOW\"")
        XCTAssertThrowsError(try CatalogPlan.decode(Data(edited.utf8), path: "p.json")) {
            XCTAssertTrue("\($0)".contains("steps[0].set.priority is 'LOW': not HIGH or NORMAL"), "\($0)")
        }
        let backwards = plan.encoded().replacingOccurrences(of: "\"lapsedMinMonths\" : \"1\"", with: "\"lapsedMinMonths\" : \"9\"")
        XCTAssertThrowsError(try CatalogPlan.decode(Data(backwards.utf8), path: "p.json")) {
            XCTAssertTrue("\($0)".contains("steps[0].set.lapsedMinMonths is 9, above lapsedMaxMonths 6"), "\($0)")
        }
    }

    func testAWinBackOfferWithoutItsEligibilityIsTheCatalogsError() throws {
        let cases: [(String, String)] = [
            ("", "the win-back offer 'BACK' needs paidMonths, lapsedMonths, startDate: who is eligible, and from when"),
            ("<key>paidMonths</key><integer>0</integer><key>lapsedMonths</key><dict><key>min</key><integer>1</integer><key>max</key><integer>6</integer></dict>"
             + "<key>startDate</key><string>2027-05-01</string>", "paidMonths must be an <integer> of months from 1 to 1200"),
            ("<key>paidMonths</key><integer>2</integer><key>lapsedMonths</key><dict><key>min</key><integer>6</integer><key>max</key><integer>1</integer></dict>"
             + "<key>startDate</key><string>2027-05-01</string>", "lapsedMonths must be a <dict> of min and max, each an <integer> of months, min not above max"),
            ("<key>paidMonths</key><integer>2</integer><key>lapsedMonths</key><dict><key>min</key><integer>1</integer><key>max</key><integer>6</integer></dict>"
             + "<key>startDate</key><string>2027-05-01</string><key>endDate</key><string>2027-04-01</string>",
             "the win-back offer 'BACK' ends on 2027-04-01, not after it starts on 2027-05-01"),
            ("<key>paidMonths</key><integer>2</integer><key>lapsedMonths</key><dict><key>min</key><integer>1</integer><key>max</key><integer>6</integer></dict>"
             + "<key>startDate</key><string>2027-05-01</string><key>priority</key><string>urgent</string>",
             "priority must be <string>high</string> or <string>normal</string>"),
        ]
        for (extra, message) in cases {
            let loaded = try catalog(Self.withWinBack(extra))
            XCTAssertEqual(loaded.loadDiagnostics.map(\.message), [message], extra)
        }
    }
}

extension PlanTests {
    /// The shop's subscription with one offer code, `extra` keys added to it.
    static func withOfferCode(_ extra: String = "") -> String {
        let code = "<key>offerCodes</key><array><dict><key>referenceName</key><string>Spring</string><key>paymentMode</key><string>pay-up-front</string>"
            + "<key>period</key><string>P3M</string><key>price</key><string>4.99</string>"
            + "<key>eligibility</key><array><string>expired</string><string>new</string></array>\(extra)</dict></array>"
        return ShopCatalog.metadata.replacingOccurrences(of: "<key>familyShareable</key><true/>", with: "<key>familyShareable</key><true/>" + code)
    }

    func testAnOfferCodeIsAddedByItsNameWithWhoMayRedeemIt() throws {
        let catalog = try catalog(Self.withOfferCode())
        XCTAssertEqual(catalog.loadDiagnostics.map(\.message), [])
        var snapshot = Self.matching()
        snapshot.subscriptionGroups[0].subscriptions[0].offerCodes = []
        let plan = plan(catalog, snapshot)
        XCTAssertEqual(plan.steps.map(\.action), [.createOfferCode])
        // The catalog's order of eligibility is not App Store Connect's: the step says NEW first.
        XCTAssertEqual(plan.steps.first?.set, ["name": "Spring", "mode": "PAY_UP_FRONT", "duration": "THREE_MONTHS", "periods": "1", "price": "4.99",
                                               "baseTerritory": "USA", "customerEligibilities": "NEW,EXPIRED", "offerEligibility": "REPLACE_INTRO_OFFERS"])
        XCTAssertEqual(PlanApply.describe(plan.steps[0]), "add the offer code 'Spring' of 'com.acme.shop.club.monthly'")
        XCTAssertEqual(plan.against.offerCodes, true)
        XCTAssertTrue(plan.encoded().contains("\"offerCodes\" : true"))
        XCTAssertEqual(try CatalogPlan.decode(Data(plan.encoded().utf8), path: "p.json"), plan)
        // Held as declared: done, and nothing planned.
        var held = snapshot
        let spring = ASCSnapshot.OfferCode(name: "Spring", mode: "PAY_UP_FRONT", duration: "THREE_MONTHS", periods: 1,
                                           eligibilities: ["EXPIRED", "NEW"], offerEligibility: "REPLACE_INTRO_OFFERS", active: true)
        held.subscriptionGroups[0].subscriptions[0].offerCodes = [spring]
        XCTAssertEqual(PlanApply(plan: plan, allTerritories: ["GBR", "USA"]).statuses(held), [.done])
        XCTAssertEqual(self.plan(catalog, held).steps, [])
        XCTAssertEqual(self.plan(catalog, held).blocked, [])
        // Held on other terms: said with each field that differs, never changed.
        held.subscriptionGroups[0].subscriptions[0].offerCodes?[0].offerEligibility = "STACK_WITH_INTRO_OFFERS"
        held.subscriptionGroups[0].subscriptions[0].offerCodes?[0].eligibilities = ["EXISTING"]
        let other = self.plan(catalog, held)
        XCTAssertEqual(other.steps, [])
        XCTAssertEqual(other.blocked.map { "\($0.level) \($0.what)" }, ["info add the offer code 'Spring'"])
        XCTAssertEqual(other.blocked[0].reason, "App Store Connect has the offer code 'Spring' with customerEligibilities 'EXISTING', "
                       + "offerEligibility 'STACK_WITH_INTRO_OFFERS': App Store Connect does not change an offer code's terms; "
                       + "give the catalog's offer code a new referenceName")
        guard case .moved(let why) = PlanApply(plan: plan, allTerritories: ["GBR", "USA"]).statuses(held)[0] else { return XCTFail("not moved") }
        XCTAssertEqual(why, "its offer code 'Spring' is now customerEligibilities EXISTING, duration THREE_MONTHS, mode PAY_UP_FRONT, "
                       + "offerEligibility STACK_WITH_INTRO_OFFERS, periods 1")
        // Deactivated: App Store Connect never turns it on again; said.
        var off = snapshot
        off.subscriptionGroups[0].subscriptions[0].offerCodes = [spring]
        off.subscriptionGroups[0].subscriptions[0].offerCodes?[0].active = false
        XCTAssertEqual(self.plan(catalog, off).blocked.map(\.reason), [
            "App Store Connect has the offer code 'Spring' deactivated, and never turns one on again: give the catalog's offer code a new referenceName "
                + "to offer it again, or remove it from the catalog"])
        // Not pulled: said, with the flag that pulls them.
        XCTAssertEqual(self.plan(catalog, Self.matching()).blocked.map(\.reason),
                       ["the snapshot has no offer codes: pull it with --offer-codes (`iap asc pull --offer-codes`) to plan them"])
        // Stackable: App Store Connect's STACK_WITH_INTRO_OFFERS.
        let stacked = try self.catalog(Self.withOfferCode("<key>stackable</key><true/>"))
        XCTAssertEqual(self.plan(stacked, snapshot).steps.first?.set["offerEligibility"], "STACK_WITH_INTRO_OFFERS")
    }

    func testAHandEditedOfferCodeStepIsRefusedAtItsField() throws {
        var snapshot = Self.matching()
        snapshot.subscriptionGroups[0].subscriptions[0].offerCodes = []
        let text = plan(try catalog(Self.withOfferCode()), snapshot).encoded()
        let cases: [(String, String, String)] = [
            ("\"customerEligibilities\" : \"NEW,EXPIRED\"", "\"customerEligibilities\" : \"NEW,NEW\"",
             "steps[0].set.customerEligibilities is 'NEW,NEW': not a list of NEW, EXISTING, EXPIRED"),
            ("\"customerEligibilities\" : \"NEW,EXPIRED\"", "\"customerEligibilities\" : \"\"",
             "steps[0].set.customerEligibilities is '': not a list of NEW, EXISTING, EXPIRED"),
            ("\"offerEligibility\" : \"REPLACE_INTRO_OFFERS\"", "\"offerEligibility\" : \"ALWAYS\"",
             "steps[0].set.offerEligibility is 'ALWAYS': not STACK_WITH_INTRO_OFFERS or REPLACE_INTRO_OFFERS"),
            ("\"offerEligibility\" : \"REPLACE_INTRO_OFFERS\",", "",
             "steps[0].set lacks the offer code's name, customerEligibilities or offerEligibility"),
            ("\"name\" : \"Spring\"", "\"code\" : \"Spring\"", "steps[0].set.code is not a field create-offer-code sets"),
        ]
        for (from, to, message) in cases {
            XCTAssertTrue(text.contains(from), from)
            XCTAssertThrowsError(try CatalogPlan.decode(Data(text.replacingOccurrences(of: from, with: to).utf8), path: "p.json"), to) {
                XCTAssertTrue("\($0)".contains(message), "\($0)")
            }
        }
    }
}

extension PlanTests {
    static let springCodes = "<key>customCodes</key><array><dict><key>code</key><string>SPRING25</string><key>numberOfCodes</key><integer>500</integer>"
        + "<key>expirationDate</key><string>2027-06-30</string></dict></array>"

    /// The snapshot that holds the shop and its offer code Spring as declared, with `customs`.
    static func holdingSpring(_ customs: [ASCSnapshot.CustomCode]?) -> ASCSnapshot {
        var snapshot = matching()
        snapshot.subscriptionGroups[0].subscriptions[0].offerCodes = [.init(
            name: "Spring", mode: "PAY_UP_FRONT", duration: "THREE_MONTHS", periods: 1, eligibilities: ["NEW", "EXPIRED"],
            offerEligibility: "REPLACE_INTRO_OFFERS", active: true, id: "C1", customCodes: customs)]
        return snapshot
    }

    func testACustomCodeIsAddedToItsOfferCodeOnceInTheApp() throws {
        let catalog = try catalog(Self.withOfferCode(Self.springCodes))
        XCTAssertEqual(catalog.loadDiagnostics.map(\.message), [])
        // A new campaign: the custom code right after it.
        var snapshot = Self.matching()
        snapshot.subscriptionGroups[0].subscriptions[0].offerCodes = []
        let new = plan(catalog, snapshot)
        XCTAssertEqual(new.steps.map(\.action), [.createOfferCode, .createCustomCode])
        XCTAssertEqual(new.steps[1].set, ["name": "Spring", "customCode": "SPRING25", "numberOfCodes": "500", "expirationDate": "2027-06-30"])
        XCTAssertEqual(PlanApply.describe(new.steps[1]), "add the custom code 'SPRING25' to the offer code 'Spring' of 'com.acme.shop.club.monthly'")
        XCTAssertEqual(try CatalogPlan.decode(Data(new.encoded().utf8), path: "p.json"), new)
        // The campaign held, the code not: the code alone.
        let held = plan(catalog, Self.holdingSpring([]))
        XCTAssertEqual(held.steps.map(\.action), [.createCustomCode])
        // Held as declared (in another case): done, nothing planned.
        let done = Self.holdingSpring([.init(code: "spring25", numberOfCodes: 500, expirationDate: "2027-06-30", active: true)])
        XCTAssertEqual(PlanApply(plan: held, allTerritories: ["USA"]).statuses(done), [.done])
        XCTAssertEqual(plan(catalog, done).steps, [])
        XCTAssertEqual(plan(catalog, done).blocked, [])
        // Held otherwise, or deactivated: said, never changed.
        let other = plan(catalog, Self.holdingSpring([.init(code: "SPRING25", numberOfCodes: 100, expirationDate: nil, active: true)]))
        XCTAssertEqual(other.steps, [])
        XCTAssertEqual(other.blocked.map(\.reason), ["App Store Connect has the custom code 'SPRING25' allowing 100 redemptions with no expiration date, "
                                                     + "and changes only whether a custom code is active: change the catalog to match, or give it a new code"])
        let off = plan(catalog, Self.holdingSpring([.init(code: "SPRING25", numberOfCodes: 500, expirationDate: "2027-06-30", active: false)]))
        XCTAssertEqual(off.blocked.map(\.reason), ["App Store Connect has the custom code 'SPRING25' deactivated, and never turns one on again: give the catalog a new code"])
        // Pulled by an older iap (no custom codes): said, with the flag.
        XCTAssertTrue(plan(catalog, Self.holdingSpring(nil)).blocked.first?.reason.hasPrefix("the snapshot has the offer code 'Spring' without its custom codes") ?? false)
        // A word another offer code of the app has: blocked, never attempted.
        var elsewhere = Self.holdingSpring([])
        elsewhere.subscriptionGroups[0].subscriptions[0].offerCodes?.append(.init(
            name: "Autumn", mode: "FREE_TRIAL", duration: "ONE_WEEK", periods: 1, eligibilities: ["NEW"], offerEligibility: "REPLACE_INTRO_OFFERS",
            active: true, id: "C2", customCodes: [.init(code: "Spring25", numberOfCodes: 5, expirationDate: nil, active: true)]))
        let taken = plan(catalog, elsewhere)
        XCTAssertEqual(taken.steps, [])
        XCTAssertEqual(taken.blocked.map { "\($0.level) \($0.reason)" }, [
            "error App Store Connect has the custom code 'Spring25' in the offer code 'Autumn' of 'com.acme.shop.club.monthly', and takes each code once: give the catalog's a code of its own"])
        // The same word for two offer codes of the catalog: the second is blocked, never attempted.
        let second = "<dict><key>referenceName</key><string>Autumn</string><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string>"
            + "<key>eligibility</key><array><string>new</string></array><key>customCodes</key><array><dict><key>code</key><string>spring25</string>"
            + "<key>numberOfCodes</key><integer>5</integer></dict></array></dict>"
        let both = try self.catalog(Self.withOfferCode(Self.springCodes).replacingOccurrences(of: "</array></dict></array>", with: "</array></dict>\(second)</array>"))
        let doubled = plan(both, snapshot)
        XCTAssertEqual(doubled.steps.map(\.action), [.createOfferCode, .createCustomCode, .createOfferCode])
        XCTAssertEqual(doubled.blocked.map { "\($0.level) \($0.what): \($0.reason)" }, [
            "error add the custom code 'spring25': the catalog gives the custom code 'spring25' to the offer code 'Spring' of 'com.acme.shop.club.monthly' too, "
                + "and App Store Connect takes each code once: give each its own"])
        // A hand-edited plan: the code and its redemptions as App Store Connect takes them.
        for (from, to, message) in [("\"SPRING25\"", "\"SPRING-25\"", "steps[1].set.customCode is 'SPRING-25': is not only letters and digits (A–Z, a–z, 0–9)"),
                                    ("\"500\"", "\"0\"", "steps[1].set.numberOfCodes is '0': not a number of redemptions (1 to 1000000)")] {
            XCTAssertThrowsError(try CatalogPlan.decode(Data(new.encoded().replacingOccurrences(of: from, with: to).utf8), path: "p.json")) {
                XCTAssertTrue("\($0)".contains(message), "\($0)")
            }
        }
    }

    func testACustomCodeAppStoreConnectWouldNotTakeIsTheCatalogsError() throws {
        let cases: [(String, String)] = [
            ("<dict><key>code</key><string>SPRING-25</string><key>numberOfCodes</key><integer>5</integer></dict>",
             "the custom code 'SPRING-25' is not only letters and digits (A–Z, a–z, 0–9): App Store Connect's custom codes are alphanumeric"),
            ("<dict><key>code</key><string>\(String(repeating: "A", count: 65))</string><key>numberOfCodes</key><integer>5</integer></dict>",
             "the custom code '\(String(repeating: "A", count: 65))' is longer than 64 characters: App Store Connect's custom codes are alphanumeric"),
            ("<dict><key>code</key><string>SPRING25</string></dict>",
             "the custom code 'SPRING25' needs numberOfCodes: an <integer> of redemptions from 1 to 1000000"),
            ("<dict><key>code</key><string>SPRING25</string><key>numberOfCodes</key><integer>9223372036854775807</integer></dict>",
             "the custom code 'SPRING25' needs numberOfCodes: an <integer> of redemptions from 1 to 1000000"),
            ("<dict><key>numberOfCodes</key><integer>5</integer></dict>", "a custom code of 'Spring' needs its code: a <string> of letters and digits"),
            ("<dict><key>code</key><string>A1</string><key>numberOfCodes</key><integer>5</integer><key>expirationDate</key><string>2027-02-30</string></dict>",
             "expirationDate must be a day as <string>YYYY-MM-DD</string>, e.g. 2027-01-15 (found '2027-02-30')"),
            ("<dict><key>code</key><string>A1</string><key>numberOfCodes</key><integer>5</integer></dict><dict><key>code</key><string>a1</string><key>numberOfCodes</key><integer>5</integer></dict>",
             "the custom code 'a1' is given twice: App Store Connect takes each code once"),
        ]
        for (entries, message) in cases {
            let loaded = try catalog(Self.withOfferCode("<key>customCodes</key><array>\(entries)</array>"))
            XCTAssertEqual(loaded.loadDiagnostics.map(\.message), [message], entries)
        }
        let unknown = try catalog(Self.withOfferCode("<key>customCodes</key><array><dict><key>code</key><string>A1</string><key>numberOfCodes</key><integer>5</integer>"
                                                     + "<key>uses</key><integer>5</integer></dict></array>"))
        XCTAssertEqual(unknown.loadDiagnostics.count, 1)
        XCTAssertTrue(unknown.loadDiagnostics.first?.message.contains("'uses'") ?? false, "\(unknown.loadDiagnostics)")
    }
}
