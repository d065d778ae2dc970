import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import Support

/// Writes a catalog as a local (not synced) Xcode StoreKit configuration file, format 4.0, the
/// newest version among real files: every product with its type, reference name, localizations,
/// price in one storefront and family sharing; subscription groups with levels, periods,
/// introductory and promotional offers; non-renewing subscriptions.
///
/// The output is a function of the catalog alone: identifiers are hashes of product IDs and group
/// names (never random), keys are in Xcode's order, products in the catalog's order, subscriptions
/// by group level. What the file needs and the catalog does not give (a price in the storefront, a
/// kind, a group or period for a subscription) is a `storekit-missing-field` error; a fact of the
/// catalog the file cannot hold is a `storekit-cannot-hold` warning. Neither is left out silently.
public struct StoreKitWriter: Sendable {
    public static let formatVersion = (major: 4, minor: 0)

    public let storefront: Storefront
    /// The locale StoreKit Testing shows prices in (`settings._locale`), `en_US` style.
    public let locale: String

    /// `storefront`: alpha-3 or alpha-2 code; `locale`: `en_US` or `en-US`, default the storefront's.
    public init(storefront: String = "USA", locale: String? = nil) throws(ToolFailure) {
        do {
            self.storefront = try Storefronts.find(storefront)
        } catch {
            throw .usage("--storefront \(Quote.bounded(storefront)) is not one of the App Store's 175 storefronts (iap storefronts lists them)")
        }
        self.locale = Self.storeKitLocale(locale ?? self.storefront.locale)
    }

    /// What writing produced: the file's text, findings, and facts left out as a whole (prices
    /// for other storefronts), for the user to read.
    public struct Output: Sendable {
        public var text: String
        public var findings: [Diagnostic]
        public var notes: [String]
        /// What the user should know about what was written (kinds that are only inferred).
        public var remarks: [String] = []
        public var productCount: Int
    }

    /// `.storekit` files spell locales `en_US`; metadata plists `en-US`.
    public static func storeKitLocale(_ locale: String) -> String {
        locale.utf8.contains(0x2D) ? String(decoding: locale.utf8.map { $0 == 0x2D ? 0x5F : $0 }, as: UTF8.self) : locale
    }

