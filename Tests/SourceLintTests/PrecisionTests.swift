import Diagnostics
import Foundation
import PriceFormatting
import XCTest
@testable import SourceLint

/// What real app repositories taught the lint rules: findings stay where a team would fix them.
final class PrecisionTests: XCTestCase {
    let context = LintContext(productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro",
                                                 "com.acme.app.version.120": "ProductID.version120"],
                              titles: [LintContext.normalizedTitle("Bag of Coins")], bundlePrefix: "com.acme.app.")

    func lint(_ source: String, path: String = "Store.swift", context: LintContext? = nil) -> [String] {
        SourceLinter(context: context ?? self.context).lint(source: source, path: path).map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }
    }

    func testATableOfProductIDsIsOneFinding() {
        let swift = """
        enum StoreProduct: String, CaseIterable {
            case coins = "com.acme.app.coins"
            case pro = "com.acme.app.pro"
            case legacy = "com.acme.app.version.120"
        }
        func buy() { purchase("com.acme.app.pro") }
        """
        XCTAssertEqual(lint(swift), ["2:18 hardcoded-product-id", "6:23 hardcoded-product-id"])
        let objc = "#define kCoins @\"com.acme.app.coins\"\n#define kPro @\"com.acme.app.pro\"\nstatic NSString *const kLegacy = @\"com.acme.app.version.120\";\n"
        XCTAssertEqual(lint(objc, path: "Store.h"), ["1:16 hardcoded-product-id"])
    }

    func testNumberedSeriesAndOtherBundleIdentifiersAreNotUnknownProducts() {
        let swift = """
        let older = "com.acme.app.version.139"
        let widget = "com.acme.app.widget"
        let type = UTType(exportedAs: "com.acme.app.backup")
        let typo = "com.acme.app.coinz"
        """
        XCTAssertEqual(lint(swift), ["4:12 unknown-product-id"])
    }

    func testGeneratedFilesAreNotLinted() {
        let source = "// This is a generated file, do not edit!\n// Generated using R.swift\nlet shortcut = \"com.acme.app.coinz\"\nlet price = \"$0.99\"\n"
        XCTAssertEqual(lint(source, path: "R.generated.swift"), [])
        XCTAssertEqual(lint(source, path: "Resources.swift"), [])
        XCTAssertEqual(lint("let price = \"$0.99\"\n", path: "Resources.swift"), ["1:13 hardcoded-price"])
    }

    func testFilesForPreviewsAndMocksNeverShip() {
        let source = "let price = \"$0.99\"\nlet title = \"Bag of Coins\"\n"
        XCTAssertEqual(lint(source, path: "App/Preview Content/Samples.swift"), [])
        XCTAssertEqual(lint(source, path: "App/Mocks/StoreMocks.swift"), [])
        XCTAssertEqual(lint(source, path: "App/Store/MembershipTier+Mocks.swift"), [])
        XCTAssertEqual(lint(source, path: "App/Store/Paywall.swift"), ["1:13 hardcoded-price", "2:13 hardcoded-title"])
    }

    func testSuppressionsAreCommentsOnly() {
        let source = """
        /// Silence a line with `// iap:disable:next RULE`, e.g. iap:disable:next hardcoded-prize.
        let hint = "// iap:disable:next hardcoded-prize"
        // iap:disable:next hardcoded-price - shown in marketing screenshots only
        let price = "$0.99"
        let other = "$1.99" // iap:disable:this hardcoded-prize
        """
        XCTAssertEqual(lint(source), ["5:13 hardcoded-price", "5:21 invalid-suppression"])
    }

    func testWrittenPricesInATableAreOneFinding() {
        let header = "#define kProMonthlyPrice 2.99\n#define kProAnnualPrice 29.99\n#define kMapsPrice 9.99\n#define kTimeout 2.5\n"
        XCTAssertEqual(lint(header, path: "Products.h"), ["1:9 hardcoded-price"])
        XCTAssertEqual(lint("#define kProAnnualPrice 29.99\n", path: "Products.h"), ["1:9 hardcoded-price"])
    }

    func testEachFileGetsTheCatalogOfItsApp() {
        var linter = SourceLinter()
        linter.scopedContexts = [("Apps/Solitaire", context),
                                 ("Apps/Mahjong", LintContext(productConstants: ["com.acme.mahjong.tiles": "ProductID.tiles"]))]
        let source = "let id = \"com.acme.app.coins\"\n"
        XCTAssertEqual(linter.lint(source: source, path: "Apps/Solitaire/Store.swift").map(\.ruleID), ["hardcoded-product-id"])
        XCTAssertEqual(linter.lint(source: source, path: "Apps/Mahjong/Store.swift").map(\.ruleID), [])
        XCTAssertEqual(linter.lint(source: source, path: "Apps/SolitaireKit/Store.swift").map(\.ruleID), [])
    }

    func testPriceSymbolsNeedAnAmountAStoreCouldCharge() {
        XCTAssertNil(PricePatternProbe.match("%@$$$%@"))
        XCTAssertNil(PricePatternProbe.match("Balance: $124,124,230.23"))
        XCTAssertNil(PricePatternProbe.match("liability shall not exceed $25,000"))
        XCTAssertEqual(PricePatternProbe.match("Pro for $9,999.99"), "$9,999.99")
        XCTAssertEqual(PricePatternProbe.match("¥1,200,000"), "¥1,200,000")
    }
}

enum PricePatternProbe {
    static func match(_ text: String) -> String? { PricePattern.firstMatch(in: text) }
}
