import XCTest
@testable import SourceLint

/// Code that ships is linted whatever its names; code that cannot ship (previews, #if DEBUG) never
/// is; test support (mock and fixture files) is linted with --include-tests. Truncated prices,
/// currency codes written in code and cent signs are found.
final class LintReachTests: XCTestCase {
    func lint(_ source: String, path: String, includeTests: Bool = false) -> [String] {
        SourceLinter(includeTests: includeTests).lint(source: source, path: path).map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }
    }

    func testMockAndFakeTypesInAppCodeAreLintedPreviewsAndDebugNever() {
        let source = """
        final class FakeStore {
            let banner = "Only $0.99"
        }
        struct MockPaywall {
            var price: String { "$4.99" }
        }
        #if DEBUG
        let debugPrice = "$1.99"
        #endif
        struct Paywall_Previews: PreviewProvider {
            static var previews: some View { Text("$2.99") }
        }
        """
        XCTAssertEqual(lint(source, path: "App/Store.swift"), ["2:18 hardcoded-price", "5:25 hardcoded-price"])
        XCTAssertEqual(lint(source, path: "App/Store.swift", includeTests: true), ["2:18 hardcoded-price", "5:25 hardcoded-price"])
    }

    func testTestSupportFilesAreLintedOnlyWithIncludeTests() {
        let source = "let price = \"$0.99\"\n"
        for path in ["App/Mocks/StoreMocks.swift", "App/Store/MembershipTier+Mocks.swift", "App/Fixtures/Prices.swift", "App/FakeData.m"] {
            XCTAssertEqual(lint(source.replacingOccurrences(of: "let price = \"", with: path.hasSuffix(".m") ? "NSString *price = @\"" : "let price = \""),
                                path: path), [], path)
            XCTAssertEqual(lint(source.replacingOccurrences(of: "let price = \"", with: path.hasSuffix(".m") ? "NSString *price = @\"" : "let price = \""),
                                path: path, includeTests: true).count, 1, path)
        }
        // Previews never ship, with or without tests.
        XCTAssertEqual(lint(source, path: "App/Preview Content/Samples.swift", includeTests: true), [])
    }

    func testAStaticFormatterWhoseLocaleIsSetInADidSetIsLocalized() {
        // The Kodeco tutorial's ProductCell: the locale is set through the type's name.
        let source = """
        import StoreKit
        class ProductCell: UITableViewCell {
            static let priceFormatter: NumberFormatter = {
                let formatter = NumberFormatter()
                formatter.formatterBehavior = .behavior10_4
                formatter.numberStyle = .currency
                return formatter
            }()
            var product: SKProduct? {
                didSet {
                    guard let product = product else { return }
                    ProductCell.priceFormatter.locale = product.priceLocale
                    detailTextLabel?.text = ProductCell.priceFormatter.string(from: product.price)
                }
            }
        }
        """
        XCTAssertEqual(lint(source, path: "App/ProductCell.swift"), [])
        XCTAssertEqual(lint(source.replacingOccurrences(of: "ProductCell.priceFormatter.locale = product.priceLocale", with: ""),
                            path: "App/ProductCell.swift"), ["6:9 currency-formatter-locale"])
    }

    func testAnObjectiveCFormatterPropertyWhoseLocaleIsSetInAnotherMethodIsLocalized() {
        let source = """
        #import <StoreKit/StoreKit.h>
        @implementation ShopViewController
        - (void)viewDidLoad {
            _priceFormatter = [[NSNumberFormatter alloc] init];
            [_priceFormatter setNumberStyle:NSNumberFormatterCurrencyStyle];
            self.otherFormatter = [[NSNumberFormatter alloc] init];
            [self.otherFormatter setNumberStyle:NSNumberFormatterCurrencyStyle];
        }
        - (NSString *)priceFor:(SKProduct *)product {
            [_priceFormatter setLocale:product.priceLocale];
            return [_priceFormatter stringFromNumber:product.price];
        }
        @end
        """
        // `otherFormatter`'s locale is set nowhere: reported, under its own name.
        let findings = SourceLinter().lint(source: source, path: "App/Shop.m")
        XCTAssertEqual(findings.map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }, ["7:5 currency-formatter-locale"])
        XCTAssertTrue(findings.first?.message.hasPrefix("'otherFormatter' formats currency") == true, findings.first?.message ?? "")
    }

    func testTruncatedPricesCurrencyCodesAndCents() {
        let swift = """
        import StoreKit
        func show(_ product: Product) -> String {
            let whole = NSDecimalNumber(decimal: product.price).intValue
            let cut = Int(truncating: product.price as NSNumber)
            let label = product.price.formatted(.currency(code: "EUR"))
            let teaser = "Only 99¢ today"
            if NSDecimalNumber(decimal: product.price).intValue > 0 { return label }
            return "\\(whole) \\(cut) \\(teaser)"
        }
        """
        XCTAssertEqual(lint(swift, path: "App/Store.swift"),
                       ["3:17 price-float-conversion", "4:15 price-float-conversion", "5:57 currency-formatter-locale", "6:18 hardcoded-price"])
        let objc = """
        #import <StoreKit/StoreKit.h>
        - (void)show:(SKProduct *)product {
            self.label.text = [NSString stringWithFormat:@"%ld", (long)[product.price integerValue]];
        }
        """
        XCTAssertEqual(lint(objc, path: "App/Store.m"), ["3:65 price-float-conversion"])
    }
}
