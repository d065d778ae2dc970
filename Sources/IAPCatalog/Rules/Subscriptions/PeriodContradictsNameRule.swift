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
            .metadata(RuleExample.product("com.acme.app.half_a_year_premium", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P1Y</string>")),
        ],
        nonTriggering: [
            .metadata(RuleExample.product("com.acme.app.yearly_sub", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1Y</string>")),
            .metadata(RuleExample.product("com.acme.app.byos12month", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1Y</string>")),
            .metadata(RuleExample.product("com.acme.app.pro_1week_trial", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>")),
            .metadata(RuleExample.product("com.acme.app.half_a_year_premium", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P6M</string>")),
            .metadata(RuleExample.product("com.acme.app.pro_b", "<key>kind</key><string>auto-renewable</string>", "<key>referenceName</key><string>Pro Three Month</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P3M</string>")),
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
            // `599_week` is a price beside a unit, not 599 weeks: only a number that makes a
            // period App Store Connect bills states one.
            let period = normalized(n, unit)
            guard UnknownSubscriptionPeriodRule.billingPeriods.contains(period) else { continue }
            numbered[period] = token
        }
        for (period, phrase, unit) in countedPeriods(text) {
            numberedUnits.insert(unit)
            if offer && period.hasSuffix("W") { continue }
            guard UnknownSubscriptionPeriodRule.billingPeriods.contains(period) else { continue }
            numbered[period] = numbered[period] ?? phrase
        }
        var stated = numbered
        for token in tokens {
            guard let period = periodWords[token], let unit = period.last, !numberedUnits.contains(unit) else { continue }
            if offer && unit == "W" { continue }
            stated[period] = stated[period] ?? token
        }
        return stated
    }

    /// Numbers written as words before a unit (`three_month`, `SixMonths`, `one year`).
    static let countWords: [String: Int] = [
        "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12,
    ]
    /// The units a counted phrase may end in: whole words only, so `a` + `m` is never a month.
    static let countedUnits: [String: Character] = [
        "week": "W", "weeks": "W", "weekly": "W", "month": "M", "months": "M", "monthly": "M",
        "year": "Y", "years": "Y", "yearly": "Y",
    ]

    /// The periods a text states with a count word before a unit word — `three month` (P3M), `half
    /// a year` and `half-yearly` (P6M), `TwoMonths` (P2M), `sixmonths` (P6M) — each with its phrase
    /// and the unit its words name, so that the unit alone (`year` of `half a year`) is not also
    /// read as a period of its own.
    static func countedPeriods(_ text: String) -> [(period: String, phrase: String, unit: Character)] {
        let words = orderedWords(text)
        var found: [(String, String, Character)] = []
        for (i, word) in words.enumerated() {
            if let unit = countedUnits[word] {
                let before = i > 0 ? words[i - 1] : nil
                if before == "half" || (before == "a" && i > 1 && words[i - 2] == "half") {
                    guard unit == "Y" else { continue }
                    found.append(("P6M", words[(before == "half" ? i - 1 : i - 2)...i].joined(separator: " "), unit))
                } else if let before, let n = countWords[before] {
                    found.append((normalized(n, unit), "\(before) \(word)", unit))
                }
                continue
            }
            // Written as one word: `threemonth`, `halfayear`. Count words of one or two letters
            // stand alone only (`am` is not a month).
            for (prefix, n) in countWords where prefix.count > 2 && word.hasPrefix(prefix) {
                if let unit = countedUnits[String(word.dropFirst(prefix.count))] {
                    found.append((normalized(n, unit), word, unit))
                }
            }
            for prefix in ["half", "halfa"] where word.hasPrefix(prefix) {
                if countedUnits[String(word.dropFirst(prefix.count))] == "Y" { found.append(("P6M", word, "Y")) }
            }
        }
        return found
    }

    /// The words of `text` in order, lowercased: its `.`/`_`/`-`/space segments split where
    /// camelCase or a letter/digit boundary starts a new word (`ProHalfAYear` → pro, half, a, year).
    static func orderedWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        var previous: Character?
        func close() {
            if !current.isEmpty { words.append(String(current).lowercased()) }
            current = []
        }
        for c in text {
            guard c.isLetter || c.isNumber else {
                close()
                previous = nil
                continue
            }
            if let p = previous, (p.isLowercase && c.isUppercase) || (p.isNumber != c.isNumber) { close() }
            // `HALFYear`: an upper-case run ends one letter before a lower-case letter.
            if let p = previous, p.isUppercase, c.isLowercase, current.count > 1 {
                let last = current.removeLast()
                close()
                current = [last]
            }
            current.append(c)
            previous = c
        }
        close()
        return words
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
