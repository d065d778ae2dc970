import Foundation

/// An App Store storefront: where prices are shown, in which currency and locale.
public struct Storefront: Sendable, Hashable {
    /// ISO 3166-1 alpha-3, as App Store Connect, StoreKit's `Storefront.countryCode` and
    /// `.storekit` files' `settings._storefront` write it (`USA`, `JPN`; `XKS` for Kosovo).
    public let alpha3: String
    public let alpha2: String
    public let name: String
    /// The ISO 4217 currency the App Store prices this storefront in.
    public let currency: String
    /// The locale prices are shown in: the storefront's main App Store language with the
    /// country as region.
    public let locale: String
}

/// The App Store's 175 storefronts.
///
/// Sources: the codes are App Store Connect API's `TerritoryCode` values
/// (developer.apple.com/documentation/appstoreconnectapi/territorycode); the currencies are the
/// App Store's 43 pricing currencies as App Store Connect lists them per country or region
/// ("Pricing and availability", App Store Connect Help), where 130-odd smaller storefronts are
/// priced in USD and Bulgaria in EUR from 2026; cross-checked against a public compilation of
/// the 175 territories and their currencies. The display locales are this project's choice:
/// the storefront's main App Store language (English where the App Store is in English).
public enum Storefronts {
    public static let all: [Storefront] = [
        Storefront(alpha3: "AFG", alpha2: "AF", name: "Afghanistan", currency: "USD", locale: "en_AF"),
        Storefront(alpha3: "AGO", alpha2: "AO", name: "Angola", currency: "USD", locale: "pt_AO"),
        Storefront(alpha3: "AIA", alpha2: "AI", name: "Anguilla", currency: "USD", locale: "en_AI"),
        Storefront(alpha3: "ALB", alpha2: "AL", name: "Albania", currency: "USD", locale: "sq_AL"),
        Storefront(alpha3: "ARE", alpha2: "AE", name: "United Arab Emirates", currency: "AED", locale: "en_AE"),
        Storefront(alpha3: "ARG", alpha2: "AR", name: "Argentina", currency: "USD", locale: "es_AR"),
        Storefront(alpha3: "ARM", alpha2: "AM", name: "Armenia", currency: "USD", locale: "hy_AM"),
        Storefront(alpha3: "ATG", alpha2: "AG", name: "Antigua and Barbuda", currency: "USD", locale: "en_AG"),
        Storefront(alpha3: "AUS", alpha2: "AU", name: "Australia", currency: "AUD", locale: "en_AU"),
        Storefront(alpha3: "AUT", alpha2: "AT", name: "Austria", currency: "EUR", locale: "de_AT"),
        Storefront(alpha3: "AZE", alpha2: "AZ", name: "Azerbaijan", currency: "USD", locale: "az_AZ"),
        Storefront(alpha3: "BEL", alpha2: "BE", name: "Belgium", currency: "EUR", locale: "fr_BE"),
        Storefront(alpha3: "BEN", alpha2: "BJ", name: "Benin", currency: "USD", locale: "fr_BJ"),
        Storefront(alpha3: "BFA", alpha2: "BF", name: "Burkina Faso", currency: "USD", locale: "fr_BF"),
        Storefront(alpha3: "BGR", alpha2: "BG", name: "Bulgaria", currency: "EUR", locale: "bg_BG"),
        Storefront(alpha3: "BHR", alpha2: "BH", name: "Bahrain", currency: "USD", locale: "ar_BH"),
        Storefront(alpha3: "BHS", alpha2: "BS", name: "Bahamas", currency: "USD", locale: "en_BS"),
        Storefront(alpha3: "BIH", alpha2: "BA", name: "Bosnia and Herzegovina", currency: "EUR", locale: "bs_BA"),
        Storefront(alpha3: "BLR", alpha2: "BY", name: "Belarus", currency: "USD", locale: "ru_BY"),
        Storefront(alpha3: "BLZ", alpha2: "BZ", name: "Belize", currency: "USD", locale: "en_BZ"),
        Storefront(alpha3: "BMU", alpha2: "BM", name: "Bermuda", currency: "USD", locale: "en_BM"),
        Storefront(alpha3: "BOL", alpha2: "BO", name: "Bolivia", currency: "USD", locale: "es_BO"),
        Storefront(alpha3: "BRA", alpha2: "BR", name: "Brazil", currency: "BRL", locale: "pt_BR"),
        Storefront(alpha3: "BRB", alpha2: "BB", name: "Barbados", currency: "USD", locale: "en_BB"),
        Storefront(alpha3: "BRN", alpha2: "BN", name: "Brunei", currency: "USD", locale: "ms_BN"),
        Storefront(alpha3: "BTN", alpha2: "BT", name: "Bhutan", currency: "USD", locale: "en_BT"),
        Storefront(alpha3: "BWA", alpha2: "BW", name: "Botswana", currency: "USD", locale: "en_BW"),
        Storefront(alpha3: "CAN", alpha2: "CA", name: "Canada", currency: "CAD", locale: "en_CA"),
        Storefront(alpha3: "CHE", alpha2: "CH", name: "Switzerland", currency: "CHF", locale: "de_CH"),
        Storefront(alpha3: "CHL", alpha2: "CL", name: "Chile", currency: "CLP", locale: "es_CL"),
        Storefront(alpha3: "CHN", alpha2: "CN", name: "China mainland", currency: "CNY", locale: "zh_Hans_CN"),
        Storefront(alpha3: "CIV", alpha2: "CI", name: "Côte d’Ivoire", currency: "USD", locale: "fr_CI"),
        Storefront(alpha3: "CMR", alpha2: "CM", name: "Cameroon", currency: "USD", locale: "fr_CM"),
        Storefront(alpha3: "COD", alpha2: "CD", name: "Congo (DRC)", currency: "USD", locale: "fr_CD"),
        Storefront(alpha3: "COG", alpha2: "CG", name: "Congo (Republic)", currency: "USD", locale: "fr_CG"),
        Storefront(alpha3: "COL", alpha2: "CO", name: "Colombia", currency: "COP", locale: "es_CO"),
        Storefront(alpha3: "CPV", alpha2: "CV", name: "Cape Verde", currency: "USD", locale: "pt_CV"),
        Storefront(alpha3: "CRI", alpha2: "CR", name: "Costa Rica", currency: "USD", locale: "es_CR"),
        Storefront(alpha3: "CYM", alpha2: "KY", name: "Cayman Islands", currency: "USD", locale: "en_KY"),
        Storefront(alpha3: "CYP", alpha2: "CY", name: "Cyprus", currency: "EUR", locale: "el_CY"),
        Storefront(alpha3: "CZE", alpha2: "CZ", name: "Czechia", currency: "CZK", locale: "cs_CZ"),
        Storefront(alpha3: "DEU", alpha2: "DE", name: "Germany", currency: "EUR", locale: "de_DE"),
        Storefront(alpha3: "DMA", alpha2: "DM", name: "Dominica", currency: "USD", locale: "en_DM"),
        Storefront(alpha3: "DNK", alpha2: "DK", name: "Denmark", currency: "DKK", locale: "da_DK"),
        Storefront(alpha3: "DOM", alpha2: "DO", name: "Dominican Republic", currency: "USD", locale: "es_DO"),
        Storefront(alpha3: "DZA", alpha2: "DZ", name: "Algeria", currency: "USD", locale: "fr_DZ"),
        Storefront(alpha3: "ECU", alpha2: "EC", name: "Ecuador", currency: "USD", locale: "es_EC"),
        Storefront(alpha3: "EGY", alpha2: "EG", name: "Egypt", currency: "EGP", locale: "ar_EG"),
        Storefront(alpha3: "ESP", alpha2: "ES", name: "Spain", currency: "EUR", locale: "es_ES"),
        Storefront(alpha3: "EST", alpha2: "EE", name: "Estonia", currency: "EUR", locale: "et_EE"),
        Storefront(alpha3: "FIN", alpha2: "FI", name: "Finland", currency: "EUR", locale: "fi_FI"),
        Storefront(alpha3: "FJI", alpha2: "FJ", name: "Fiji", currency: "USD", locale: "en_FJ"),
        Storefront(alpha3: "FRA", alpha2: "FR", name: "France", currency: "EUR", locale: "fr_FR"),
        Storefront(alpha3: "FSM", alpha2: "FM", name: "Micronesia", currency: "USD", locale: "en_FM"),
        Storefront(alpha3: "GAB", alpha2: "GA", name: "Gabon", currency: "USD", locale: "fr_GA"),
        Storefront(alpha3: "GBR", alpha2: "GB", name: "United Kingdom", currency: "GBP", locale: "en_GB"),
        Storefront(alpha3: "GEO", alpha2: "GE", name: "Georgia", currency: "USD", locale: "ka_GE"),
        Storefront(alpha3: "GHA", alpha2: "GH", name: "Ghana", currency: "USD", locale: "en_GH"),
        Storefront(alpha3: "GMB", alpha2: "GM", name: "Gambia", currency: "USD", locale: "en_GM"),
        Storefront(alpha3: "GNB", alpha2: "GW", name: "Guinea-Bissau", currency: "USD", locale: "pt_GW"),
        Storefront(alpha3: "GRC", alpha2: "GR", name: "Greece", currency: "EUR", locale: "el_GR"),
        Storefront(alpha3: "GRD", alpha2: "GD", name: "Grenada", currency: "USD", locale: "en_GD"),
        Storefront(alpha3: "GTM", alpha2: "GT", name: "Guatemala", currency: "USD", locale: "es_GT"),
        Storefront(alpha3: "GUY", alpha2: "GY", name: "Guyana", currency: "USD", locale: "en_GY"),
        Storefront(alpha3: "HKG", alpha2: "HK", name: "Hong Kong", currency: "HKD", locale: "zh_Hant_HK"),
        Storefront(alpha3: "HND", alpha2: "HN", name: "Honduras", currency: "USD", locale: "es_HN"),
        Storefront(alpha3: "HRV", alpha2: "HR", name: "Croatia", currency: "EUR", locale: "hr_HR"),
        Storefront(alpha3: "HUN", alpha2: "HU", name: "Hungary", currency: "HUF", locale: "hu_HU"),
        Storefront(alpha3: "IDN", alpha2: "ID", name: "Indonesia", currency: "IDR", locale: "id_ID"),
        Storefront(alpha3: "IND", alpha2: "IN", name: "India", currency: "INR", locale: "en_IN"),
        Storefront(alpha3: "IRL", alpha2: "IE", name: "Ireland", currency: "EUR", locale: "en_IE"),
        Storefront(alpha3: "IRQ", alpha2: "IQ", name: "Iraq", currency: "USD", locale: "ar_IQ"),
        Storefront(alpha3: "ISL", alpha2: "IS", name: "Iceland", currency: "USD", locale: "is_IS"),
        Storefront(alpha3: "ISR", alpha2: "IL", name: "Israel", currency: "ILS", locale: "he_IL"),
        Storefront(alpha3: "ITA", alpha2: "IT", name: "Italy", currency: "EUR", locale: "it_IT"),
        Storefront(alpha3: "JAM", alpha2: "JM", name: "Jamaica", currency: "USD", locale: "en_JM"),
        Storefront(alpha3: "JOR", alpha2: "JO", name: "Jordan", currency: "USD", locale: "ar_JO"),
        Storefront(alpha3: "JPN", alpha2: "JP", name: "Japan", currency: "JPY", locale: "ja_JP"),
        Storefront(alpha3: "KAZ", alpha2: "KZ", name: "Kazakhstan", currency: "KZT", locale: "ru_KZ"),
        Storefront(alpha3: "KEN", alpha2: "KE", name: "Kenya", currency: "USD", locale: "en_KE"),
        Storefront(alpha3: "KGZ", alpha2: "KG", name: "Kyrgyzstan", currency: "USD", locale: "ru_KG"),
        Storefront(alpha3: "KHM", alpha2: "KH", name: "Cambodia", currency: "USD", locale: "km_KH"),
        Storefront(alpha3: "KNA", alpha2: "KN", name: "Saint Kitts and Nevis", currency: "USD", locale: "en_KN"),
        Storefront(alpha3: "KOR", alpha2: "KR", name: "South Korea", currency: "KRW", locale: "ko_KR"),
        Storefront(alpha3: "KWT", alpha2: "KW", name: "Kuwait", currency: "USD", locale: "ar_KW"),
        Storefront(alpha3: "LAO", alpha2: "LA", name: "Laos", currency: "USD", locale: "lo_LA"),
        Storefront(alpha3: "LBN", alpha2: "LB", name: "Lebanon", currency: "USD", locale: "ar_LB"),
        Storefront(alpha3: "LBR", alpha2: "LR", name: "Liberia", currency: "USD", locale: "en_LR"),
        Storefront(alpha3: "LBY", alpha2: "LY", name: "Libya", currency: "USD", locale: "ar_LY"),
        Storefront(alpha3: "LCA", alpha2: "LC", name: "Saint Lucia", currency: "USD", locale: "en_LC"),
        Storefront(alpha3: "LKA", alpha2: "LK", name: "Sri Lanka", currency: "USD", locale: "en_LK"),
        Storefront(alpha3: "LTU", alpha2: "LT", name: "Lithuania", currency: "EUR", locale: "lt_LT"),
        Storefront(alpha3: "LUX", alpha2: "LU", name: "Luxembourg", currency: "EUR", locale: "fr_LU"),
        Storefront(alpha3: "LVA", alpha2: "LV", name: "Latvia", currency: "EUR", locale: "lv_LV"),
        Storefront(alpha3: "MAC", alpha2: "MO", name: "Macao", currency: "USD", locale: "zh_Hant_MO"),
        Storefront(alpha3: "MAR", alpha2: "MA", name: "Morocco", currency: "USD", locale: "fr_MA"),
        Storefront(alpha3: "MDA", alpha2: "MD", name: "Moldova", currency: "USD", locale: "ro_MD"),
        Storefront(alpha3: "MDG", alpha2: "MG", name: "Madagascar", currency: "USD", locale: "fr_MG"),
        Storefront(alpha3: "MDV", alpha2: "MV", name: "Maldives", currency: "USD", locale: "en_MV"),
        Storefront(alpha3: "MEX", alpha2: "MX", name: "Mexico", currency: "MXN", locale: "es_MX"),
        Storefront(alpha3: "MKD", alpha2: "MK", name: "North Macedonia", currency: "USD", locale: "mk_MK"),
        Storefront(alpha3: "MLI", alpha2: "ML", name: "Mali", currency: "USD", locale: "fr_ML"),
        Storefront(alpha3: "MLT", alpha2: "MT", name: "Malta", currency: "EUR", locale: "en_MT"),
        Storefront(alpha3: "MMR", alpha2: "MM", name: "Myanmar", currency: "USD", locale: "my_MM"),
        Storefront(alpha3: "MNE", alpha2: "ME", name: "Montenegro", currency: "EUR", locale: "sr_Latn_ME"),
        Storefront(alpha3: "MNG", alpha2: "MN", name: "Mongolia", currency: "USD", locale: "mn_MN"),
        Storefront(alpha3: "MOZ", alpha2: "MZ", name: "Mozambique", currency: "USD", locale: "pt_MZ"),
        Storefront(alpha3: "MRT", alpha2: "MR", name: "Mauritania", currency: "USD", locale: "fr_MR"),
        Storefront(alpha3: "MSR", alpha2: "MS", name: "Montserrat", currency: "USD", locale: "en_MS"),
        Storefront(alpha3: "MUS", alpha2: "MU", name: "Mauritius", currency: "USD", locale: "en_MU"),
        Storefront(alpha3: "MWI", alpha2: "MW", name: "Malawi", currency: "USD", locale: "en_MW"),
        Storefront(alpha3: "MYS", alpha2: "MY", name: "Malaysia", currency: "MYR", locale: "ms_MY"),
        Storefront(alpha3: "NAM", alpha2: "NA", name: "Namibia", currency: "USD", locale: "en_NA"),
        Storefront(alpha3: "NER", alpha2: "NE", name: "Niger", currency: "USD", locale: "fr_NE"),
        Storefront(alpha3: "NGA", alpha2: "NG", name: "Nigeria", currency: "NGN", locale: "en_NG"),
        Storefront(alpha3: "NIC", alpha2: "NI", name: "Nicaragua", currency: "USD", locale: "es_NI"),
        Storefront(alpha3: "NLD", alpha2: "NL", name: "Netherlands", currency: "EUR", locale: "nl_NL"),
        Storefront(alpha3: "NOR", alpha2: "NO", name: "Norway", currency: "NOK", locale: "nb_NO"),
        Storefront(alpha3: "NPL", alpha2: "NP", name: "Nepal", currency: "USD", locale: "ne_NP"),
        Storefront(alpha3: "NRU", alpha2: "NR", name: "Nauru", currency: "USD", locale: "en_NR"),
        Storefront(alpha3: "NZL", alpha2: "NZ", name: "New Zealand", currency: "NZD", locale: "en_NZ"),
        Storefront(alpha3: "OMN", alpha2: "OM", name: "Oman", currency: "USD", locale: "ar_OM"),
        Storefront(alpha3: "PAK", alpha2: "PK", name: "Pakistan", currency: "PKR", locale: "en_PK"),
        Storefront(alpha3: "PAN", alpha2: "PA", name: "Panama", currency: "USD", locale: "es_PA"),
        Storefront(alpha3: "PER", alpha2: "PE", name: "Peru", currency: "PEN", locale: "es_PE"),
        Storefront(alpha3: "PHL", alpha2: "PH", name: "Philippines", currency: "PHP", locale: "en_PH"),
        Storefront(alpha3: "PLW", alpha2: "PW", name: "Palau", currency: "USD", locale: "en_PW"),
        Storefront(alpha3: "PNG", alpha2: "PG", name: "Papua New Guinea", currency: "USD", locale: "en_PG"),
        Storefront(alpha3: "POL", alpha2: "PL", name: "Poland", currency: "PLN", locale: "pl_PL"),
        Storefront(alpha3: "PRT", alpha2: "PT", name: "Portugal", currency: "EUR", locale: "pt_PT"),
        Storefront(alpha3: "PRY", alpha2: "PY", name: "Paraguay", currency: "USD", locale: "es_PY"),
        Storefront(alpha3: "QAT", alpha2: "QA", name: "Qatar", currency: "QAR", locale: "ar_QA"),
        Storefront(alpha3: "ROU", alpha2: "RO", name: "Romania", currency: "RON", locale: "ro_RO"),
        Storefront(alpha3: "RUS", alpha2: "RU", name: "Russia", currency: "RUB", locale: "ru_RU"),
        Storefront(alpha3: "RWA", alpha2: "RW", name: "Rwanda", currency: "USD", locale: "en_RW"),
        Storefront(alpha3: "SAU", alpha2: "SA", name: "Saudi Arabia", currency: "SAR", locale: "ar_SA"),
        Storefront(alpha3: "SEN", alpha2: "SN", name: "Senegal", currency: "USD", locale: "fr_SN"),
        Storefront(alpha3: "SGP", alpha2: "SG", name: "Singapore", currency: "SGD", locale: "en_SG"),
        Storefront(alpha3: "SLB", alpha2: "SB", name: "Solomon Islands", currency: "USD", locale: "en_SB"),
        Storefront(alpha3: "SLE", alpha2: "SL", name: "Sierra Leone", currency: "USD", locale: "en_SL"),
        Storefront(alpha3: "SLV", alpha2: "SV", name: "El Salvador", currency: "USD", locale: "es_SV"),
        Storefront(alpha3: "SRB", alpha2: "RS", name: "Serbia", currency: "EUR", locale: "sr_Latn_RS"),
        Storefront(alpha3: "STP", alpha2: "ST", name: "São Tomé and Príncipe", currency: "USD", locale: "pt_ST"),
        Storefront(alpha3: "SUR", alpha2: "SR", name: "Suriname", currency: "USD", locale: "nl_SR"),
        Storefront(alpha3: "SVK", alpha2: "SK", name: "Slovakia", currency: "EUR", locale: "sk_SK"),
        Storefront(alpha3: "SVN", alpha2: "SI", name: "Slovenia", currency: "EUR", locale: "sl_SI"),
        Storefront(alpha3: "SWE", alpha2: "SE", name: "Sweden", currency: "SEK", locale: "sv_SE"),
        Storefront(alpha3: "SWZ", alpha2: "SZ", name: "Eswatini", currency: "USD", locale: "en_SZ"),
        Storefront(alpha3: "SYC", alpha2: "SC", name: "Seychelles", currency: "USD", locale: "en_SC"),
        Storefront(alpha3: "TCA", alpha2: "TC", name: "Turks and Caicos Islands", currency: "USD", locale: "en_TC"),
        Storefront(alpha3: "TCD", alpha2: "TD", name: "Chad", currency: "USD", locale: "fr_TD"),
        Storefront(alpha3: "THA", alpha2: "TH", name: "Thailand", currency: "THB", locale: "th_TH"),
        Storefront(alpha3: "TJK", alpha2: "TJ", name: "Tajikistan", currency: "USD", locale: "ru_TJ"),
        Storefront(alpha3: "TKM", alpha2: "TM", name: "Turkmenistan", currency: "USD", locale: "ru_TM"),
        Storefront(alpha3: "TON", alpha2: "TO", name: "Tonga", currency: "USD", locale: "en_TO"),
        Storefront(alpha3: "TTO", alpha2: "TT", name: "Trinidad and Tobago", currency: "USD", locale: "en_TT"),
        Storefront(alpha3: "TUN", alpha2: "TN", name: "Tunisia", currency: "USD", locale: "fr_TN"),
        Storefront(alpha3: "TUR", alpha2: "TR", name: "Türkiye", currency: "TRY", locale: "tr_TR"),
        Storefront(alpha3: "TWN", alpha2: "TW", name: "Taiwan", currency: "TWD", locale: "zh_Hant_TW"),
        Storefront(alpha3: "TZA", alpha2: "TZ", name: "Tanzania", currency: "TZS", locale: "en_TZ"),
        Storefront(alpha3: "UGA", alpha2: "UG", name: "Uganda", currency: "USD", locale: "en_UG"),
        Storefront(alpha3: "UKR", alpha2: "UA", name: "Ukraine", currency: "USD", locale: "uk_UA"),
        Storefront(alpha3: "URY", alpha2: "UY", name: "Uruguay", currency: "USD", locale: "es_UY"),
        Storefront(alpha3: "USA", alpha2: "US", name: "United States", currency: "USD", locale: "en_US"),
        Storefront(alpha3: "UZB", alpha2: "UZ", name: "Uzbekistan", currency: "USD", locale: "uz_UZ"),
        Storefront(alpha3: "VCT", alpha2: "VC", name: "Saint Vincent and the Grenadines", currency: "USD", locale: "en_VC"),
        Storefront(alpha3: "VEN", alpha2: "VE", name: "Venezuela", currency: "USD", locale: "es_VE"),
        Storefront(alpha3: "VGB", alpha2: "VG", name: "British Virgin Islands", currency: "USD", locale: "en_VG"),
        Storefront(alpha3: "VNM", alpha2: "VN", name: "Vietnam", currency: "VND", locale: "vi_VN"),
        Storefront(alpha3: "VUT", alpha2: "VU", name: "Vanuatu", currency: "USD", locale: "en_VU"),
        Storefront(alpha3: "XKS", alpha2: "XK", name: "Kosovo", currency: "EUR", locale: "sq_XK"),
        Storefront(alpha3: "YEM", alpha2: "YE", name: "Yemen", currency: "USD", locale: "ar_YE"),
        Storefront(alpha3: "ZAF", alpha2: "ZA", name: "South Africa", currency: "ZAR", locale: "en_ZA"),
        Storefront(alpha3: "ZMB", alpha2: "ZM", name: "Zambia", currency: "USD", locale: "en_ZM"),
        Storefront(alpha3: "ZWE", alpha2: "ZW", name: "Zimbabwe", currency: "USD", locale: "en_ZW"),
    ]

    private static let byCode: [String: Storefront] = {
        var map: [String: Storefront] = [:]
        for storefront in all {
            map[storefront.alpha3] = storefront
            map[storefront.alpha2] = storefront
        }
        return map
    }()

    /// A storefront by alpha-3 or alpha-2 code, any case.
    public static func find(_ code: String) throws(PriceError) -> Storefront {
        guard let storefront = byCode[code.uppercased()] else { throw .unknownStorefront(code) }
        return storefront
    }

    /// `USA,JPN,DEU` or `all`.
    public static func parseList(_ text: String) throws(PriceError) -> [Storefront] {
        if text.lowercased() == "all" { return all }
        var result: [Storefront] = []
        for code in text.split(separator: ",", omittingEmptySubsequences: false) {
            result.append(try find(code.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }
}
