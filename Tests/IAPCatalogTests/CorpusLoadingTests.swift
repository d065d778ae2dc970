import Diagnostics
import Foundation
import TestSupport
import XCTest
@testable import IAPCatalog

/// Every file of ../shared/corpus loads with the shape and product count written here, counted
/// by reading the files (not by running the loader).
final class CorpusLoadingTests: XCTestCase {
    static let plists: [String: (ListShape, Int)] = [
        "ChuguluGames__MKStoreKit__MKStoreKitConfigs.plist": (.mkStoreKit, 3),
        "CofficLab__Cisum_SwiftUI__Products.plist": (.idToValue, 15),
        "Coppertino__MKStoreKit__MKStoreKitConfigs.plist": (.mkStoreKit, 1),
        "Curvachip__StoreKit-2-SwiftUI-Paywall-Logic__Products.plist": (.idToValue, 3),
        "DylanSale__ProductManager__ExampleProduct.plist": (.singleProduct, 1),
        "DylanSale__ProductManager__Products.plist": (.productsArrayOfDicts, 2),
        "HimanshuGabani__IAP_Helper__IAP_ProductIDs.plist": (.arrayOfIDs, 1),
        "Infinity-James__InAppPurchase__productInfos.plist": (.arrayOfDicts, 2),
        "Kashoo__IAP-Tester__ProductIdentifiers.plist": (.arrayOfIDs, 8),
        "MugunthKumar__MKStoreKit__MKStoreKitConfigs.plist": (.mkStoreKit, 4),
        "NiftyTreeStudios__Bean-Juice__IAP_ProductIDs.plist": (.nameToID, 1),
        "SimonFairbairn__VTAInAppPurchases__productListExample.plist": (.arrayOfDicts, 2),
        "TemaSysoev__Poems2__Products.plist": (.idToValue, 2),
        "arjun-dureja__JobTrack__IAP_ProductIDs.plist": (.arrayOfIDs, 2),
        "cameronlockey__Bandit4e__product_ids.plist": (.arrayOfIDs, 1),
        "chappejw__RouletteTracker__Products.plist": (.idToValue, 1),
        "circles-project__circles-ios__ByosProducts.plist": (.arrayOfIDs, 2),
        "cntrump__SKDemo__Products.plist": (.idToValue, 10),
        "deepflame__iOpenSongs__Products.plist": (.arrayOfDicts, 1),
        "edgarguitian__MultipleFunctional__Products.plist": (.idToValue, 1),
        "gngrwzrd__IAPHelper__InAppPurchases.plist": (.arrayOfDicts, 2),
        "kamaal111__StoreKitPlay__Products.plist": (.idToValue, 2),
        "millenomi__simstorekit__Products.plist": (.idToMetadata, 1),
        "mitrenegade__rollcall-ios__subscriptions.plist": (.arrayOfDicts, 2),
        "monkey6468__StoreKitDemo__MyRefund_Products.plist": (.idToValue, 2),
        "monkey6468__StoreKitDemo__SKDemo_Products.plist": (.idToValue, 2),
        "nilshah31__ontrejectoryiOS__IAP_ProductIDs.plist": (.nameToID, 2),
        "olopsman__storekit2-youtube-demo__ProductList.plist": (.nameToID, 4),
        "russell-archer__IAPHelper__ProductsRelease.plist": (.productsAndSubscriptions, 5),
        "russell-archer__SKHelper__SampleProducts.plist": (.productsAndSubscriptions, 4),
        "russell-archer__StoreHelper__Configuration_Products.plist": (.productsAndSubscriptions, 8),
        "russell-archer__StoreHelper__SampleProducts.plist": (.productsAndSubscriptions, 11),
        "scenario7__bunk-mate__ProductList.plist": (.nameToID, 1),
        "starlu1215__InAppPurchases_ios__ProductIds.plist": (.arrayOfIDs, 2),
        "stollcri__Squared__Products.plist": (.arrayOfIDs, 1),
        "taylorkpotter__m7stepcounter__product_ids.plist": (.arrayOfIDs, 1),
        "xiejiapei-creator__StoreKit2.0__Products.plist": (.productsAndSubscriptions, 8),
    ]

