import Diagnostics
import Foundation
import TestSupport
import XCTest
@testable import IAPCatalog
@testable import SourceLint

/// The 10 real files of ../shared/corpus/sources, with the findings each must give, decided by
/// reading the files; and no price or title finding at all in swift-syntax's own sources.
final class CorpusSourceTests: XCTestCase {
    static let packageRoot = Prerequisite.packageRoot

    static let expected: [String: [String]] = [
        "CofficLab__Cisum_SwiftUI__AppStorePurchase.swift": ["75 hardcoded-price", "82 hardcoded-price"],
        "Mercury-nju__chengyu__Localizable.swift": ["402 hardcoded-price", "402 hardcoded-price", "403 hardcoded-price", "403 hardcoded-price",
                                                    "630 hardcoded-price", "630 hardcoded-price", "660 hardcoded-price", "660 hardcoded-price"],
        "Mercury-nju__chengyu__SubscriptionManager.swift": ["79 hardcoded-price", "81 hardcoded-price", "83 hardcoded-price"],
        // Prices only in comments.
        "OliverStaub__Recipe-Joe__TokenService.swift": [],
        // Its one price is in a commented-out line.
        "TheRacingLine__theracingline-ios__SubscriptionLevelView.swift": [],
        // Line 96's floatValue is an argument of NSLog: logged, never shown.
        "cameronlockey__Bandit4e__IAPHelper.m": [],
        // Prices as numbers for a debug loader, none shown as text.
        "chemsims__chemistry__DebugProductLoader.swift": [],
        // Line 158's currency formatter gets `product.priceLocale` (line 157); line 170 formats the
        // price with "%0.2lf" through floatValue.
        "monkey6468__StoreKitDemo__ApplePayTool.m": ["170 currency-formatter-locale", "170 price-float-conversion"],
        // Line 83's "USD $1.98" is in a PreviewProvider: it never ships.
        "xiejiapei-creator__StoreKit2.0__PriceView.swift": [],
        // Its currency formatter gets the product's priceLocale through `if let locale = …priceLocale`.
        "zirinisp__PazIAPHelper__PazIAPProduct.swift": ["135 price-float-conversion"],
    ]

    func testCorpusFilesGiveExactlyTheirFindings() throws {
        let folder = Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/sources")
        guard FileManager.default.fileExists(atPath: folder.path) else { throw XCTSkip("../shared/corpus/sources not found: skipped") }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), Set(Self.expected.keys))
        for (name, findings) in Self.expected {
            let found = SourceLinter().lint(file: folder.appendingPathComponent(name).path).map { "\($0.location.line) \($0.ruleID)" }
            XCTAssertEqual(found, findings, name)
        }
    }

    func testProductIDsWithTheAppsCatalog() throws {
        let corpus = Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else { throw XCTSkip("../shared/corpus not found: skipped") }
        let storekit = corpus.appendingPathComponent("storekit/OliverStaub__Recipe-Joe__Products.storekit").path
        let catalog = CatalogLoader().loadCatalog(name: "recipe-joe", paths: [storekit], explicit: [storekit])
        let found = SourceLinter(context: LintContext(catalog: catalog))
            .lint(file: corpus.appendingPathComponent("sources/OliverStaub__Recipe-Joe__TokenService.swift").path)
        // The enum of lines 20–23 defines all four IDs once: one finding that suggests `iap gen`.
        XCTAssertEqual(found.map { "\($0.location.line) \($0.ruleID)" }, ["20 hardcoded-product-id"], "\(found.map(\.message))")
        XCTAssertEqual(found.first?.message, "4 product IDs are defined here as string literals ('tokens_10', 'tokens_25', 'tokens_50', …); generate them with `iap gen` so the compiler checks every use against the catalog")
    }

    /// swift-syntax's own sources, which every build of this package checks out, sell nothing.
    func testNoFalsePositivesOnSwiftSyntax() throws {
        let sources = Self.packageRoot.appendingPathComponent(".build/checkouts/swift-syntax/Sources").path
        guard FileManager.default.fileExists(atPath: sources) else { throw XCTSkip(".build/checkouts/swift-syntax not found: skipped") }
        let findings = try SourceLinter().lint(paths: [sources])
        let wrong = findings.filter { ["hardcoded-price", "hardcoded-title", "price-float-conversion"].contains($0.ruleID) }
        XCTAssertEqual(wrong.map { "\($0.location) \($0.message)" }, [])
    }
}
