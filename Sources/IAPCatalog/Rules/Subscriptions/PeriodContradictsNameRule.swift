import Diagnostics

/// A subscription whose ID or reference name says one billing period and whose declared period
/// is another (`yearly_sub` billed `P1M`): one of the two is wrong, and customers see the period.
public struct PeriodContradictsNameRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "period-contradicts-name", name: "Period contradicts the name", severity: .warning,
        rationale: "An ID or reference name that says 'yearly' for a product billed monthly confuses every reader and often hides a wrong period in App Store Connect.",
        triggering: [
            .metadata(RuleExample.product("com.acme.app.yearly_sub", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P1M</string>")),
            .metadata(RuleExample.product("com.acme.app.pro_a", "<key>kind</key><string>auto-renewable</string>", "<key>referenceName</key><string>Pro Monthly</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P1Y</string>")),
            .metadata(RuleExample.product("com.acme.app.pro.12months", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P6M</string>")),
        ],
        nonTriggering: [
            .metadata(RuleExample.product("com.acme.app.yearly_sub", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1Y</string>")),
            .metadata(RuleExample.product("com.acme.app.byos12month", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1Y</string>")),
            .metadata(RuleExample.product("com.acme.app.pro_1week_trial", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>")),
            .metadata(RuleExample.product("com.acme.app.weekly_yearly_bundle", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1Y</string>")),
        ])

    /// Words that name a billing period without a number.
    static let periodWords: [String: String] = [
        "weekly": "P1W", "week": "P1W", "monthly": "P1M", "month": "P1M", "bimonthly": "P2M", "quarterly": "P3M",
        "quarter": "P3M", "semiannual": "P6M", "semiannually": "P6M", "biannual": "P6M", "halfyear": "P6M",
        "halfyearly": "P6M", "yearly": "P1Y", "year": "P1Y", "annual": "P1Y", "annually": "P1Y", "yr": "P1Y",
    ]
    /// Units after a number (`1month`, `3m`, `12mo`, `1y`).
    static let units: [String: Character] = [
        "week": "W", "weeks": "W", "wk": "W", "w": "W", "month": "M", "months": "M", "mo": "M", "mon": "M", "m": "M",
        "year": "Y", "years": "Y", "yr": "Y", "y": "Y",
    ]
    /// Words that put a period on an offer, not on the billing (`1week_trial`).
    static let offerWords: Set<String> = ["trial", "free", "intro", "introductory", "offer"]

    /// The billing periods a text names, normalised (`12month` → `P1Y`), each with the word that names it.
    static func statedPeriods(_ text: String) -> [String: String] {
        let tokens = KindInference.tokens(text)
        let offer = !tokens.isDisjoint(with: offerWords)
        var numbered: [String: String] = [:]
        var numberedUnits = Set<Character>()
        for token in tokens {
            let digits = token.prefix { $0.isNumber }
            guard !digits.isEmpty, let n = Int(digits), n > 0, let unit = units[String(token.dropFirst(digits.count))] else { continue }
            numberedUnits.insert(unit)
            if offer && unit == "W" { continue }
            numbered[normalized(n, unit)] = token
        }
        var stated = numbered
        for token in tokens {
            guard let period = periodWords[token], let unit = period.last, !numberedUnits.contains(unit) else { continue }
            if offer && unit == "W" { continue }
            stated[period] = stated[period] ?? token
        }
        return stated
    }

    private static func normalized(_ n: Int, _ unit: Character) -> String {
        if unit == "M", n % 12 == 0 { return "P\(n / 12)Y" }
        if unit == "W", n % 52 == 0 { return "P\(n / 52)Y" }
        return "P\(n)\(unit)"
    }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            // A period App Store Connect does not offer is unknown-subscription-period's finding.
            guard let period = product.metadata.subscriptionPeriod,
                  UnknownSubscriptionPeriodRule.billingPeriods.contains(period.value.description) else { continue }
            let actual = period.value.description
            for (what, text) in [("ID", product.id), ("reference name", product.metadata.referenceName?.value ?? "")] {
                let stated = Self.statedPeriods(text)
                guard !stated.isEmpty, stated[actual] == nil else { continue }
                found.add(at: period.location) {
                    let said = stated.sorted { $0.key < $1.key }.map { "\(Quote.bounded($0.value)) (\($0.key))" }.joined(separator: ", ")
                    return finding("the \(what) \(Quote.bounded(text)) says \(said) but the subscription period of \(Quote.bounded(product.id)) is \(period.value)",
                                   at: period.location, fix: SuggestedFix("correct the period, or the \(what) for new products"))
                }
                break
            }
        }
    }
}
