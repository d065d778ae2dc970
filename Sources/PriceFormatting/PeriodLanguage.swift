/// Words for periods and offers in the ten languages the App Store's largest storefronts use.
///
/// Unit names and their plural forms follow Unicode CLDR's "long" unit patterns and cardinal
/// plural rules (cldr-json: `cldr-units-full/main/<language>/units.json`,
/// `cldr-core/supplemental/plurals.json`). Foundation on Linux offers no API for them:
/// `DateComponentsFormatter` is unavailable and `Date.ComponentsFormatStyle` has no public members.
/// The sentence templates for offers are ours, worded so that no grammatical case is needed
/// beyond what the patterns give (Russian uses the accusative only for "неделю").
struct PeriodLanguage: Sendable {
    enum Plural { case one, few, many, other }

    /// Pattern per unit and plural category; `{0}` is the number.
    let units: [SubscriptionPeriod.Unit: [Plural: String]]
    /// The unit after a slash in "9,99 €/Monat".
    let perUnit: [SubscriptionPeriod.Unit: String]
    /// Cardinal plural rule for whole numbers.
    let plural: @Sendable (Int) -> Plural
    /// `{trial}`, `{recurring}`.
    let freeTrial: String
    /// `{perPeriod}`, `{duration}`.
    let payAsYouGo: String
    /// `{price}`, `{duration}`.
    let payUpFront: String
    /// `{perMonth}`, `{billed}`.
    let billedAs: String
    /// Forms used after a preposition that needs another case (Russian "на 1 неделю").
    var accusative: [SubscriptionPeriod.Unit: [Plural: String]] = [:]

    static func forLocale(_ identifier: String) -> PeriodLanguage {
        let parts = identifier.replacingOccurrences(of: "-", with: "_").split(separator: "_")
        switch parts.first.map(String.init) ?? "en" {
        case "de": return german
        case "fr": return french
        case "es": return spanish
        case "it": return italian
        case "ja": return japanese
        case "ko": return korean
        case "zh": return chinese
        case "pt": return portuguese
        case "ru": return russian
        default: return english
        }
    }

    /// Languages with real translations (others fall back to English).
    static let supported = ["en", "de", "fr", "es", "it", "ja", "ko", "zh-Hans", "pt-BR", "ru"]

    private static func two(_ one: String, _ other: String) -> [Plural: String] { [.one: one, .other: other] }
    private static let oneOther: @Sendable (Int) -> Plural = { $0 == 1 ? .one : .other }
    private static let zeroOrOne: @Sendable (Int) -> Plural = { $0 == 0 || $0 == 1 ? .one : .other }
    private static let onlyOther: @Sendable (Int) -> Plural = { _ in .other }

    static let english = PeriodLanguage(
        units: [.day: two("{0} day", "{0} days"), .week: two("{0} week", "{0} weeks"),
                .month: two("{0} month", "{0} months"), .year: two("{0} year", "{0} years")],
        perUnit: [.day: "day", .week: "week", .month: "month", .year: "year"], plural: oneOther,
        freeTrial: "{trial} free, then {recurring}", payAsYouGo: "{perPeriod} for {duration}",
        payUpFront: "{price} for {duration}", billedAs: "{perMonth}, billed {billed}")

    static let german = PeriodLanguage(
        units: [.day: two("{0} Tag", "{0} Tage"), .week: two("{0} Woche", "{0} Wochen"),
                .month: two("{0} Monat", "{0} Monate"), .year: two("{0} Jahr", "{0} Jahre")],
        perUnit: [.day: "Tag", .week: "Woche", .month: "Monat", .year: "Jahr"], plural: oneOther,
        freeTrial: "{trial} kostenlos, danach {recurring}", payAsYouGo: "{perPeriod} für {duration}",
        payUpFront: "{price} für {duration}", billedAs: "{perMonth}, abgerechnet als {billed}")

    static let french = PeriodLanguage(
        units: [.day: two("{0} jour", "{0} jours"), .week: two("{0} semaine", "{0} semaines"),
                .month: two("{0} mois", "{0} mois"), .year: two("{0} an", "{0} ans")],
        perUnit: [.day: "jour", .week: "semaine", .month: "mois", .year: "an"], plural: zeroOrOne,
        freeTrial: "Essai gratuit de {trial}, puis {recurring}", payAsYouGo: "{perPeriod} pendant {duration}",
        payUpFront: "{price} pour {duration}", billedAs: "{perMonth}, facturé {billed}")

