import Diagnostics
import XCTest
@testable import IAPCatalog

/// `period-contradicts-name` reads numbers written as words before a unit (issue 33, class 1):
/// "half a year" is six months, "three month" three, whatever the spelling.
final class PeriodWordsTests: XCTestCase {
    private func stated(_ text: String) -> [String: String] { PeriodContradictsNameRule.statedPeriods(text) }

    func testCountWordsBeforeAUnitNameThatManyUnits() {
        XCTAssertEqual(stated("half_a_year_premium"), ["P6M": "half a year"])
        XCTAssertEqual(stated("Pro Half a Year"), ["P6M": "half a year"])
        XCTAssertEqual(stated("ProHalfAYear"), ["P6M": "half a year"])
        XCTAssertEqual(stated("com.acme.app.half-year"), ["P6M": "half year"])
        XCTAssertEqual(stated("com.acme.app.halfyearly"), ["P6M": "halfyearly"])
        XCTAssertEqual(stated("com.acme.app.halfayear"), ["P6M": "halfayear"])
        XCTAssertEqual(stated("three month"), ["P3M": "three month"])
        XCTAssertEqual(stated("com.acme.app.ThreeMonths"), ["P3M": "three months"])
        XCTAssertEqual(stated("com.acme.app.threemonths"), ["P3M": "threemonths"])
        XCTAssertEqual(stated("premium_two_months"), ["P2M": "two months"])
        XCTAssertEqual(stated("SIX_MONTHS_PRO"), ["P6M": "six months"])
        XCTAssertEqual(stated("pro.twelve.months"), ["P1Y": "twelve months"])
        XCTAssertEqual(stated("pro_one_year"), ["P1Y": "one year"])
        XCTAssertEqual(stated("Pro for a Week"), ["P1W": "a week"])
    }

    func testDigitsAndBareUnitsReadAsBefore() {
        XCTAssertEqual(stated("pro_3_month"), ["P3M": "3month"])
        XCTAssertEqual(stated("pro.6months"), ["P6M": "6months"])
        XCTAssertEqual(stated("halfyear"), ["P6M": "halfyear"])
        XCTAssertEqual(stated("yearly_sub"), ["P1Y": "yearly"])
        XCTAssertEqual(stated("Pro Monthly"), ["P1M": "monthly"])
    }

    func testShortCountWordsStandAloneOnly() {
        // `am`, `an` glued to a unit letter are not counts; `pro_a` is no period at all.
        XCTAssertEqual(stated("com.acme.app.pro_a"), [:])
        XCTAssertEqual(stated("com.acme.app.amonth"), [:])
        XCTAssertEqual(stated("com.acme.app.anyear"), [:])
        // A count word before something that is not a unit says nothing.
        XCTAssertEqual(stated("com.acme.app.three_gems"), [:])
    }

    func testANumberThatMakesNoBillingPeriodStatesNone() {
        // A price beside the unit (5.99 a week), a count App Store Connect does not bill.
        XCTAssertEqual(stated("bigbruh_599_week"), [:])
        XCTAssertEqual(stated("pro.499.monthly"), ["P1M": "monthly"])
        XCTAssertEqual(stated("pro_4_months"), [:])
        XCTAssertEqual(stated("pro_two_weeks"), [:])
        XCTAssertEqual(stated("6899_sixmonth"), ["P6M": "sixmonth"])
        XCTAssertEqual(stated("pro_24_months"), [:])
    }

    func testATrialPeriodInCountWordsIsAnOfferNotTheBilling() {
        XCTAssertEqual(stated("pro_yearly_one_week_trial"), ["P1Y": "yearly"])
    }

    // MARK: - The rule on catalogs

    private func findings(id: String, referenceName: String? = nil, period: String) throws -> [String] {
        var fields = ["<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>",
                      "<key>subscriptionPeriod</key><string>\(period)</string>"]
        if let referenceName { fields.append("<key>referenceName</key><string>\(referenceName)</string>") }
        let body = "\t\t<key>\(id)</key>\n\t\t<dict>\n" + fields.map { "\t\t\t" + $0 }.joined(separator: "\n") + "\n\t\t</dict>"
        let example = RuleExample.metadata(body)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-period-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let m = try RuleExampleTests.materialize(example, in: folder)
        let catalog = CatalogLoader(bundleIDOverride: m.bundleID).loadCatalog(name: "p", paths: m.paths, explicit: Set(m.paths))
        return PeriodContradictsNameRule().check(catalog, options: m.options).filter { $0.ruleID == "period-contradicts-name" }
            .map(\.message)
    }

    func testASixMonthSubscriptionNamedHalfAYearIsQuiet() throws {
        XCTAssertEqual(try findings(id: "com.acme.app.half_a_year_premium", period: "P6M"), [])
        XCTAssertEqual(try findings(id: "com.acme.app.pro_b", referenceName: "Pro Half a Year", period: "P6M"), [])
        XCTAssertEqual(try findings(id: "com.acme.app.three_month", period: "P3M"), [])
        XCTAssertEqual(try findings(id: "com.acme.app.TwoMonths", period: "P2M"), [])
    }

    func testTrueContradictionsStayFound() throws {
        XCTAssertEqual(try findings(id: "com.acme.app.yearly_sub", period: "P1M"),
                       ["the ID 'com.acme.app.yearly_sub' says 'yearly' (P1Y) but the subscription period of 'com.acme.app.yearly_sub' is P1M"])
        XCTAssertEqual(try findings(id: "com.acme.app.half_a_year_premium", period: "P1Y"),
                       ["the ID 'com.acme.app.half_a_year_premium' says 'half a year' (P6M) but the subscription period of 'com.acme.app.half_a_year_premium' is P1Y"])
        XCTAssertEqual(try findings(id: "com.acme.app.pro_c", referenceName: "Three Month Pass", period: "P1M"),
                       ["the reference name 'Three Month Pass' says 'three month' (P3M) but the subscription period of 'com.acme.app.pro_c' is P1M"])
    }
}
