import Diagnostics
import Foundation
import PriceFormatting
import Support

/// The parts of an Xcode StoreKit configuration file (`.storekit`, JSON, format versions 1.0–4.0)
/// that describe products. Unknown keys are ignored, so newer Xcode versions still load.
struct StoreKitConfiguration: Decodable {
    struct Version: Decodable {
        var major: Int
        var minor: Int
    }

    struct LocalizationEntry: Decodable {
        var locale: String
        var displayName: String?
        var description: String?
    }

    struct Offer: Decodable {
        var displayPrice: String?
        var numberOfPeriods: Int?
        var paymentMode: String
        var subscriptionPeriod: String
    }

    struct AdHocOffer: Decodable {
        var offerID: String?
        var referenceName: String?
        var displayPrice: String?
        var numberOfPeriods: Int?
        var paymentMode: String
        var subscriptionPeriod: String
    }

    /// An offer code: every field optional, so that an entry Xcode did not write is a finding,
    /// not a file that cannot be read.
    struct CodeOffer: Decodable {
        var referenceName: String?
        var displayPrice: String?
        var numberOfPeriods: Int?
        var paymentMode: String?
        var subscriptionPeriod: String?
        var eligibility: [String]?
        var isStackable: Bool?
    }

    struct ProductEntry: Decodable {
        var productID: String
        /// App Store Connect's Apple ID of the product in a synced file; Xcode's own 8-hex-digit
        /// ID (or anything hand-written) in a local one.
        var internalID: LenientText?
        var referenceName: String?
        var type: String?
        var displayPrice: String?
        var familyShareable: Bool?
        var localizations: [LocalizationEntry]?
        // Subscriptions only.
        var recurringSubscriptionPeriod: String?
        var introductoryOffer: Offer?
        var adHocOffers: [AdHocOffer]?
        var codeOffers: [CodeOffer]?
        var groupNumber: Int?
    }

    struct Group: Decodable {
        var id: String?
        var name: String
        var subscriptions: [ProductEntry]
    }

    struct Settings: Decodable {
        var _storefront: String?
        var _locale: String?
        /// Written by Xcode's sync with App Store Connect: the app's Apple ID and the team's ID.
        /// Hand-made files copy them with `"0"`, `""`, the bundle ID or `YOUR_TEAM_ID`.
        var _applicationInternalID: AppID?
        var _developerTeamID: LenientText?
    }

    /// An App Store Connect app's Apple ID: digits, not all zeros, written as a string (or, by
    /// hand, a number); nil for any other value (`"0"`, `""`, `"APP_ID"`).
    struct AppID: Decodable {
        var value: String?
        init(from decoder: any Decoder) throws {
            let text = try LenientText(from: decoder).value
            guard let text, AppleID.isAppleID(text) else { return }
            value = text
        }
    }

    /// A string, or a number written by hand, as text; nil for any other value.
    struct LenientText: Decodable {
        var value: String?
        init(from decoder: any Decoder) throws {
            let container = try? decoder.singleValueContainer()
            value = (try? container?.decode(String.self)) ?? (try? container?.decode(Int64.self)).map { String($0) }
        }
    }

    /// Whether Xcode synced this file from App Store Connect, rather than someone copying the
    /// keys of a synced one: the app's Apple ID, a team ID of Apple's shape (ten capital letters
    /// and digits, not all one character), and an Apple ID as every product's internal ID
    /// (Xcode writes its own eight hex digits in a local file; hand-made files hold UUIDs or
    /// words). Of the sync time nothing is asked: Xcode leaves it out of some synced files.
    var synced: Bool {
        guard settings?._applicationInternalID?.value != nil, let team = settings?._developerTeamID?.value,
              team.utf8.count == 10, team.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }),
              Set(team.utf8).count > 1 else { return false }
        let entries = (products ?? []) + (nonRenewingSubscriptions ?? []) + (subscriptionGroups ?? []).flatMap(\.subscriptions)
        return entries.allSatisfy { entry in entry.internalID?.value.map(AppleID.isAppleID) ?? true }
    }

    struct KeyPair: Decodable {
        var id: String?
        var privateKey: String?
    }

    var version: Version?
    var products: [ProductEntry]?
    var nonRenewingSubscriptions: [ProductEntry]?
    var subscriptionGroups: [Group]?
    var settings: Settings?
    var subscriptionOffersKeyPair: KeyPair?
}

