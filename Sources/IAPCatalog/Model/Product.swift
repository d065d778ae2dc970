import Diagnostics
import Foundation
import PriceFormatting

/// A declared price: an amount and, when the source says or implies it, its currency (a metadata
/// plist's `currency`, a `.storekit` file's storefront) and the locale its storefront shows prices in.
public struct ProductPrice: Sendable, Hashable, CustomStringConvertible {
    public var amount: Decimal
    /// ISO 4217; nil when the source does not say (the loader reports it: unknown-price-currency).
    public var currency: String?
    /// The locale the source's storefront formats prices in (a `.storekit` file's `_locale`, or
    /// its storefront's), when known.
    public var locale: String?
    /// The storefront (alpha-3 code) the price is for: a `.storekit` file's, or the key of a
    /// metadata plist's `prices` entry; nil for a metadata plist's single `price`.
    public var storefront: String?

    /// How many decimals the source wrote (`3.00` → 2), so the amount is shown as written:
    /// `Decimal` keeps the value, not the trailing zeros.
    public var writtenDecimals: Int?

    public init(amount: Decimal, currency: String?, locale: String? = nil, storefront: String? = nil, writtenDecimals: Int? = nil) {
        self.amount = amount
        self.currency = currency
        self.locale = locale
        self.storefront = storefront
        self.writtenDecimals = writtenDecimals
    }

    /// The amount as the source wrote it: `3.00` stays `3.00`.
    public var amountText: String {
        var text = "\(amount)"
        guard let written = writtenDecimals, written > 0, written <= 8 else { return text }
        let shown = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? -1
        if shown < 0 { text += "." }
        if shown < written { text += String(repeating: "0", count: written - max(shown, 0)) }
        return text
    }

    /// `0.99 USD`, `3.00 USD`, or `0.99` when the currency is unknown.
    public var description: String { amountText + (currency.map { " \($0)" } ?? "") }
}

/// A product's name and description in one locale.
public struct Localization: Sendable, Hashable {
    public var locale: String
    public var displayName: String?
    public var description: String?
    public var location: SourceLocation