    public func write(_ catalog: Catalog) -> Output {
        var findings: [Diagnostic] = []
        var otherStorefronts = Set<String>()
        var products: [(Product, ProductKind, Decimal)] = []
        var nonRenewing: [(Product, ProductKind, Decimal)] = []
        var groups: [(name: String, members: [(level: Int?, order: Int, product: Product, price: Decimal)])] = []
        var groupIndex: [String: Int] = [:]

        let metadataFile = catalog.files.first { $0.content == .metadata }?.path
        for (order, product) in catalog.products.enumerated() {
            let metadata = product.metadata
            for price in metadata.storefrontPrices where price.value.storefront != storefront.alpha3 {
                otherStorefronts.insert(price.value.storefront ?? "")
            }
            guard let (kind, price) = StoreKitMissingFieldRule.check(product, in: storefront, metadataFile: metadataFile, into: &findings) else {
                continue
            }
            StoreKitCannotHoldRule.check(product, kind: kind, into: &findings)
            switch kind {
            case .consumable, .nonConsumable:
                products.append((product, kind, price))
            case .nonRenewing:
                nonRenewing.append((product, kind, price))
            case .autoRenewable:
                // StoreKitMissingFieldRule passes no subscription without a group.
                guard let group = metadata.subscriptionGroup?.value else { continue }
                let member = (level: metadata.groupLevel?.value, order: order, product: product, price: price)
                if let index = groupIndex[group] {
                    groups[index].members.append(member)
                } else {
                    groupIndex[group] = groups.count
                    groups.append((group, [member]))
                }
            }
        }

        // Keys in Xcode's order, written as they come: no tree of values for a big catalog.
        var ids = StableIDs()
        var json = JSONWriter(capacity: 256 + 700 * catalog.products.count, style: .xcode)
        json.openObject()
        json.key("appPolicies")
        json.openObject()
        json.field("eula", "")
        json.key("policies")
        json.openArray()
        json.openObject()
        json.field("locale", locale)
        json.field("policyText", "")
        json.field("policyURL", "")
        json.closeObject()
        json.closeArray()
        json.closeObject()
        json.field("identifier", StableIDs.hash("configuration", catalog.products.map(\.id).sorted().joined(separator: "\n")))
        for (name, list) in [("nonRenewingSubscriptions", nonRenewing), ("products", products)] {
            json.key(name)
            json.openArray()
            for (product, kind, price) in list {
                json.openObject()
                writeCommonFields(product, kind: kind, price: price, ids: &ids, into: &json, subscription: nil)
                json.closeObject()
            }
            json.closeArray()
        }
        json.key("settings")
        json.openObject()
        json.field("_failTransactionsEnabled", false)
        json.field("_locale", locale)
        json.field("_storefront", storefront.alpha3)
        json.key("_storeKitErrors")
        json.openArray()
        for name in Self.storeKitErrors {
            json.openObject()
            json.key("current")
            json.null()
            json.field("enabled", false)
            json.field("name", name)
            json.closeObject()
        }
        json.closeArray()
        json.closeObject()
        json.key("subscriptionGroups")
        json.openArray()
        for group in groups {
            let groupID = ids.make("group", group.name)
            // Levels the catalog gives come first, in order; the rest follow in catalog order.
            var next = (group.members.compactMap(\.level).max() ?? 0) + 1
            let members = group.members.sorted {
                ($0.level ?? Int.max, $0.order) < ($1.level ?? Int.max, $1.order)
            }
            json.openObject()
            json.field("id", groupID)
            json.emptyArray("localizations")
            json.field("name", group.name)
            json.key("subscriptions")
            json.openArray()
            for member in members {
                let level: Int
                if let given = member.level { level = given } else { level = next; next += 1 }
                json.openObject()
                writeCommonFields(member.product, kind: .autoRenewable, price: member.price, ids: &ids, into: &json,
                                  subscription: (level, groupID))
                json.closeObject()
            }
            json.closeArray()
            json.closeObject()
        }
        json.closeArray()
        json.key("version")
        json.openObject()
        json.field("major", Self.formatVersion.major)
        json.field("minor", Self.formatVersion.minor)
        json.closeObject()
        json.closeObject()

        var notes: [String] = []
        let inferred = (products + nonRenewing).map(\.0).filter { !$0.kindReason.isDeclared }
            + groups.flatMap { $0.members.map(\.product) }.filter { !$0.kindReason.isDeclared }
        var remarks: [String] = []
        if let first = inferred.first {
            remarks.append("the kind of \(inferred.count == 1 ? "\(Quote.bounded(first.id))" : "\(inferred.count) products (the first \(Quote.bounded(first.id)))") is inferred, not declared (iap list says why): the file states it as a fact; declare it with <key>kind</key>")
        }
        let others = otherStorefronts.subtracting([""]).sorted()
        if !others.isEmpty {
            notes.append("prices for \(others.count == 1 ? "storefront" : "\(others.count) other storefronts") \(others.prefix(8).joined(separator: ", "))\(others.count > 8 ? ", …" : "") not written: a StoreKit configuration holds one storefront's prices (--storefront chooses)")
        }
        let written = products.count + nonRenewing.count + groups.reduce(0) { $0 + $1.members.count }
        return Output(text: json.finish(), findings: findings, notes: notes, remarks: remarks, productCount: written)
    }

    /// The errors Xcode 16 lists in a configuration's settings, all off.
    static let storeKitErrors = [
        "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status", "App Transaction",
        "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet",
    ]

    static func storeKitType(_ kind: ProductKind) -> String {
        switch kind {
        case .consumable: "Consumable"
        case .nonConsumable: "NonConsumable"
        case .nonRenewing: "NonRenewingSubscription"
        case .autoRenewable: "RecurringSubscription"
        }
    }

    static func paymentMode(_ mode: PaymentMode) -> String {
        switch mode {
        case .freeTrial: "free"
        case .payAsYouGo: "payAsYouGo"
        case .payUpFront: "payUpFront"
        }
    }