    /// The three decoys: files named like product lists that are not.
    static let decoys: [String: String] = [
        "WushuputiGH__productplist__ProductIds.plist": "not a product list: looks like an over-the-air install manifest (items → assets, metadata), not a product list",
        "WushuputiGH__productplist__ProductIdsPPgenggaiban.plist": "cannot read the property list: XML error: EntityRef: expecting ';'",
        "eugeneus__sg__Products.plist": "not a product list: an <array> of 15 dicts whose keys (Name, Size, PosX, PosY, countFrames, FrameNameBase) include no product-ID key (productIdentifier, ProductIdentifier, productId, ProductId, productID, ProductID)",
    ]

    /// Products per `.storekit` file: products + nonRenewingSubscriptions + every group's subscriptions.
    static let storeKit: [String: (String, Int)] = [
        "AnnaShark__InspoQuotes__Configuration.storekit": ("1.1", 1),
        "CofficLab__Cisum_SwiftUI__Plugins_Store_Products.storekit": ("4.0", 13),
        "CofficLab__Cisum_SwiftUI__Products.storekit": ("4.0", 11),
        "Curvachip__StoreKit-2-SwiftUI-Paywall-Logic__TestPurchases.storekit": ("4.0", 3),
        "FranciszekCzana__StoreKitTesting__Configuration.storekit": ("1.2", 2),
        "KokiHirokawa__LearningStoreKit__Configuration.storekit": ("1.2", 6),
        "LoudSoundDreams__SongPocket__Configuration.storekit": ("2.0", 1),
        "Mercury-nju__chengyu__Configuration-CN.storekit": ("3.0", 3),
        "Mercury-nju__chengyu__Configuration-US.storekit": ("3.0", 3),
        "MrGLWatson__UltimatePortfolio__Configuration.storekit": ("1.1", 1),
        "Mucchoo__RestockList__Configuration.storekit": ("1.2", 1),
        "NiftyTreeStudios__Bean-Juice__StoreKitConfiguration.storekit": ("1.1", 1),
        "OliverStaub__Recipe-Joe__Products.storekit": ("4.0", 4),
        "RevenueCat__storekit2-demo-app__Step1Configuration.storekit": ("2.0", 3),
        "SsangG77__brawlytics__Products.storekit": ("4.0", 1),
        "StillARockstar__WristSteps__Configuration.storekit": ("1.1", 1),
        "TemaSysoev__Poems2__Configuration.storekit": ("1.1", 1),
        "TheRacingLine__theracingline-ios__Configuration.storekit": ("1.0", 3),
        "adamrd231__Poker-Blinds__Products.storekit": ("2.0", 4),
        "akihisasengoku__storekit-test__Demo.storekit": ("1.0", 3),
        "ali-aktas__hocalingo-ios__Configuration.storekit": ("4.0", 2),
        "axiel7__AniHyou-iOS__Products.storekit": ("3.0", 3),
        "bermudalocket__Tweaks-for-Reddit__Configuration.storekit": ("1.1", 1),
        "boboul-cloud__Pret-Materiel__Configuration.storekit": ("3.0", 4),
        "boboul-cloud__Pret-Materiel__Products.storekit": ("3.0", 6),
        "chemsims__chemistry__ColombiaConfig.storekit": ("1.1", 8),
        "chemsims__chemistry__Configuration.storekit": ("1.1", 2),
        "chemsims__chemistry__MexicoConfig.storekit": ("1.1", 8),
        "chemsims__chemistry__USConfig.storekit": ("1.1", 12),
        "chicktack0321__ITpassport__Products.storekit": ("3.0", 1),
        "circles-project__circles-ios__CirclesSubscriptions.storekit": ("3.0", 3),
        "circles-project__circles-ios__Products.storekit": ("3.0", 7),
        "cntrump__SKDemo__Products.storekit": ("2.0", 10),
        "denniscmcom__simoleon__Configuration.storekit": ("1.1", 1),
        "edgarguitian__MultipleFunctional__Store.storekit": ("3.0", 3),
        "jinSasaki__InAppPurchase__Configuration.storekit": ("1.1", 3),
        "jordancalhoun__StoreKit2__Store.storekit": ("3.0", 4),
        "jordibruin__StoreKit-Examples__Configuration.storekit": ("4.0", 8),
        "kamaal111__StoreKitPlay__Products.storekit": ("1.2", 2),
        "mitrenegade__rollcall-ios__Configuration.storekit": ("1.0", 2),
        "monkey6468__StoreKitDemo__Products.storekit": ("3.0", 6),
        "russell-archer__IAPHelper__TestHostConfig.storekit": ("1.0", 5),
        "russell-archer__SKHelper__SampleProducts.storekit": ("4.0", 4),
        "russell-archer__StoreHelperDemo__Products.storekit": ("3.0", 11),
        "russell-archer__StoreHelper__SampleProducts.storekit": ("2.0", 11),
        "scenario7__bunk-mate__Product.storekit": ("2.0", 1),
        "starlu1215__InAppPurchases_ios__purchases.storekit": ("2.0", 2),
        "ueshun109__InAppPurchaseSample__Configuration.storekit": ("1.0", 15),
        "ueshun109__InAppPurchaseSample__Subscription.storekit": ("1.0", 1),
        "xiejiapei-creator__StoreKit2.0__Products.storekit": ("1.2", 8),
        "yeshu-cn__storekit2__Products.storekit": ("4.0", 10),
    ]