    public init(locale: String, displayName: String?, description: String?, location: SourceLocation) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
        self.location = location
    }

    /// A locale as a key: `en-US`, `en_US` and `EN-us` are one locale.
    public static func key(_ locale: String) -> String {
        // Locales are ASCII: bytes mapped in one pass (Foundation's replace and Unicode lowercasing
        // cost a tenth of planning 10,000 products); anything else the general way, as before.
        guard locale.utf8.allSatisfy({ $0 < 0x80 }) else { return locale.replacingOccurrences(of: "_", with: "-").lowercased() }
        return String(decoding: locale.utf8.map { $0 == 0x5F ? 0x2D : (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// How an introductory or promotional offer is paid.
public enum PaymentMode: String, Sendable, Hashable, CaseIterable {
    case freeTrial = "free-trial"
    case payAsYouGo = "pay-as-you-go"
    case payUpFront = "pay-up-front"

    /// Our spellings and `.storekit`'s (`free`, `payAsYouGo`, `payUpFront`).
    public init?(spelling: String) {
        switch spelling.lowercased().filter({ $0.isLetter }) {
        case "free", "freetrial": self = .freeTrial
        case "payasyougo": self = .payAsYouGo
        case "payupfront": self = .payUpFront
        default: return nil
        }
    }
}

/// An introductory offer on a subscription.
public struct IntroductoryOffer: Sendable, Hashable {
    public var paymentMode: PaymentMode
    /// The offer's period (`P1W`), parsed when loaded.
    public var period: SubscriptionPeriod
    public var numberOfPeriods: Int
    /// In the product's currency.
    public var price: Decimal?
    public var location: SourceLocation

    public init(paymentMode: PaymentMode, period: SubscriptionPeriod, numberOfPeriods: Int = 1, price: Decimal?,
                location: SourceLocation) {
        self.paymentMode = paymentMode
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.price = price
        self.location = location
    }
}

/// A promotional offer on a subscription (App Store Connect's "promotional offers", `.storekit`'s
/// `adHocOffers`): offered to existing or lapsed subscribers with a signed offer ID.
public struct PromotionalOffer: Sendable, Hashable {
    public var id: String
    public var referenceName: String?
    public var paymentMode: PaymentMode
    /// The offer's period (`P1M`), parsed when loaded.
    public var period: SubscriptionPeriod
    public var numberOfPeriods: Int
    /// In the product's currency.
    public var price: Decimal?
    public var location: SourceLocation

    public init(id: String, referenceName: String?, paymentMode: PaymentMode, period: SubscriptionPeriod, numberOfPeriods: Int = 1,
                price: Decimal?, location: SourceLocation) {
        self.id = id
        self.referenceName = referenceName
        self.paymentMode = paymentMode
        self.period = period
        self.numberOfPeriods = numberOfPeriods
        self.price = price
        self.location = location
    }
}

/// A subscription's win-back offer (a metadata plist's `winBackOffers`): the App Store offers it
/// to customers whose subscription lapsed, who meet its eligibility, from its start date.
public struct WinBackOffer: Sendable, Hashable {
    /// Its terms; `terms.id` is App Store Connect's offer identifier (`offerId`).
    public var terms: PromotionalOffer
    /// The months a customer must have paid for the subscription, at least.
    public var paidMonths: Int
    /// The months since the customer's subscription lapsed: from, to.
    public var lapsedMonths: ClosedRange<Int>
    /// The months between two win-back offers to one customer (nil: none said).
    public var waitMonths: Int?
    /// `YYYY-MM-DD`.
    public var startDate: String
    public var endDate: String?
    /// Whether the App Store shows it before the subscription's other win-back offers.
    public var highPriority: Bool

    public init(terms: PromotionalOffer, paidMonths: Int, lapsedMonths: ClosedRange<Int>, waitMonths: Int?, startDate: String,
                endDate: String?, highPriority: Bool) {
        self.terms = terms
        self.paidMonths = paidMonths
        self.lapsedMonths = lapsedMonths
        self.waitMonths = waitMonths
        self.startDate = startDate
        self.endDate = endDate
        self.highPriority = highPriority
    }
}

/// A subscription's offer code (a `.storekit` file's `codeOffers`, a metadata plist's
/// `offerCodes`): the campaign whose codes customers redeem for its terms, known by its reference
/// name (App Store Connect's `name`).
public struct OfferCode: Sendable, Hashable {
    /// Who may redeem it (App Store Connect's `NEW`, `EXISTING`, `EXPIRED`).
    public enum Eligibility: String, Sendable, Hashable, CaseIterable, Comparable {
        case new, existing, expired

        public static func < (a: Eligibility, b: Eligibility) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// Its terms; `terms.id` is its reference name.
    public var terms: PromotionalOffer
    /// Sorted, each once.
    public var eligibility: [Eligibility]
    /// Whether a customer may redeem it with an introductory offer (`isStackable`).
    public var stackable: Bool
    /// The codes the team chose for it (a metadata plist's `customCodes`), each once.
    public var customCodes: [CustomCode]

    public init(terms: PromotionalOffer, eligibility: [Eligibility], stackable: Bool, customCodes: [CustomCode] = []) {
        self.terms = terms
        self.eligibility = Array(Set(eligibility)).sorted()
        self.stackable = stackable
        self.customCodes = customCodes
    }
}

/// A custom code of an offer code: the word customers redeem (App Store Connect's `customCode`),
/// how many times, and until when.
public struct CustomCode: Sendable, Hashable {
    /// Letters and digits (ASCII), at most 64.
    public var code: String
    /// How many redemptions it allows.
    public var numberOfCodes: Int
    /// `YYYY-MM-DD`; nil: it does not expire.
    public var expirationDate: String?
    public var location: SourceLocation

    public init(code: String, numberOfCodes: Int, expirationDate: String?, location: SourceLocation) {
        self.code = code
        self.numberOfCodes = numberOfCodes
        self.expirationDate = expirationDate
        self.location = location
    }
}

/// Something located in a file: the value and where it was read.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// What a metadata source (our metadata plist, a `.storekit` file, or a product list whose entries
/// carry names and types) says about one product.
public struct ProductMetadata: Sendable, Hashable {
    public var kind: Located<ProductKind>?
    public var referenceName: Located<String>?
    public var localizations: [Localization] = []
    public var price: Located<ProductPrice>?
    /// Prices per storefront (a metadata plist's `prices`: storefront code → amount, in that
    /// storefront's currency).
    public var storefrontPrices: [Located<ProductPrice>] = []
    /// The day (`YYYY-MM-DD`, UTC) the declared prices take effect (a metadata plist's
    /// `priceStartDate`): a price change scheduled ahead; nil: now.
    public var priceStartDate: Located<String>?
    public var subscriptionGroup: Located<String>?
    /// The subscription's level in its group (1 is the highest service; `.storekit`'s `groupNumber`).
    public var groupLevel: Located<Int>?
    /// The billing period, parsed when loaded (an unparseable one is invalid-metadata).
    public var subscriptionPeriod: Located<SubscriptionPeriod>?
    public var introductoryOffer: IntroductoryOffer?
    public var promotionalOffers: [PromotionalOffer] = []
    public var winBackOffers: [WinBackOffer] = []
    public var offerCodes: [OfferCode] = []
    public var familyShareable: Bool?
    /// The note for App Review (App Store Connect's `reviewNote`, at most 4,000 characters).
    public var reviewNote: Located<String>?
    /// Where the product is for sale (App Store Connect's availability).
    public var availability: Located<DeclaredAvailability>?

    public init() {}

    /// The price this source gives in `storefront` (alpha-3), whose currency is `currency`: its
    /// `prices` entry for that storefront, or its single price when tied to that storefront, or
    /// tied to none and in that currency.
    public func price(in storefront: String, currency: String) -> Located<ProductPrice>? {
        if let entry = storefrontPrices.first(where: { $0.value.storefront == storefront }) { return entry }
        guard let price else { return nil }
        if let own = price.value.storefront { return own == storefront ? price : nil }
        return price.value.currency == currency ? price : nil
    }
}

/// The territories a product is declared for sale in (a metadata plist's `availability`).
public struct DeclaredAvailability: Sendable, Hashable {
    /// Alpha-3 territory codes, sorted, each once; every territory App Store Connect has when `all`.
    public var territories: [String]
    /// Every territory App Store Connect has (`<string>all</string>`), whatever their number.
    public var all: Bool
    /// Whether the product goes on sale in territories Apple adds later.
    public var newTerritories: Bool

    public init(territories: [String], all: Bool = false, newTerritories: Bool) {
        self.territories = territories
        self.all = all
        self.newTerritories = newTerritories
    }
}

/// Where a product ID was found, and what that place says about it.
public struct ProductOccurrence: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable {
        /// A list of product IDs the app loads (`IAP_ProductIDs.plist` and look-alikes).
        case productList = "product list"
        /// Our metadata plist format.
        case metadata
        /// An Xcode StoreKit configuration file.
        case storeKit = "storekit"
    }

    public var id: String
    public var location: SourceLocation {
        get { SourceLocation(path: path, line: Int(line), column: Int(column)) }
        set {
            path = newValue.path
            line = Int32(clamping: newValue.line)
            column = Int32(clamping: newValue.column)
        }
    }
    public var role: Role
    /// The location's parts, packed: a million occurrences are 8 bytes smaller each.
    private var path: String
    private var line: Int32
    private var column: Int32
    /// The container key the ID was listed under (`Consumables`, `Subscriptions`), if any.
    public var containerKey: String? {
        get { extras?.containerKey }
        set { change { $0.containerKey = newValue } }
    }
    /// A kind stated by the source itself (a `Type` key, a `.storekit` type, our `kind`).
    public var declaredKind: Located<ProductKind>? {
        get { extras?.declaredKind }
        set { change { $0.declaredKind = newValue } }
    }
    /// The words that stated it (`Type = Non-Consumable`).
    public var declaredBy: String? {
        get { extras?.declaredBy }
        set { change { $0.declaredBy = newValue } }
    }
    /// Names and descriptions the source carries (`Title`, `Name`, `localizedTitle`, …).
    public var metadata: ProductMetadata? {
        get { extras?.metadataBox?.value }
        set { change { $0.metadataBox = newValue.map(MetadataBox.init) } }
    }
    /// Shared with the product when it is its only source.
    var metadataBox: MetadataBox? { extras?.metadataBox }

    /// Everything but the ID and its place, boxed and nil when empty: most occurrences of a large
    /// catalog (plain ID lists) have none of it, so an occurrence is a few words, cheap to move.
    private var extras: Extras?

    private struct Fields: Equatable {
        var containerKey: String?
        var declaredKind: Located<ProductKind>?
        var declaredBy: String?
        var metadataBox: MetadataBox?
    }

    /// Immutable: changing a field replaces the box (value semantics kept).
    private final class Extras: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
        var containerKey: String? { fields.containerKey }
        var declaredKind: Located<ProductKind>? { fields.declaredKind }
        var declaredBy: String? { fields.declaredBy }
        var metadataBox: MetadataBox? { fields.metadataBox }
    }

    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = extras?.fields ?? Fields()
        edit(&fields)
        extras = fields == Fields() ? nil : Extras(fields)
    }

    public init(id: String, location: SourceLocation, role: Role, containerKey: String? = nil,
                declaredKind: Located<ProductKind>? = nil, declaredBy: String? = nil, metadata: ProductMetadata? = nil) {
        self.id = id
        self.path = location.path
        self.line = Int32(clamping: location.line)
        self.column = Int32(clamping: location.column)
        self.role = role
        let fields = Fields(containerKey: containerKey, declaredKind: declaredKind, declaredBy: declaredBy,
                            metadataBox: metadata.map(MetadataBox.init))
        self.extras = fields == Fields() ? nil : Extras(fields)
    }

    public static func == (lhs: ProductOccurrence, rhs: ProductOccurrence) -> Bool {
        lhs.id == rhs.id && lhs.location == rhs.location && lhs.role == rhs.role && lhs.extras?.fields == rhs.extras?.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(location)
        hasher.combine(role)
        hasher.combine(containerKey)
        hasher.combine(declaredKind)
        hasher.combine(declaredBy)
        hasher.combine(metadataBox)
    }
}

/// An immutable box for `ProductMetadata` (value semantics kept: setting replaces the box).
final class MetadataBox: Sendable, Hashable {
    let value: ProductMetadata
    init(_ value: ProductMetadata) { self.value = value }
    /// Read by products that have none, so that reading their metadata copies nothing.
    static let empty = MetadataBox(ProductMetadata())
    static func == (lhs: MetadataBox, rhs: MetadataBox) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A `KindReason`, boxed so that products share it (see `Classifier`).
final class ReasonBox: Sendable {
    let value: KindReason
    init(_ value: KindReason) { self.value = value }
}

/// Why a product has the kind it has.
public enum KindReason: Sendable, Hashable {
    /// Stated in a file: where, and in which words.
    case declared(SourceLocation, String)
    /// Guessed from words of the ID, its names or the key it is listed under.
    case inferred([String], source: String)
    case unknown

    /// "declared in Products.storekit:12 (type NonConsumable)", "inferred from 'lives' in the ID".
    public var description: String {
        switch self {
        case .declared(let location, let words): "declared in \(location) (\(words))"
        case .inferred(let words, let source) where isGuess:
            "a guess from " + words.map { "\(Quote.bounded($0))" }.joined(separator: ", ") + " in \(source), a word one-time unlocks and subscriptions both use"
        case .inferred(let words, let source):
            "inferred from " + words.map { "\(Quote.bounded($0))" }.joined(separator: ", ") + " in \(source)"
        case .unknown: "unknown: nothing declares it and no word of its ID tells"
        }
    }

    public var isDeclared: Bool { if case .declared = self { true } else { false } }

    /// Inferred from words alone that name a tier apps sell both once and by subscription
    /// (`pro`, `premium`): a guess, to be told as one.
    public var isGuess: Bool {
        if case .inferred(let words, _) = self { !words.isEmpty && words.allSatisfy(KindInference.tierWords.contains) } else { false }
    }
}

/// One product of a catalog: every place its ID appears, merged. Immutable, and a class so that
/// rules walking a million products pass references rather than copy every field.
public final class Product: Sendable {
    /// The ID (its first occurrence's).
    public var id: String { first.id }
    /// Where the ID appears, first the place diagnostics point at (see `CatalogLoader.merge`).
    public var occurrences: [ProductOccurrence] { others.isEmpty ? [first] : [first] + others }
    /// How many places the ID appears in (without building `occurrences`).
    public var occurrenceCount: Int { 1 + others.count }
    /// The first occurrence kept inline: most products have one, and need no array of their own.
    private let first: ProductOccurrence
    private let others: [ProductOccurrence]
    // (Stored properties are laid out in declaration order: words first, then `lowerHash` and
    // the single bytes `kind`, `hasPlainID`, `isListed`, `hasMetadataSource`, so that no padding
    // rounds a million products up.)
    public var kindReason: KindReason { reasonBox.value }
    /// Boxed and shared: the products of a numbered family, or of one container key, have one reason.
    private let reasonBox: ReasonBox
    /// The merged metadata: a metadata plist first, then a `.storekit` file, then product lists.
    public var metadata: ProductMetadata {
        // Borrowed, never retained: rules on several threads read every product's metadata, and
        // a retain of one shared empty box from every thread would contend on its count.
        _read {
            if let metadataBox { yield metadataBox.value } else { yield MetadataBox.empty.value }
        }
    }
    /// Boxed, and nil when empty: most products of a large catalog (plain ID lists) have none, and
    /// an occurrence's own box is shared, so a product costs a few words, not the metadata's size.
    private let metadataBox: MetadataBox?
    /// Whether any source gives it metadata (names, prices, periods…): rules about metadata look
    /// only at these (`Catalog.describedProducts`).
    public var hasMetadata: Bool { metadataBox != nil }
    /// The top half of the ID's hash with ASCII case folded (`IDKeys.hash(id, .lower)`), from the
    /// load's merge: enough to group a million IDs (equal halves are compared exactly).
    let lowerHash: UInt32
    public let kind: ProductKind?
    /// Whether the ID is plain: not empty, only the characters App Store Connect allows, no empty
    /// segment. Worked out once while loading, so the ID rules skip such IDs without reading them.
    let hasPlainID: Bool
    /// Whether a product-ID list holds it.
    public let isListed: Bool
    /// Whether a metadata plist or a `.storekit` file describes it.
    public let hasMetadataSource: Bool

    public convenience init(id: String, occurrences: [ProductOccurrence], kind: ProductKind?, kindReason: KindReason,
                            metadata: ProductMetadata) {
        precondition(!occurrences.isEmpty, "a product has at least one occurrence")
        precondition(occurrences[0].id == id, "a product's ID is its first occurrence's")
        self.init(first: occurrences[0], others: Array(occurrences.dropFirst()), kind: kind, reason: ReasonBox(kindReason),
                  metadataBox: MetadataBox(metadata))
    }

    /// A product whose ID is `first.id`; `lowerHash` is `IDKeys.hash(first.id, .lower)` when the caller has it.
    init(first: ProductOccurrence, others: [ProductOccurrence], kind: ProductKind?, reason: ReasonBox, metadataBox: MetadataBox?,
         lowerHash: UInt64? = nil) {
        self.lowerHash = UInt32(truncatingIfNeeded: (lowerHash ?? IDKeys.hash(first.id, .lower)) >> 32)
        self.hasPlainID = IDCharacters.isPlain(first.id)
        self.first = first
        self.others = others
        self.kind = kind
        self.reasonBox = reason
        self.metadataBox = metadataBox
        self.isListed = first.role == .productList || others.contains { $0.role == .productList }
        self.hasMetadataSource = first.role != .productList || others.contains { $0.role != .productList }
    }

    /// The first place the ID appears: where diagnostics about the product point.
    public var location: SourceLocation { first.location }

    /// The display name in the first localization that has one (en-US preferred).
    public var displayName: String? {
        let preferred = metadata.localizations.first { ["en-US", "en_US", "en"].contains($0.locale) && $0.displayName != nil }
        return (preferred ?? metadata.localizations.first { $0.displayName != nil })?.displayName
    }
}