    static let spanish = PeriodLanguage(
        units: [.day: two("{0} día", "{0} días"), .week: two("{0} semana", "{0} semanas"),
                .month: two("{0} mes", "{0} meses"), .year: two("{0} año", "{0} años")],
        perUnit: [.day: "día", .week: "semana", .month: "mes", .year: "año"], plural: oneOther,
        freeTrial: "Prueba gratuita de {trial}, luego {recurring}", payAsYouGo: "{perPeriod} durante {duration}",
        payUpFront: "{price} por {duration}", billedAs: "{perMonth}, facturado como {billed}")

    static let italian = PeriodLanguage(
        units: [.day: two("{0} giorno", "{0} giorni"), .week: two("{0} settimana", "{0} settimane"),
                .month: two("{0} mese", "{0} mesi"), .year: two("{0} anno", "{0} anni")],
        perUnit: [.day: "giorno", .week: "settimana", .month: "mese", .year: "anno"], plural: oneOther,
        freeTrial: "Prova gratuita di {trial}, poi {recurring}", payAsYouGo: "{perPeriod} per {duration}",
        payUpFront: "{price} per {duration}", billedAs: "{perMonth}, fatturato come {billed}")

    static let japanese = PeriodLanguage(
        units: [.day: [.other: "{0}日"], .week: [.other: "{0}週間"], .month: [.other: "{0}か月"], .year: [.other: "{0}年"]],
        perUnit: [.day: "日", .week: "週", .month: "月", .year: "年"], plural: onlyOther,
        freeTrial: "{trial}無料、その後{recurring}", payAsYouGo: "{duration}間 {perPeriod}",
        payUpFront: "{duration}で{price}", billedAs: "{perMonth}（{billed}で請求）")

    static let korean = PeriodLanguage(
        units: [.day: [.other: "{0}일"], .week: [.other: "{0}주"], .month: [.other: "{0}개월"], .year: [.other: "{0}년"]],
        perUnit: [.day: "일", .week: "주", .month: "월", .year: "년"], plural: onlyOther,
        freeTrial: "{trial} 무료, 이후 {recurring}", payAsYouGo: "{duration} 동안 {perPeriod}",
        payUpFront: "{duration} {price}", billedAs: "{perMonth}, {billed}로 청구")

    static let chinese = PeriodLanguage(
        units: [.day: [.other: "{0}天"], .week: [.other: "{0}周"], .month: [.other: "{0}个月"], .year: [.other: "{0}年"]],
        perUnit: [.day: "天", .week: "周", .month: "月", .year: "年"], plural: onlyOther,
        freeTrial: "免费试用{trial}，之后{recurring}", payAsYouGo: "前{duration}{perPeriod}",
        payUpFront: "{duration}{price}", billedAs: "{perMonth}，按{billed}计费")

    static let portuguese = PeriodLanguage(
        units: [.day: two("{0} dia", "{0} dias"), .week: two("{0} semana", "{0} semanas"),
                .month: two("{0} mês", "{0} meses"), .year: two("{0} ano", "{0} anos")],
        perUnit: [.day: "dia", .week: "semana", .month: "mês", .year: "ano"], plural: zeroOrOne,
        freeTrial: "Avaliação gratuita de {trial}, depois {recurring}", payAsYouGo: "{perPeriod} por {duration}",
        payUpFront: "{price} por {duration}", billedAs: "{perMonth}, cobrado como {billed}")

    static let russian = PeriodLanguage(
        units: [.day: [.one: "{0} день", .few: "{0} дня", .many: "{0} дней", .other: "{0} дня"],
                .week: [.one: "{0} неделя", .few: "{0} недели", .many: "{0} недель", .other: "{0} недели"],
                .month: [.one: "{0} месяц", .few: "{0} месяца", .many: "{0} месяцев", .other: "{0} месяца"],
                .year: [.one: "{0} год", .few: "{0} года", .many: "{0} лет", .other: "{0} года"]],
        perUnit: [.day: "день", .week: "нед.", .month: "мес.", .year: "год"],
        plural: { n in
            let (mod10, mod100) = (n % 10, n % 100)
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        },
        freeTrial: "Пробный период: {trial}, затем {recurring}", payAsYouGo: "{perPeriod} на {duration}",
        payUpFront: "{price} за {duration}", billedAs: "{perMonth}, списывается {billed}",
        accusative: [.week: [.one: "{0} неделю", .few: "{0} недели", .many: "{0} недель", .other: "{0} недели"]])
}