/// Reads a `.storekit` file into occurrences with metadata, positioned at each `"productID"` line.
struct StoreKitReader {
    let path: String

    /// The largest `.storekit` file read, as for property lists: Xcode's are a few kilobytes, and
    /// a million products in one would be about 500 MB.
    static let maxBytes = 1 << 30

    func read(_ data: Data) -> PlistReading {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return failure("empty StoreKit configuration file: Xcode writes JSON with products and subscriptionGroups; recreate it with File ▸ New ▸ File ▸ StoreKit Configuration File",
                           line: 1)
        }
        // Checked first: JSONDecoder gives no position, and lets repeated keys pass silently.
        if let syntax = JSONSyntax.firstError(in: [UInt8](data)) {
            return failure("not valid JSON, so not a StoreKit configuration file: \(syntax.message)", line: syntax.line,
                           column: syntax.column)
        }
        let configuration: StoreKitConfiguration
        do {
            configuration = try JSONDecoder().decode(StoreKitConfiguration.self, from: data)
        } catch let error as DecodingError {
            return failure(describe(error, data: data))
        } catch {
            return failure("not a StoreKit configuration file: \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines = ProductIDLines(text: text)
        let version = configuration.version.map { "\($0.major).\($0.minor)" } ?? "?"
        var reading = PlistReading(content: .storeKit(version: version, storefront: configuration.settings?._storefront,
                                                      locale: configuration.settings?._locale))
        reading.synced = configuration.synced
        reading.appStoreConnectApp = configuration.settings?._applicationInternalID?.value
        // Prices are in the storefront's currency, shown in the file's _locale (or the storefront's).
        // A file that names no storefront is tested in StoreKit Testing's default, the United
        // States (SKTestSession.storefront: "The default value is USA"); Xcode writes
        // settings._storefront only once someone picks another.
        let storefront = try? Storefronts.find(configuration.settings?._storefront ?? Self.defaultStorefront)
        let pricing = Pricing(currency: storefront?.currency, locale: configuration.settings?._locale ?? storefront?.locale,
                              storefront: storefront?.alpha3)
        for entry in configuration.products ?? [] {
            reading.occurrences.append(occurrence(entry, group: nil, pricing: pricing, lines: &lines, diagnostics: &reading.diagnostics))
        }
        for entry in configuration.nonRenewingSubscriptions ?? [] {
            reading.occurrences.append(occurrence(entry, group: nil, pricing: pricing, lines: &lines, diagnostics: &reading.diagnostics))
        }
        for group in configuration.subscriptionGroups ?? [] {
            let groupLocation = SourceLocation(path: path, line: lines.line(ofKey: "name", value: group.name), column: 0)
            for entry in group.subscriptions {
                reading.occurrences.append(occurrence(entry, group: Located(group.name, at: groupLocation), pricing: pricing,
                                                      lines: &lines, diagnostics: &reading.diagnostics))
            }
        }
        // Products in the order the file lists them, whichever section holds them (Xcode writes
        // nonRenewingSubscriptions, products and subscriptionGroups in that order).
        reading.occurrences = reading.occurrences.enumerated()
            .sorted { ($0.element.location.line, $0.offset) < ($1.element.location.line, $1.offset) }.map(\.element)
        // Once per file: the prices have no currency because the file names a storefront we do not know.
        if pricing.currency == nil, let first = reading.occurrences.first(where: { $0.metadata?.price != nil })?.metadata?.price {
            let count = reading.occurrences.filter { $0.metadata?.price != nil }.count
            let why = "its storefront \(Quote.bounded(configuration.settings?._storefront ?? "")) is not one of the App Store's 175"
            reading.diagnostics.append(UnknownPriceCurrencyRule.description.finding(
                "the \(count == 1 ? "price" : "\(count) prices") of this StoreKit configuration \(count == 1 ? "has" : "have") no currency: \(why)",
                at: first.location, fix: SuggestedFix("choose the storefront in Xcode's StoreKit configuration editor (Editor > Default Storefront)")))
        }
        if let pair = configuration.subscriptionOffersKeyPair, let key = pair.privateKey, !key.isEmpty {
            let location = SourceLocation(path: path, line: lines.line(ofKey: "privateKey", value: nil), column: 0)
            if let id = pair.id, Self.isXcodeGeneratedKeyID(id) {
                reading.diagnostics.append(LocalOfferKeyRule.description.finding("subscriptionOffersKeyPair holds the key Xcode generated (key ID \(id)) to sign promotional offers in local StoreKit testing; it signs nothing on the App Store", at: location))
            } else {
                reading.diagnostics.append(SecretScanner.privateKey(at: location, key: "subscriptionOffersKeyPair.privateKey"))
            }
        }
        return reading
    }

    /// Xcode names the offer-signing key it generates with 8 hexadecimal digits; App Store Connect
    /// key IDs are 10 characters, letters and digits.
    static func isXcodeGeneratedKeyID(_ id: String) -> Bool {
        id.utf8.count == 8 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The currency and display locale of a file's prices.
    /// The storefront StoreKit Testing uses when a configuration names none.
    static let defaultStorefront = "USA"

    struct Pricing {
        var currency: String?
        var locale: String?
        var storefront: String?
    }

    private func occurrence(_ entry: StoreKitConfiguration.ProductEntry, group: Located<String>?, pricing: Pricing,
                            lines: inout ProductIDLines, diagnostics: inout [Diagnostic]) -> ProductOccurrence {
        let (line, column) = lines.next(productID: entry.productID)
        let at = SourceLocation(path: path, line: line, column: column)
        var metadata = ProductMetadata()
        var occurrence = ProductOccurrence(id: entry.productID, location: at, role: .storeKit)
        if let type = entry.type {
            if let kind = ProductKind(spelling: type) {
                metadata.kind = Located(kind, at: at)
                occurrence.declaredKind = metadata.kind
                occurrence.declaredBy = "type \(type)"
            } else {
                diagnostics.append(InvalidMetadataRule.description.finding("unknown StoreKit product type \(Quote.bounded(type)) for \(Quote.bounded(entry.productID))", at: at))
            }
        }
        if let name = entry.referenceName { metadata.referenceName = Located(name, at: at) }
        if let price = entry.displayPrice {
            if let amount = AmountText.parse(price) {
                metadata.price = Located(ProductPrice(amount: amount, currency: pricing.currency, locale: pricing.locale, storefront: pricing.storefront,
                                                      writtenDecimals: AmountText.writtenDecimals(price)), at: at)
            } else {
                diagnostics.append(InvalidMetadataRule.description.finding("displayPrice \(Quote.bounded(price)) of \(Quote.bounded(entry.productID)) is not an amount", at: at))
            }
        }
        metadata.familyShareable = entry.familyShareable
        metadata.localizations = (entry.localizations ?? []).map {
            Localization(locale: $0.locale, displayName: $0.displayName, description: $0.description, location: at)
        }
        metadata.subscriptionGroup = group
        if group != nil, let level = entry.groupNumber { metadata.groupLevel = Located(level, at: at) }
        if let text = entry.recurringSubscriptionPeriod {
            metadata.subscriptionPeriod = period(text, of: entry.productID, at: at, &diagnostics).map { Located($0, at: at) }
        }
        if let offer = entry.introductoryOffer {
            if let mode = PaymentMode(spelling: offer.paymentMode),
               let period = period(offer.subscriptionPeriod, of: entry.productID, at: at, &diagnostics) {
                metadata.introductoryOffer = IntroductoryOffer(
                    paymentMode: mode, period: period, numberOfPeriods: periods(offer.numberOfPeriods, of: entry.productID, at: at, &diagnostics),
                    price: offer.displayPrice.flatMap(AmountText.parse), location: at)
            } else if PaymentMode(spelling: offer.paymentMode) == nil {
                diagnostics.append(InvalidMetadataRule.description.finding("unknown introductory offer paymentMode \(Quote.bounded(offer.paymentMode))", at: at))
            }
        }
        for offer in entry.adHocOffers ?? [] {
            guard let mode = PaymentMode(spelling: offer.paymentMode) else {
                diagnostics.append(InvalidMetadataRule.description.finding("unknown promotional offer paymentMode \(Quote.bounded(offer.paymentMode))", at: at))
                continue
            }
            guard let period = period(offer.subscriptionPeriod, of: entry.productID, at: at, &diagnostics) else { continue }
            metadata.promotionalOffers.append(PromotionalOffer(
                id: offer.offerID ?? "", referenceName: offer.referenceName, paymentMode: mode, period: period,
                numberOfPeriods: periods(offer.numberOfPeriods, of: entry.productID, at: at, &diagnostics),
                price: offer.displayPrice.flatMap(AmountText.parse), location: at))
        }
        for offer in entry.codeOffers ?? [] {
            guard let name = offer.referenceName, let modeText = offer.paymentMode, let mode = PaymentMode(spelling: modeText),
                  let periodText = offer.subscriptionPeriod else {
                diagnostics.append(InvalidMetadataRule.description.finding(
                    "an offer code of \(Quote.bounded(entry.productID)) lacks its referenceName, paymentMode or subscriptionPeriod (or has a paymentMode Xcode does not write): it is left out",
                    at: at))
                continue
            }
            guard let period = period(periodText, of: entry.productID, at: at, &diagnostics) else { continue }
            let eligibility = (offer.eligibility ?? []).compactMap(OfferCode.Eligibility.init(rawValue:))
            if eligibility.count != (offer.eligibility ?? []).count || eligibility.isEmpty {
                diagnostics.append(InvalidMetadataRule.description.finding(
                    "the offer code \(Quote.bounded(name)) of \(Quote.bounded(entry.productID)) has eligibility \((offer.eligibility ?? []).map { Quote.bounded($0) }.joined(separator: ", ")): "
                        + "it takes new, existing and expired, at least one; it is left out", at: at))
                continue
            }
            metadata.offerCodes.append(OfferCode(
                terms: PromotionalOffer(id: name, referenceName: name, paymentMode: mode, period: period,
                                        numberOfPeriods: periods(offer.numberOfPeriods, of: entry.productID, at: at, &diagnostics),
                                        price: offer.displayPrice.flatMap(AmountText.parse), location: at),
                eligibility: eligibility, stackable: offer.isStackable ?? false))
        }
        occurrence.metadata = metadata
        return occurrence
    }

    /// A period such as `P1M`, parsed once here; anything else is invalid metadata.
    private func period(_ text: String, of id: String, at location: SourceLocation, _ diagnostics: inout [Diagnostic]) -> SubscriptionPeriod? {
        do {
            return try SubscriptionPeriod(iso8601: text)
        } catch {
            diagnostics.append(InvalidMetadataRule.description.finding("subscription period \(Quote.bounded(text)) of \(Quote.bounded(id)) is not a period such as P1W, P1M or P1Y", at: location))
            return nil
        }
    }

    /// An offer's `numberOfPeriods`: 1 to 1000; 1 when absent, and 1 with a finding otherwise.
    private func periods(_ count: Int?, of id: String, at location: SourceLocation, _ diagnostics: inout [Diagnostic]) -> Int {
        guard let count else { return 1 }
        guard SubscriptionPeriod.offerPeriods.contains(count) else {
            diagnostics.append(InvalidMetadataRule.description.finding(
                "numberOfPeriods \(count) of \(Quote.bounded(id)) is not from \(SubscriptionPeriod.offerPeriods.lowerBound) to \(SubscriptionPeriod.offerPeriods.upperBound); read as 1",
                at: location))
            return 1
        }
        return count
    }

    private func failure(_ message: String, line: Int = 0, column: Int = 0) -> PlistReading {
        PlistReading(content: .unreadable(message), diagnostics: [
            MalformedCatalogRule.description.finding(message, at: SourceLocation(path: path, line: line, column: column)),
        ])
    }

    private func describe(_ error: DecodingError, data: Data) -> String {
        func pathText(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String ?? context.debugDescription
            return "not valid JSON, so not a StoreKit configuration file: \(detail)"
        case .keyNotFound(let key, let context):
            return "StoreKit configuration is missing '\(key.stringValue)' at \(pathText(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "StoreKit configuration has an unexpected value at \(pathText(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a StoreKit configuration file"
        }
    }
}

/// Lines of `"productID" : "…"` in a `.storekit` file, handed out in order per ID, so that each
/// product decoded by `JSONDecoder` (which keeps no positions) points at its own line; and the
/// lines of a few other keys, to point at a group's `"name"` or the offer key. Built in one pass
/// over the bytes: asking for a line never reads the file again (2,000 groups used to read it
/// 2,000 times).
struct ProductIDLines {
    private var positions: [String: [(Int, Int)]] = [:]
    private var used: [String: Int] = [:]
    /// The keys `line(ofKey:value:)` answers for.
    static let indexedKeys = ["name", "privateKey"]
    /// Per indexed key: the first line holding `"key"`; and per text found between two quotes on
    /// such a line, the first line holding both.
    private var firstKeyLine: [String: Int] = [:]
    private var keyValueLines: [String: [String: Int]] = [:]

    init(text: String) {
        let bytes = Array(text.utf8)
        let productID = Array("\"productID\"".utf8)
        let keys = Self.indexedKeys.map { (name: $0, quoted: Array("\"\($0)\"".utf8)) }
        var start = 0
        var number = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            number += 1
            let line = bytes[start..<end]
            if line.contains(0x22) {
                if let at = Self.find(productID, in: line) {
                    let rest = line[(at + productID.count)...]
                    if let open = rest.firstIndex(of: 0x22), let close = rest[(open + 1)...].firstIndex(of: 0x22) {
                        let id = String(decoding: rest[(open + 1)..<close], as: UTF8.self)
                        // Columns count characters, as the text shows them.
                        let column = String(decoding: line[..<at], as: UTF8.self).count + 1
                        positions[id, default: []].append((number, column))
                    }
                }
                for key in keys where Self.find(key.quoted, in: line) != nil {
                    if firstKeyLine[key.name] == nil { firstKeyLine[key.name] = number }
                    // Every text between two quotes: what `"value"` on this line can be. Changed in
                    // place: a copy of the table per line made 20,000 groups quadratic again.
                    let segments = line.split(separator: 0x22, omittingEmptySubsequences: false)
                    for segment in segments.dropFirst().dropLast() {
                        let value = String(decoding: segment, as: UTF8.self)
                        if keyValueLines[key.name, default: [:]][value] == nil { keyValueLines[key.name, default: [:]][value] = number }
                    }
                }
            }
            start = end + 1
        }
    }

    /// Where `pattern` first starts in `line`.
    private static func find(_ pattern: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        guard let first = pattern.first, line.count >= pattern.count else { return nil }
        var i = line.startIndex
        while let hit = line[i...].firstIndex(of: first) {
            guard hit + pattern.count <= line.endIndex else { return nil }
            if line[hit..<(hit + pattern.count)].elementsEqual(pattern) { return hit }
            i = hit + 1
        }
        return nil
    }

    mutating func next(productID: String) -> (Int, Int) {
        guard let list = positions[productID], !list.isEmpty else { return (0, 0) }
        let n = used[productID, default: 0]
        used[productID] = n + 1
        return list[min(n, list.count - 1)]
    }

    /// The first line with `"key"` (and `"value"`, when given); 0 when none has. `key` is one of
    /// `indexedKeys`.
    func line(ofKey key: String, value: String?) -> Int {
        guard let value else { return firstKeyLine[key] ?? 0 }
        return keyValueLines[key]?[value] ?? 0
    }
}

/// App Store Connect's Apple IDs: decimal digits, not all zeros, at most 20.
enum AppleID {
    static func isAppleID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text.utf8.contains { $0 != 0x30 }
    }
}
