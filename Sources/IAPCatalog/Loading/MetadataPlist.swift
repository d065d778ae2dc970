import Diagnostics
import Foundation
import PriceFormatting
import PropertyList
import Support

/// Our metadata plist format (documented in docs/metadata.md): a root `<dict>` with
/// `IAPCatalogMetadata` = 1, an optional `bundleID`, and `products`: a `<dict>` of product ID →
/// `kind`, `referenceName`, `price`, `currency`, `familyShareable`, `subscriptionGroup`,
/// `subscriptionPeriod`, `introductoryOffer`, `localizations`.
struct MetadataPlist {
    static let marker = "IAPCatalogMetadata"
    static let productKeys = ["kind", "referenceName", "price", "currency", "prices", "priceStartDate", "familyShareable", "subscriptionGroup",
                              "groupLevel", "subscriptionPeriod", "introductoryOffer", "promotionalOffers", "winBackOffers", "offerCodes", "localizations",
                              "reviewNote", "availability"]
    static let availabilityKeys = ["territories", "newTerritories"]
    /// App Store Connect's longest review note.
    static let maxReviewNote = 4000
    static let promotionalKeys = ["id", "referenceName", "paymentMode", "period", "periods", "price"]
    static let offerKeys = ["paymentMode", "period", "periods", "price"]
    static let winBackKeys = promotionalKeys + ["paidMonths", "lapsedMonths", "waitMonths", "startDate", "endDate", "priority"]
    static let offerCodeKeys = ["referenceName", "paymentMode", "period", "periods", "price", "eligibility", "stackable", "customCodes"]
    static let customCodeKeys = ["code", "numberOfCodes", "expirationDate"]
    /// The months a win-back offer's eligibility counts in (App Store Connect's integers).
    static let eligibilityMonths = 1...1200
    static let localizationKeys = ["displayName", "description"]

    let path: String

    static func isMetadata(_ root: PlistNode) -> Bool { root.value.dictionaryValue?.entry(marker) != nil }

    private func location(_ position: PlistPosition) -> SourceLocation {
        SourceLocation(path: path, line: Int(position.line), column: Int(position.column))
    }

    private func invalid(_ message: String, _ position: PlistPosition) -> Diagnostic {
        InvalidMetadataRule.description.finding(message, at: location(position))
    }

    func read(_ root: PlistNode) -> PlistReading {
        var reading = PlistReading(content: .metadata)
        guard let dict = root.value.dictionaryValue else { return reading }
        if let version = dict.entry(Self.marker), version.value.value.integerValue?.int64Value != 1 {
            reading.diagnostics.append(invalid("\(Self.marker) must be the integer 1 (the only format version)",
                                               version.value.position))
        }
        let topKeys = [Self.marker, "bundleID", "requiredLocales", "storefront", "locale", "products"]
        for entry in dict.entries where !topKeys.contains(entry.key) {
            reading.diagnostics.append(unknownKey(entry, expected: topKeys))
        }
        if let locales = dict.entry("requiredLocales") {
            if let items = locales.value.value.arrayValue, items.allSatisfy({ $0.value.stringValue != nil }) {
                reading.requiredLocales = items.compactMap(\.value.stringValue)
            } else {
                reading.diagnostics.append(invalid("requiredLocales must be an <array> of locale <string>s such as en-US",
                                                   locales.value.position))
            }
        }
        if let bundle = dict.entry("bundleID") {
            if let id = bundle.value.value.stringValue {
                reading.bundleID = Located(id, at: location(bundle.value.position))
            } else {
                reading.diagnostics.append(invalid("bundleID must be a <string>", bundle.value.position))
            }
        }
        // The storefront (and price locale) the single `price`s are for: what `iap convert` keeps
        // from a StoreKit configuration that is not the USA's, so converting back needs no --storefront.
        var storefront: Storefront?
        if let entry = dict.entry("storefront") {
            if let code = entry.value.value.stringValue, let found = try? Storefronts.find(code) {
                storefront = found
            } else {
                reading.diagnostics.append(invalid("storefront must be one of the App Store's storefront codes as a <string>, e.g. FRA",
                                                   entry.value.position))
            }
        }
        let priceLocale = dict.entry("locale")?.value.value.stringValue
        guard let productsEntry = dict.entry("products") else {
            reading.diagnostics.append(invalid("no 'products' key: add a <dict> of product ID → metadata", root.position))
            return reading
        }
        guard let products = productsEntry.value.value.dictionaryValue else {
            reading.diagnostics.append(invalid("'products' must be a <dict> of product ID → metadata <dict>",
                                               productsEntry.value.position))
            return reading
        }
        for entry in products.entries {
            guard let fields = entry.value.value.dictionaryValue else {
                reading.diagnostics.append(invalid("metadata for \(Quote.bounded(entry.key)) must be a <dict>", entry.value.position))
                continue
            }
            var occurrence = ProductOccurrence(id: entry.key, location: location(entry.keyPosition), role: .metadata)
            var metadata = readProduct(fields, occurrence: &occurrence, diagnostics: &reading.diagnostics)
            if let storefront, metadata.price?.value.currency == storefront.currency {
                metadata.price?.value.storefront = storefront.alpha3
                metadata.price?.value.locale = priceLocale ?? storefront.locale
            }
            occurrence.metadata = metadata
            reading.occurrences.append(occurrence)
        }
        return reading
    }