    func load(_ path: String) -> Catalog {
        CatalogLoader().loadCatalog(name: "corpus", paths: [path], explicit: [path])
    }

    func testEveryCorpusPlistLoadsWithItsShapeAndCount() throws {
        guard let folder = CorpusFolder.path("plists") else { throw XCTSkip("../shared/corpus/plists not found: skipped") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".plist") }
        XCTAssertEqual(Set(names), Set(Self.plists.keys).union(Self.decoys.keys))
        for (name, (shape, count)) in Self.plists {
            let catalog = load(folder + "/" + name)
            XCTAssertEqual(catalog.files.first?.content, .productList(shape), name)
            XCTAssertEqual(catalog.files.first?.productCount, count, name)
            XCTAssertFalse(catalog.loadDiagnostics.contains { ["malformed-catalog", "unrecognized-catalog"].contains($0.ruleID) }, name)
        }
    }

    func testDecoysAreRecognisedAsNotProductLists() throws {
        guard let folder = CorpusFolder.path("plists") else { throw XCTSkip("../shared/corpus/plists not found: skipped") }
        for (name, message) in Self.decoys {
            let catalog = load(folder + "/" + name)
            XCTAssertEqual(catalog.products.count, 0, name)
            let errors = catalog.loadDiagnostics.filter { $0.severity == .error }
            XCTAssertEqual(errors.map(\.message), [message], name)
        }
        let malformed = load(folder + "/WushuputiGH__productplist__ProductIdsPPgenggaiban.plist").loadDiagnostics[0]
        XCTAssertEqual(malformed.ruleID, "malformed-catalog")
        XCTAssertEqual(malformed.location.line, 14)
    }

    func testEveryStoreKitFileLoads() throws {
        guard let folder = CorpusFolder.path("storekit") else { throw XCTSkip("../shared/corpus/storekit not found: skipped") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".storekit") }
        XCTAssertEqual(Set(names), Set(Self.storeKit.keys))
        for (name, (version, count)) in Self.storeKit {
            let catalog = load(folder + "/" + name)
            guard case .storeKit(let v, _, _) = catalog.files.first?.content else {
                XCTFail("\(name): \(String(describing: catalog.files.first?.content))")
                continue
            }
            XCTAssertEqual(v, version, name)
            XCTAssertEqual(catalog.files.first?.productCount, count, name)
            XCTAssertFalse(catalog.loadDiagnostics.contains { $0.ruleID == "malformed-catalog" || $0.ruleID == "invalid-metadata" }, name)
            // Every product points at its own "productID" line.
            for product in catalog.products { XCTAssertGreaterThan(product.location.line, 0, "\(name) \(product.id)") }
        }
    }

    func testStoreKitDetailsAreDecoded() throws {
        guard let folder = CorpusFolder.path("storekit") else { throw XCTSkip("../shared/corpus/storekit not found: skipped") }
        let catalog = load(folder + "/circles-project__circles-ios__Products.storekit")
        guard case .storeKit(_, let storefront, let locale) = catalog.files[0].content else { return XCTFail() }
        XCTAssertEqual(storefront, "USA")
        XCTAssertEqual(locale, "en_US")
        let monthly = try XCTUnwrap(catalog.products.first { $0.id == "org.futo.circles.individual_monthly" })
        XCTAssertEqual(monthly.kind, .autoRenewable)
        XCTAssertEqual(monthly.metadata.price?.value.amount, Decimal(string: "1.99"))
        // The storefront's currency and the file's locale come with the price from loading.
        XCTAssertEqual(monthly.metadata.price?.value.currency, "USD")
        XCTAssertEqual(monthly.metadata.price?.value.locale, "en_US")
        XCTAssertEqual(monthly.metadata.subscriptionPeriod?.value.description, "P1M")
        XCTAssertEqual(monthly.metadata.introductoryOffer?.paymentMode, .freeTrial)
        XCTAssertEqual(monthly.metadata.introductoryOffer?.period.description, "P3M")
        XCTAssertEqual(monthly.metadata.localizations.first?.displayName, "Individual - Monthly")
        // The promotional offer (adHocOffers) read from the same subscription.
        XCTAssertEqual(monthly.metadata.promotionalOffers.map(\.id), ["XYZ"])
        XCTAssertEqual(monthly.metadata.promotionalOffers.first?.paymentMode, .freeTrial)
        XCTAssertEqual(monthly.metadata.promotionalOffers.first?.period.description, "P6M")
        XCTAssertTrue(monthly.kindReason.isDeclared)
        XCTAssertEqual(monthly.metadata.offerCodes.map { "\($0.terms.id) \($0.eligibility.map(\.rawValue)) \($0.stackable)" }, ["One Year Free [\"new\", \"expired\"] false"])
        // An offer code (codeOffers), as Xcode writes one: known by its reference name.
        let demo = load(folder + "/russell-archer__StoreHelperDemo__Products.storekit")
        XCTAssertFalse(demo.loadDiagnostics.contains { $0.message.contains("offer code") }, "\(demo.loadDiagnostics)")
        let gold = try XCTUnwrap(demo.products.first { $0.id == "com.rarcher.subscription.vip.gold" })
        let code = try XCTUnwrap(gold.metadata.offerCodes.first)
        XCTAssertEqual(gold.metadata.offerCodes.count, 1)
        XCTAssertEqual(code.terms.id, "Special Winter Offer")
        XCTAssertEqual(code.terms.paymentMode, .freeTrial)
        XCTAssertEqual(code.terms.period.description, "P1W")
        XCTAssertEqual(code.eligibility, [.new, .existing, .expired])
        XCTAssertTrue(code.stackable)
    }

    func testSecretsInTheCorpusAreFound() throws {
        guard let plists = CorpusFolder.path("plists"), let storekit = CorpusFolder.path("storekit") else {
            throw XCTSkip("../shared/corpus not found: skipped")
        }
        let mk = load(plists + "/MugunthKumar__MKStoreKit__MKStoreKitConfigs.plist").loadDiagnostics.filter { $0.ruleID == "committed-secret" }
        XCTAssertEqual(mk.map(\.location.line), [22])
        // Their offer-signing key is the one Xcode generates for local testing (key ID 5509FCF1):
        // an info that says so, not a secret to revoke.
        for name in ["russell-archer__StoreHelperDemo__Products.storekit", "russell-archer__StoreHelper__SampleProducts.storekit"] {
            let diagnostics = load(storekit + "/" + name).loadDiagnostics
            XCTAssertEqual(diagnostics.filter { $0.ruleID == "committed-secret" }.count, 0, name)
            XCTAssertEqual(diagnostics.filter { $0.ruleID == "local-offer-key" }.map(\.severity), [.info], name)
        }
    }
}

enum CorpusFolder {
    static func path(_ sub: String) -> String? {
        let root = Prerequisite.packageRoot
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(sub)").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
