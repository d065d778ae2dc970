import Foundation
import XCTest
@testable import SourceLint
import TestSupport

/// Three classes of literals that are not a product shown for sale, measured on 20 fetched
/// repositories for issue 33: a price or title held by a declaration whose every use is logged
/// (DeepSeek's `mockPrice`, only printed), a currency code set on something that is not a
/// formatter (Apple Pay's `PKPaymentRequest`), and the label of the plan the customer already has
/// (`isProUser ? "Shrunk Pro" : "Free plan"`). The true findings beside each stay found.
final class ShownOrNotTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-shown" }
    let context = LintContext(titles: [LintContext.normalizedTitle("Acme Pro"), LintContext.normalizedTitle("Monthly Coins")])

    /// Writes the files and lints the folder: `file:line rule` for each finding.
    func lint(_ files: [String: String], jobs: Int? = nil) throws -> [String] {
        for (name, text) in files { try write(name, text) }
        var linter = SourceLinter(context: context)
        linter.jobs = jobs
        return try linter.lint(paths: [folder.path]).map { "\(($0.location.path as NSString).lastPathComponent):\($0.location.line) \($0.ruleID)" }
    }

    /// Declarations that hold prices and titles, in Swift and Objective-C, spelled five ways.
    let holders = """
        enum Plan {
            case monthly, yearly
            var mockPrice: String {
                switch self {
                case .monthly: return "¥28/月"
                case .yearly: return "¥238/年"
                }
            }
            static let fallbackText = "$4.99 a month"
            func priceHint() -> String { "€1.99" }
            var planName: String { self == .monthly ? "Monthly Coins" : "Acme Pro" }
        }
        """
    let objcHolders = """
        static NSString *const kTrialPrice = @"$0.99";
        @implementation Offer
        - (NSString *)introPrice {
            if (self.discounted) {
                return @"$2.99";
            }
            return @"$3.99";
        }
        @end
        """

    func testPricesAndTitlesHeldOnlyForLogsAreQuiet() throws {
        let logs = """
            import os
            func report(_ plan: Plan, logger: Logger) {
                print("月度: \\(plan.mockPrice)")
                debugPrint(Plan.fallbackText)
                logger.debug("hint \\(plan.priceHint())")
                NSLog("%@", plan.planName)
            }
            """
        let objcLogs = """
            - (void)dump {
                NSLog(@"%@ %@", kTrialPrice, [self introPrice]);
                DDLogInfo(@"%@", self.introPrice);
            }
            """
        XCTAssertEqual(try lint(["Plan.swift": holders, "Offer.m": objcHolders, "Report.swift": logs, "Dump.m": objcLogs]), [])
    }

    func testAHolderShownOnceOrNeverUsedKeepsItsFindings() throws {
        // `mockPrice` is shown once in a view: every literal it holds is reported; `priceHint` and
        // `kTrialPrice` are never used at all: reported; `introPrice` is assigned to a label.
        let uses = """
            import SwiftUI
            struct Card: View {
                let plan: Plan
                var body: some View {
                    Text(plan.mockPrice)
                    Text(Plan.fallbackText)
                }
            }
            func report(_ plan: Plan) { print(plan.mockPrice, Plan.fallbackText, plan.planName) }
            """
        let objcUses = """
            - (void)show {
                self.label.text = [self introPrice];
                NSLog(@"%@", self.introPrice);
            }
            """
        XCTAssertEqual(try lint(["Plan.swift": holders, "Offer.m": objcHolders, "Card.swift": uses, "Show.m": objcUses]), [
            "Offer.m:1 hardcoded-price", "Offer.m:5 hardcoded-price", "Offer.m:7 hardcoded-price",
            "Plan.swift:5 hardcoded-price", "Plan.swift:6 hardcoded-price", "Plan.swift:9 hardcoded-price", "Plan.swift:10 hardcoded-price",
        ])
    }

    func testUsesAreFoundInEveryFileHoweverManyBatchesTheyTake() throws {
        // Files are looked at a batch at a time (8 with one worker): the shown use of `hint` is in
        // the last file, the one logged use of `mockPrice` in the middle.
        var files: [String: String] = ["A.swift": "enum Plan {\n    var mockPrice: String { \"$1.99\" }\n    var hint: String { \"$2.99\" }\n}\n"]
        for k in 1..<40 { files[String(format: "F%02d.swift", k)] = "func f\(k)() -> Int { \(k) }\n" }
        files["F20.swift"] = "func log(_ p: Plan) { print(p.mockPrice, p.hint) }\n"
        files["F39.swift"] = "import SwiftUI\nstruct V: View { let p: Plan; var body: some View { Text(p.hint) } }\n"
        XCTAssertEqual(try lint(files, jobs: 1), ["A.swift:3 hardcoded-price"])
        XCTAssertEqual(try lint(files, jobs: 3), ["A.swift:3 hardcoded-price"])
    }

    func testNamesTheSystemReadsAndDeclarationsSeenFromOutsideKeepTheirFindings() throws {
        // `description` is shown by any interpolation of the value, an `@objc` property by
        // Interface Builder or Objective-C: a logged use is not all the uses there are.
        let holders = """
            struct Pass: CustomStringConvertible {
                var description: String { "$9.99 pass" }
            }
            final class Store: NSObject {
                @objc var badgePrice: String { "$1.99" }
                override var accessibilityHint: String? { get { "Acme Pro" } set {} }
            }
            """
        let logs = """
            func log(_ pass: Pass, _ store: Store) { print(pass.description, store.badgePrice, store.accessibilityHint ?? "") }
            """
        XCTAssertEqual(try lint(["Holders.swift": holders, "Log.swift": logs]), [
            "Holders.swift:2 hardcoded-price", "Holders.swift:5 hardcoded-price", "Holders.swift:6 hardcoded-title",
        ])
    }

    func testACurrencyCodeOnAPaymentRequestIsNotAFormattersLocale() throws {
        let swift = """
            import StoreKit
            import PassKit
            func pay(_ product: Product, checkout: Checkout) {
                let paymentRequest = PKPaymentRequest()
                paymentRequest.currencyCode = "CNY"
                let r: PKPaymentRequest = make()
                r.currencyCode = "EUR"
                checkout.paymentIntent.currencyCode = "USD"
                let formatter = NumberFormatter()
                formatter.currencyCode = "USD"
                self.priceFormatter.currencyCode = "GBP"
            }
            """
        XCTAssertEqual(try lint(["Pay.swift": swift]), ["Pay.swift:10 currency-formatter-locale", "Pay.swift:11 currency-formatter-locale"])
    }

    func testTheLabelOfThePlanTheCustomerHasIsNotAnOffer() throws {
        let swift = """
            import SwiftUI
            struct Status: View {
                let store: Store
                var body: some View {
                    Text(store.isProUser ? "Acme Pro" : "Free plan")
                    Text(!store.hasPremium ? "Free" : "Acme Pro")
                    Text(isSubscriptionActive ? "Monthly Coins" : "")
                    Text(store.isProUser ? "Thanks!" : "Acme Pro")
                    Text(!hasPremium ? "Acme Pro" : "Owned")
                    Text(isLoading ? "Acme Pro" : "")
                    Text(product.id == "pro" ? "Acme Pro" : "")
                }
            }
            """
        let objc = """
            - (void)show {
                self.planLabel.text = self.isSubscribed ? @"Acme Pro" : @"Free";
                self.planLabel.text = !_hasPro ? @"Free" : @"Acme Pro";
                self.offerLabel.text = self.isSubscribed ? @"Thanks" : @"Acme Pro";
            }
            """
        XCTAssertEqual(try lint(["Status.swift": swift, "Status.m": objc]), [
            "Status.m:4 hardcoded-title",
            "Status.swift:8 hardcoded-title", "Status.swift:9 hardcoded-title", "Status.swift:10 hardcoded-title", "Status.swift:11 hardcoded-title",
        ])
    }
}