    /// A product's fields, in Xcode's key order; a subscription's own fields (`adHocOffers`,
    /// `groupNumber`, …) interleaved where that order puts them.
    private func writeCommonFields(_ product: Product, kind: ProductKind, price: Decimal, ids: inout StableIDs,
                                   into json: inout JSONWriter, subscription: (level: Int, groupID: String)?) {
        let metadata = product.metadata
        if subscription != nil {
            json.key("adHocOffers")
            json.openArray()
            for offer in metadata.promotionalOffers {
                writeOffer(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price,
                           internalID: ids.make("promotional offer", product.id + "\n" + offer.id),
                           named: (offer.id, offer.referenceName ?? offer.id), into: &json)
            }
            json.closeArray()
            json.key("codeOffers")
            json.openArray()
            for code in metadata.offerCodes {
                json.openObject()
                if code.terms.paymentMode != .freeTrial, let price = code.terms.price { json.field("displayPrice", Self.amountText(price)) }
                json.key("eligibility")
                json.openArray()
                for word in code.eligibility { json.string(word.rawValue) }
                json.closeArray()
                json.field("internalID", ids.make("offer code", product.id + "\n" + code.terms.id))
                json.field("isStackable", code.stackable)
                if code.terms.paymentMode == .payAsYouGo || code.terms.numberOfPeriods != 1 { json.field("numberOfPeriods", code.terms.numberOfPeriods) }
                json.field("paymentMode", Self.paymentMode(code.terms.paymentMode))
                json.field("referenceName", code.terms.id)
                json.field("subscriptionPeriod", "\(code.terms.period)")
                json.closeObject()
            }
            json.closeArray()
        }
        json.field("displayPrice", Self.amountText(price))
        json.field("familyShareable", metadata.familyShareable ?? false)
        if let subscription { json.field("groupNumber", subscription.level) }
        json.field("internalID", ids.make("product", product.id))
        if subscription != nil {
            json.key("introductoryOffer")
            if let offer = metadata.introductoryOffer {
                writeOffer(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price,
                           internalID: ids.make("introductory offer", product.id), named: nil, into: &json)
            } else {
                json.null()
            }
        }
        json.key("localizations")
        json.openArray()
        for localization in metadata.localizations {
            json.openObject()
            json.field("description", localization.description ?? "")
            json.field("displayName", localization.displayName ?? "")
            json.field("locale", Self.storeKitLocale(localization.locale))
            json.closeObject()
        }
        json.closeArray()
        json.field("productID", product.id)
        if subscription != nil {
            json.field("recurringSubscriptionPeriod", metadata.subscriptionPeriod.map { "\($0.value)" } ?? "")
        }
        json.field("referenceName", Self.referenceName(of: product))
        if let subscription { json.field("subscriptionGroupID", subscription.groupID) }
        json.field("type", Self.storeKitType(kind))
        if subscription != nil { json.emptyArray("winbackOffers") }
    }

    /// The catalog's reference name; else the display name, else the product ID (Xcode needs one).
    static func referenceName(of product: Product) -> String {
        if let name = product.metadata.referenceName?.value { return name }
        if let name = product.displayName, !name.isEmpty { return name }
        return product.id
    }

    /// An offer as Xcode writes it: no price for a free trial; the number of periods when paid as
    /// you go (or when it is not one); a promotional offer's ID and reference name.
    private func writeOffer(mode: PaymentMode, period: SubscriptionPeriod, periods: Int, price: Decimal?, internalID: String,
                            named: (id: String, referenceName: String)?, into json: inout JSONWriter) {
        json.openObject()
        if mode != .freeTrial, let price { json.field("displayPrice", Self.amountText(price)) }
        json.field("internalID", internalID)
        if mode == .payAsYouGo || periods != 1 { json.field("numberOfPeriods", periods) }
        if let named { json.field("offerID", named.id) }
        json.field("paymentMode", Self.paymentMode(mode))
        if let named { json.field("referenceName", named.referenceName) }
        json.field("subscriptionPeriod", "\(period)")
        json.closeObject()
    }

    /// `0.99`, `160`: the amount's exact digits, as `.storekit` files write prices.
    static func amountText(_ amount: Decimal) -> String {
        amount.description
    }
}

/// Identifiers a `.storekit` file needs (8 hexadecimal digits, as Xcode writes them), derived from
/// what they identify: the same catalog gives the same identifiers on every run and machine.
struct StableIDs {
    private var used = Set<String>()

    /// FNV-1a (32 bits) of the namespace and key; a clash with an earlier identifier takes the
    /// next hash of the same key, so identifiers stay unique and still depend only on the input.
    mutating func make(_ namespace: String, _ key: String) -> String {
        var attempt = 0
        while true {
            let id = Self.hash(namespace, attempt == 0 ? key : key + "\n\(attempt)")
            if used.insert(id).inserted { return id }
            attempt += 1
        }
    }

    static func hash(_ namespace: String, _ key: String) -> String {
        var h: UInt32 = 0x811C_9DC5
        for byte in namespace.utf8 + [0] + key.utf8 {
            h ^= UInt32(byte)
            h = h &* 0x0100_0193
        }
        let hex = String(h, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