    private func readProduct(_ fields: PlistDictionary, occurrence: inout ProductOccurrence,
                             diagnostics: inout [Diagnostic]) -> ProductMetadata {
        var metadata = ProductMetadata()
        var amount: Located<Decimal>?
        var amountDecimals: Int?
        var currency: String?
        for entry in fields.entries {
            let node = entry.value
            let at = location(node.position)
            switch entry.key {
            case "kind":
                if let s = node.value.stringValue, let kind = ProductKind(spelling: s) {
                    metadata.kind = Located(kind, at: at)
                    occurrence.declaredKind = metadata.kind
                    occurrence.declaredBy = "kind = \(s)"
                } else {
                    diagnostics.append(invalid("kind must be one of consumable, non-consumable, auto-renewable, non-renewing (found \(node.value))", node.position))
                }
            case "referenceName":
                string(node, "referenceName", &diagnostics).map { metadata.referenceName = Located($0, at: at) }
            case "price":
                amount = price(node, "price", &diagnostics).map { Located($0, at: at) }
                amountDecimals = Self.writtenDecimals(node)
            case "currency":
                if let code = string(node, "currency", &diagnostics) {
                    if let valid = try? CurrencyCodes.validate(code), valid == code {
                        currency = code
                    } else {
                        diagnostics.append(invalid("currency must be an ISO 4217 code such as USD (found \(Quote.bounded(code)))", node.position))
                    }
                }
            case "prices":
                metadata.storefrontPrices = storefrontPrices(node, &diagnostics)
            case "priceStartDate":
                metadata.priceStartDate = day(node, "priceStartDate", &diagnostics).map { Located($0, at: at) }
            case "familyShareable":
                if let b = node.value.boolValue { metadata.familyShareable = b } else {
                    diagnostics.append(invalid("familyShareable must be <true/> or <false/>", node.position))
                }
            case "subscriptionGroup":
                string(node, "subscriptionGroup", &diagnostics).map { metadata.subscriptionGroup = Located($0, at: at) }
            case "groupLevel":
                if let level = node.value.integerValue?.int64Value, level >= 1, level <= 10_000 {
                    metadata.groupLevel = Located(Int(level), at: at)
                } else {
                    diagnostics.append(invalid("groupLevel must be an <integer> from 1 (the highest level of service in its group)", node.position))
                }
            case "subscriptionPeriod":
                if let text = string(node, "subscriptionPeriod", &diagnostics) {
                    metadata.subscriptionPeriod = period(text, node, "subscriptionPeriod", &diagnostics).map { Located($0, at: at) }
                }
            case "introductoryOffer":
                metadata.introductoryOffer = offer(node, &diagnostics)
            case "promotionalOffers":
                metadata.promotionalOffers = promotionalOffers(node, &diagnostics)
            case "winBackOffers":
                metadata.winBackOffers = winBackOffers(node, &diagnostics)
            case "offerCodes":
                metadata.offerCodes = offerCodes(node, &diagnostics)
            case "localizations":
                metadata.localizations = localizations(node, &diagnostics)
            case "reviewNote":
                if let note = string(node, "reviewNote", &diagnostics) {
                    if note.count > Self.maxReviewNote {
                        diagnostics.append(invalid("reviewNote is \(note.count) characters; App Store Connect takes at most \(Self.maxReviewNote)", node.position))
                    } else {
                        metadata.reviewNote = Located(note, at: at)
                    }
                }
            case "availability":
                metadata.availability = availability(node, &diagnostics).map { Located($0, at: at) }
            default:
                diagnostics.append(unknownKey(entry, expected: Self.productKeys))
            }
        }
        if let amount {
            metadata.price = Located(ProductPrice(amount: amount.value, currency: currency, writtenDecimals: amountDecimals), at: amount.location)
            if currency == nil {
                diagnostics.append(UnknownPriceCurrencyRule.description.finding(
                    "the price \(amount.value) of \(Quote.bounded(occurrence.id)) has no currency: it cannot be shown in any storefront",
                    at: amount.location, fix: SuggestedFix("add <key>currency</key> with its ISO 4217 code, e.g. USD")))
            }
        }
        return metadata
    }

    /// A period such as `P1M`, parsed once here; anything else is invalid metadata.
    private func period(_ text: String, _ node: PlistNode, _ name: String, _ diagnostics: inout [Diagnostic]) -> SubscriptionPeriod? {
        do {
            return try SubscriptionPeriod(iso8601: text)
        } catch {
            diagnostics.append(invalid("\(name) \(Quote.bounded(text)) is not a period such as P1W, P1M or P1Y", node.position))
            return nil
        }
    }

    private func offer(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> IntroductoryOffer? {
        guard let dict = node.value.dictionaryValue else {
            diagnostics.append(invalid("introductoryOffer must be a <dict> with paymentMode, period, periods, price", node.position))
            return nil
        }
        for entry in dict.entries where !Self.offerKeys.contains(entry.key) {
            diagnostics.append(unknownKey(entry, expected: Self.offerKeys))
        }
        guard let modeNode = dict["paymentMode"], let modeText = modeNode.value.stringValue,
              let mode = PaymentMode(spelling: modeText) else {
            diagnostics.append(invalid("introductoryOffer needs paymentMode: free-trial, pay-as-you-go or pay-up-front", node.position))
            return nil
        }
        guard let periodNode = dict["period"], let periodText = periodNode.value.stringValue else {
            diagnostics.append(invalid("introductoryOffer needs a period such as P1W", node.position))
            return nil
        }
        guard let period = period(periodText, periodNode, "introductoryOffer period", &diagnostics) else { return nil }
        let periods = offerPeriods(dict["periods"], &diagnostics)
        let amount = dict["price"].flatMap { price($0, "introductoryOffer price", &diagnostics) }
        return IntroductoryOffer(paymentMode: mode, period: period, numberOfPeriods: periods, price: amount,
                                 location: location(node.position))
    }

    /// An offer's `periods`: an `<integer>` from 1 to 1000; 1 when absent, and 1 with a finding
    /// when it is anything else (a negative or huge count would make no offer, and its length
    /// could pass what an integer holds).
    private func offerPeriods(_ node: PlistNode?, _ diagnostics: inout [Diagnostic]) -> Int {
        guard let node else { return 1 }
        if let value = node.value.integerValue?.int64Value, let count = Int(exactly: value), SubscriptionPeriod.offerPeriods.contains(count) {
            return count
        }
        diagnostics.append(invalid("periods must be an <integer> from \(SubscriptionPeriod.offerPeriods.lowerBound) to \(SubscriptionPeriod.offerPeriods.upperBound)", node.position))
        return 1
    }

    /// `promotionalOffers`: an `<array>` of dicts with `id`, `paymentMode`, `period` (required) and
    /// `referenceName`, `periods`, `price`.
    private func promotionalOffers(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> [PromotionalOffer] {
        guard let items = node.value.arrayValue else {
            diagnostics.append(invalid("promotionalOffers must be an <array> of offer dicts", node.position))
            return []
        }
        return items.compactMap { item in offerTerms(item, what: "promotional offer", keys: Self.promotionalKeys, &diagnostics) }
    }

    /// An offer's `id`, `paymentMode`, `period` (required), `referenceName`, `periods` and `price`,
    /// from the `<dict>` `item`; a key not in `keys` is an unknown key.
    private func offerTerms(_ item: PlistNode, what: String, keys: [String], identifiedBy idKey: String = "id",
                            _ diagnostics: inout [Diagnostic]) -> PromotionalOffer? {
        guard let dict = item.value.dictionaryValue else {
            diagnostics.append(invalid("a \(what) must be a <dict> with \(idKey), paymentMode and period", item.position))
            return nil
        }
        for entry in dict.entries where !keys.contains(entry.key) {
            diagnostics.append(unknownKey(entry, expected: keys))
        }
        guard let id = dict[idKey]?.value.stringValue, let modeText = dict["paymentMode"]?.value.stringValue,
              let mode = PaymentMode(spelling: modeText), let periodNode = dict["period"],
              let periodText = periodNode.value.stringValue else {
            diagnostics.append(invalid("a \(what) needs \(idKey), paymentMode (free-trial, pay-as-you-go, pay-up-front) and period",
                                       item.position))
            return nil
        }
        guard let period = period(periodText, periodNode, "\(what) period", &diagnostics) else { return nil }
        let periods = offerPeriods(dict["periods"], &diagnostics)
        return PromotionalOffer(id: id, referenceName: dict["referenceName"]?.value.stringValue, paymentMode: mode,
                                period: period, numberOfPeriods: periods,
                                price: dict["price"].flatMap { price($0, "\(what) price", &diagnostics) },
                                location: location(item.position))
    }

    /// `offerCodes`: an `<array>` of dicts with an offer's terms, known by `referenceName`, and
    /// `eligibility` (an `<array>` of new, existing, expired: required) and `stackable` (whether
    /// it may be redeemed with an introductory offer; false when left out).
    private func offerCodes(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> [OfferCode] {
        guard let items = node.value.arrayValue else {
            diagnostics.append(invalid("offerCodes must be an <array> of offer dicts", node.position))
            return []
        }
        return items.compactMap { item -> OfferCode? in
            guard let terms = offerTerms(item, what: "offer code", keys: Self.offerCodeKeys, identifiedBy: "referenceName", &diagnostics),
                  let dict = item.value.dictionaryValue else { return nil }
            let shape = "eligibility must be an <array> of new, existing or expired, at least one"
            guard let list = dict["eligibility"] else {
                diagnostics.append(invalid("the offer code \(Quote.bounded(terms.id)) needs eligibility: who may redeem it (new, existing, expired)", item.position))
                return nil
            }
            let words = list.value.arrayValue?.map { $0.value.stringValue.flatMap(OfferCode.Eligibility.init(rawValue:)) }
            guard let words, !words.isEmpty, words.allSatisfy({ $0 != nil }) else {
                diagnostics.append(invalid(shape, list.position))
                return nil
            }
            var stackable = false
            if let node = dict["stackable"] {
                if let value = node.value.boolValue { stackable = value } else { diagnostics.append(invalid("stackable must be <true/> or <false/>", node.position)) }
            }
            let custom = dict["customCodes"].map { customCodes($0, of: terms.id, &diagnostics) } ?? []
            return OfferCode(terms: terms, eligibility: words.compactMap { $0 }, stackable: stackable, customCodes: custom)
        }
    }

    /// An offer code's `customCodes`: an `<array>` of dicts of `code` (letters and digits, at most
    /// 64), `numberOfCodes` (the redemptions it allows) and, optionally, `expirationDate` (a day).
    /// A code twice (in any case) is said once and kept once.
    private func customCodes(_ node: PlistNode, of campaign: String, _ diagnostics: inout [Diagnostic]) -> [CustomCode] {
        guard let items = node.value.arrayValue else {
            diagnostics.append(invalid("customCodes must be an <array> of dicts of code, numberOfCodes and expirationDate", node.position))
            return []
        }
        var seen: Set<String> = []
        return items.compactMap { item -> CustomCode? in
            guard let dict = item.value.dictionaryValue else {
                diagnostics.append(invalid("a custom code of \(Quote.bounded(campaign)) must be a <dict> of code, numberOfCodes and expirationDate", item.position))
                return nil
            }
            for entry in dict.entries where !Self.customCodeKeys.contains(entry.key) {
                diagnostics.append(unknownKey(entry, expected: Self.customCodeKeys))
            }
            guard let codeNode = dict["code"], let code = codeNode.value.stringValue else {
                diagnostics.append(invalid("a custom code of \(Quote.bounded(campaign)) needs its code: a <string> of letters and digits", item.position))
                return nil
            }
            if let why = CustomCodeText.problem(code) {
                diagnostics.append(invalid("the custom code \(Quote.bounded(code)) \(why): App Store Connect's custom codes are alphanumeric", codeNode.position))
                return nil
            }
            guard let countNode = dict["numberOfCodes"], let value = countNode.value.integerValue?.int64Value, let count = Int(exactly: value),
                  CustomCodeText.redemptions.contains(count) else {
                diagnostics.append(invalid("the custom code \(Quote.bounded(code)) needs numberOfCodes: an <integer> of redemptions from 1 to 1000000",
                                           dict["numberOfCodes"]?.position ?? item.position))
                return nil
            }
            var expiration: String?
            if let node = dict["expirationDate"] {
                guard let day = day(node, "expirationDate", &diagnostics) else { return nil }
                expiration = day
            }
            guard seen.insert(code.uppercased()).inserted else {
                diagnostics.append(invalid("the custom code \(Quote.bounded(code)) is given twice: App Store Connect takes each code once", codeNode.position))
                return nil
            }
            return CustomCode(code: code, numberOfCodes: count, expirationDate: expiration, location: location(codeNode.position))
        }
    }

    /// `winBackOffers`: an `<array>` of dicts with an offer's terms (as a promotional offer's) and
    /// its eligibility: `paidMonths`, `lapsedMonths` (`<dict>` of `min` and `max`) and `startDate`
    /// (required), `waitMonths`, `endDate` and `priority` (`high` or `normal`, the default).
    private func winBackOffers(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> [WinBackOffer] {
        guard let items = node.value.arrayValue else {
            diagnostics.append(invalid("winBackOffers must be an <array> of offer dicts", node.position))
            return []
        }
        return items.compactMap { item -> WinBackOffer? in
            guard let terms = offerTerms(item, what: "win-back offer", keys: Self.winBackKeys, &diagnostics),
                  let dict = item.value.dictionaryValue else { return nil }
            func months(_ key: String, in fields: PlistDictionary = dict) -> Int? {
                guard let node = fields[key] else { return nil }
                if let value = node.value.integerValue?.int64Value, let count = Int(exactly: value), Self.eligibilityMonths.contains(count) { return count }
                diagnostics.append(invalid("\(key) must be an <integer> of months from \(Self.eligibilityMonths.lowerBound) to \(Self.eligibilityMonths.upperBound)",
                                           node.position))
                return nil
            }
            let paid = months("paidMonths")
            var lapsed: ClosedRange<Int>?
            if let node = dict["lapsedMonths"] {
                // A bad min or max is said by itself; a missing one, or min above max, here.
                let range = node.value.dictionaryValue
                let (low, high) = (range.flatMap { months("min", in: $0) }, range.flatMap { months("max", in: $0) })
                if let low, let high, low <= high {
                    lapsed = low...high
                } else if range == nil || range?["min"] == nil || range?["max"] == nil || (low != nil && high != nil) {
                    diagnostics.append(invalid("lapsedMonths must be a <dict> of min and max, each an <integer> of months, min not above max", node.position))
                }
            }
            let start = dict["startDate"].flatMap { day($0, "startDate", &diagnostics) }
            let end = dict["endDate"].flatMap { day($0, "endDate", &diagnostics) }
            var high = false
            if let node = dict["priority"] {
                switch node.value.stringValue {
                case "high": high = true
                case "normal": break
                default: diagnostics.append(invalid("priority must be <string>high</string> or <string>normal</string>", node.position))
                }
            }
            guard let paid, let lapsed, let start else {
                let missing = [dict["paidMonths"] == nil ? "paidMonths" : nil, dict["lapsedMonths"] == nil ? "lapsedMonths" : nil,
                               dict["startDate"] == nil ? "startDate" : nil].compactMap { $0 }
                if !missing.isEmpty {
                    diagnostics.append(invalid("the win-back offer \(Quote.bounded(terms.id)) needs \(missing.joined(separator: ", ")): "
                                               + "who is eligible, and from when", item.position))
                }
                return nil
            }
            if let end, end <= start {
                diagnostics.append(invalid("the win-back offer \(Quote.bounded(terms.id)) ends on \(end), not after it starts on \(start)", item.position))
                return nil
            }
            return WinBackOffer(terms: terms, paidMonths: paid, lapsedMonths: lapsed, waitMonths: months("waitMonths"), startDate: start,
                                endDate: end, highPriority: high)
        }
    }

    /// `prices`: storefront code (alpha-3 or alpha-2) → amount, in that storefront's currency.
    private func storefrontPrices(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> [Located<ProductPrice>] {
        guard let dict = node.value.dictionaryValue else {
            diagnostics.append(invalid("prices must be a <dict> of storefront code → amount, e.g. <key>JPN</key><integer>160</integer>", node.position))
            return []
        }
        var result: [Located<ProductPrice>] = []
        for entry in dict.entries {
            guard let storefront = try? Storefronts.find(entry.key) else {
                diagnostics.append(invalid("prices: \(Quote.bounded(entry.key)) is not one of the App Store's 175 storefronts (iap storefronts lists them)",
                                           entry.keyPosition))
                continue
            }
            guard let amount = price(entry.value, "prices.\(entry.key)", &diagnostics) else { continue }
            result.append(Located(ProductPrice(amount: amount, currency: storefront.currency, locale: storefront.locale,
                                               storefront: storefront.alpha3), at: location(entry.keyPosition)))
        }
        return result
    }

    /// `availability`: `territories` (an array of storefront codes, or the string `all`) and
    /// `newTerritories` (a boolean, false when left out).
    private func availability(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> DeclaredAvailability? {
        let shape = "availability must be a <dict> with territories (an <array> of storefront codes such as USA, or <string>all</string>) and newTerritories (<true/> or <false/>)"
        guard let dict = node.value.dictionaryValue else {
            diagnostics.append(invalid(shape, node.position))
            return nil
        }
        for field in dict.entries where !Self.availabilityKeys.contains(field.key) {
            diagnostics.append(unknownKey(field, expected: Self.availabilityKeys))
        }
        var newTerritories = false
        if let entry = dict.entry("newTerritories") {
            guard let value = entry.value.value.boolValue else {
                diagnostics.append(invalid("availability.newTerritories must be <true/> or <false/>", entry.value.position))
                return nil
            }
            newTerritories = value
        }
        guard let territories = dict.entry("territories") else {
            diagnostics.append(invalid("availability has no territories: " + shape, node.position))
            return nil
        }
        if territories.value.value.stringValue == "all" {
            return DeclaredAvailability(territories: [], all: true, newTerritories: newTerritories)
        }
        guard let items = territories.value.value.arrayValue else {
            diagnostics.append(invalid(shape, territories.value.position))
            return nil
        }
        var codes: [String] = []
        var seen: Set<String> = []
        for item in items {
            guard let text = item.value.stringValue, let storefront = try? Storefronts.find(text) else {
                diagnostics.append(invalid("availability.territories: \(Quote.bounded(item.value.stringValue ?? "<\(item.value.typeName)>")) is not one of the App Store's 175 storefronts (iap storefronts lists them)",
                                           item.position))
                return nil
            }
            guard seen.insert(storefront.alpha3).inserted else {
                diagnostics.append(invalid("availability.territories names \(storefront.alpha3) twice", item.position))
                return nil
            }
            codes.append(storefront.alpha3)
        }
        return DeclaredAvailability(territories: codes.sorted(), newTerritories: newTerritories)
    }

    private func localizations(_ node: PlistNode, _ diagnostics: inout [Diagnostic]) -> [Localization] {
        guard let dict = node.value.dictionaryValue else {
            diagnostics.append(invalid("localizations must be a <dict> of locale → {displayName, description}", node.position))
            return []
        }
        var result: [Localization] = []
        for entry in dict.entries {
            guard let fields = entry.value.value.dictionaryValue else {
                diagnostics.append(invalid("localization \(Quote.bounded(entry.key)) must be a <dict> with displayName and description",
                                           entry.value.position))
                continue
            }
            for field in fields.entries where !Self.localizationKeys.contains(field.key) {
                diagnostics.append(unknownKey(field, expected: Self.localizationKeys))
            }
            result.append(Localization(locale: entry.key,
                                       displayName: fields["displayName"].flatMap { string($0, "displayName", &diagnostics) },
                                       description: fields["description"].flatMap { string($0, "description", &diagnostics) },
                                       location: location(entry.keyPosition)))
        }
        return result
    }

    /// A day as `<string>2027-01-15</string>` or a `<date>` (its day in UTC), checked against the
    /// calendar (no 2027-02-30).
    private func day(_ node: PlistNode, _ name: String, _ diagnostics: inout [Diagnostic]) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        switch node.value {
        case .date(let date):
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            if let year = c.year, (1...9999).contains(year), let month = c.month, let dayOfMonth = c.day {
                return String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
            }
        case .string(let text):
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            if text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
               let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]), year >= 1,
               text.utf8.allSatisfy({ $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) }),
               let date = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth)),
               calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: dayOfMonth) {
                return text
            }
        default:
            break
        }
        diagnostics.append(invalid("\(name) must be a day as <string>YYYY-MM-DD</string>, e.g. 2027-01-15 (found \(node.value.stringValue.map { Quote.bounded($0) } ?? "<\(node.value.typeName)>"))",
                                   node.position))
        return nil
    }

    private func string(_ node: PlistNode, _ name: String, _ diagnostics: inout [Diagnostic]) -> String? {
        if let s = node.value.stringValue { return s }
        diagnostics.append(invalid("\(name) must be a <string> (found <\(node.value.typeName)>)", node.position))
        return nil
    }

    /// Prices as `<string>0.99</string>`, `<real>0.99</real>` (its text, not its Double) or `<integer>`.
    private func price(_ node: PlistNode, _ name: String, _ diagnostics: inout [Diagnostic]) -> Decimal? {
        let text: String
        switch node.value {
        case .string(let s): text = s
        case .real(let r): text = r.text
        case .integer(let i): text = i.description
        default:
            diagnostics.append(invalid("\(name) must be a decimal amount such as <string>0.99</string>", node.position))
            return nil
        }
        guard let value = AmountText.parse(text), value >= 0 else {
            diagnostics.append(invalid("\(name) \(Quote.bounded(text)) is not an amount: write digits with a '.' for decimals, e.g. 0.99",
                                       node.position))
            return nil
        }
        return value
    }

    /// The decimals a price is written with (`<string>3.00</string>` → 2).
    static func writtenDecimals(_ node: PlistNode) -> Int? {
        let text: String
        switch node.value {
        case .string(let s): text = s
        case .real(let r): text = r.text
        default: return nil
        }
        return AmountText.writtenDecimals(text)
    }

    private func unknownKey(_ entry: PlistDictionary.Entry, expected: [String]) -> Diagnostic {
        let guess = expected.min { EditDistance.between($0.lowercased(), entry.key.lowercased()) < EditDistance.between($1.lowercased(), entry.key.lowercased()) }
        var message = "unknown key \(Quote.bounded(entry.key))"
        var fix: SuggestedFix?
        if let guess, EditDistance.between(guess.lowercased(), entry.key.lowercased()) <= 3 {
            message += " (did you mean \(Quote.bounded(guess))?)"
            // An exact edit of the name in `<key>name</key>` in an XML file (a binary
            // plist's positions are byte offsets on line 1; a key with entities is written otherwise).
            let plain = !entry.key.contains(where: { "&<>]\n\r".contains($0) })
            fix = plain && entry.keyPosition.line > 1
                ? SuggestedFix("rename the key to \(Quote.bounded(guess))", replacement: guess, replacing: entry.key, at: Int(entry.keyPosition.column) + 5)
                : SuggestedFix("rename the key to \(Quote.bounded(guess))")
        } else {
            message += "; expected one of " + expected.joined(separator: ", ")
        }
        return UnknownMetadataKeyRule.description.finding(message, at: location(entry.keyPosition), fix: fix)
    }
}

/// Levenshtein distance for short strings (keys, IDs in messages).
/// Levenshtein distance for short strings (keys, IDs in messages).
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
