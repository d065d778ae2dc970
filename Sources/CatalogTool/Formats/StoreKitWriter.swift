import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

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
            throw .usage("--storefront '\(storefront)' is not one of the App Store's 175 storefronts (iap storefronts lists them)")
        }
        self.locale = Self.storeKitLocale(locale ?? self.storefront.locale)
    }

    /// What writing produced: the file's text, findings, and facts left out as a whole (prices
    /// for other storefronts), for the user to read.
    public struct Output: Sendable {
        public var text: String
        public var findings: [Diagnostic]
        public var notes: [String]
        public var productCount: Int
    }

    /// `.storekit` files spell locales `en_US`; metadata plists `en-US`.
    public static func storeKitLocale(_ locale: String) -> String { locale.replacingOccurrences(of: "-", with: "_") }

    public func write(_ catalog: Catalog) -> Output {
        var ids = StableIDs()
        var findings: [Diagnostic] = []
        var otherStorefronts = Set<String>()
        var products: [XcodeJSON] = []
        var nonRenewing: [XcodeJSON] = []
        var groups: [(name: String, members: [(level: Int?, order: Int, product: Product)])] = []

        for (order, product) in catalog.products.enumerated() {
            let metadata = product.metadata
            for price in metadata.storefrontPrices where price.value.storefront != storefront.alpha3 {
                otherStorefronts.insert(price.value.storefront ?? "")
            }
            guard let kind = product.kind else {
                findings.append(ToolRules.storeKitMissingField.finding(
                    "'\(product.id)' has no kind: a StoreKit configuration needs Consumable, NonConsumable, NonRenewingSubscription or RecurringSubscription",
                    at: product.location, fix: SuggestedFix("declare it with <key>kind</key> in the metadata plist"), subject: product.id))
                continue
            }
            guard price(of: product, &findings) != nil else { continue }
            cannotHold(product, kind: kind, &findings)
            switch kind {
            case .consumable, .nonConsumable:
                products.append(entry(product, kind: kind, ids: &ids, findings: &findings))
            case .nonRenewing:
                nonRenewing.append(entry(product, kind: kind, ids: &ids, findings: &findings))
            case .autoRenewable:
                guard let group = metadata.subscriptionGroup?.value else {
                    findings.append(ToolRules.storeKitMissingField.finding(
                        "'\(product.id)' is an auto-renewable subscription with no subscription group: a StoreKit configuration puts every subscription in one",
                        at: product.location, fix: SuggestedFix("add <key>subscriptionGroup</key> to its metadata"), subject: product.id))
                    continue
                }
                guard metadata.subscriptionPeriod != nil else {
                    findings.append(ToolRules.storeKitMissingField.finding(
                        "'\(product.id)' is an auto-renewable subscription with no period: a StoreKit configuration needs one such as P1M",
                        at: product.location, fix: SuggestedFix("add <key>subscriptionPeriod</key> to its metadata"), subject: product.id))
                    continue
                }
                let member = (level: metadata.groupLevel?.value, order: order, product: product)
                if let index = groups.firstIndex(where: { $0.name == group }) {
                    groups[index].members.append(member)
                } else {
                    groups.append((group, [member]))
                }
            }
        }

        var groupValues: [XcodeJSON] = []
        for group in groups {
            let groupID = ids.make("group", group.name)
            // Levels the catalog gives come first, in order; the rest follow in catalog order.
            var next = (group.members.compactMap(\.level).max() ?? 0) + 1
            let members = group.members.sorted {
                ($0.level ?? Int.max, $0.order) < ($1.level ?? Int.max, $1.order)
            }
            var subscriptions: [XcodeJSON] = []
            for member in members {
                let level: Int
                if let given = member.level { level = given } else { level = next; next += 1 }
                var fields = fieldsOf(member.product, kind: .autoRenewable, ids: &ids, findings: &findings)
                fields += subscriptionFields(member.product, level: level, groupID: groupID, ids: &ids)
                subscriptions.append(.object(fields))
            }
            groupValues.append(.object([
                ("id", .string(groupID)),
                ("localizations", .array([])),
                ("name", .string(group.name)),
                ("subscriptions", .array(subscriptions)),
            ]))
        }

        let identifier = StableIDs.hash("configuration", catalog.products.map(\.id).sorted().joined(separator: "\n"))
        let document = XcodeJSON.object([
            ("appPolicies", .object([
                ("eula", .string("")),
                ("policies", .array([.object([("locale", .string(locale)), ("policyText", .string("")), ("policyURL", .string(""))])])),
            ])),
            ("identifier", .string(identifier)),
            ("nonRenewingSubscriptions", .array(nonRenewing)),
            ("products", .array(products)),
            ("settings", .object([
                ("_failTransactionsEnabled", .bool(false)),
                ("_locale", .string(locale)),
                ("_storefront", .string(storefront.alpha3)),
                ("_storeKitErrors", .array(Self.storeKitErrors.map {
                    .object([("current", .null), ("enabled", .bool(false)), ("name", .string($0))])
                })),
            ])),
            ("subscriptionGroups", .array(groupValues)),
            ("version", .object([("major", .integer(Self.formatVersion.major)), ("minor", .integer(Self.formatVersion.minor))])),
        ])
        var notes: [String] = []
        let others = otherStorefronts.subtracting([""]).sorted()
        if !others.isEmpty {
            notes.append("prices for \(others.count == 1 ? "storefront" : "\(others.count) other storefronts") \(others.prefix(8).joined(separator: ", "))\(others.count > 8 ? ", …" : "") not written: a StoreKit configuration holds one storefront's prices (--storefront chooses)")
        }
        let written = products.count + nonRenewing.count + groups.reduce(0) { $0 + $1.members.count }
        return Output(text: document.text, findings: findings, notes: notes, productCount: written)
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

    /// The product's price in this storefront: its `prices` entry for it, or its single price when
    /// that is in the storefront's currency. None is a `storekit-missing-field` error.
    func price(of product: Product, _ findings: inout [Diagnostic]) -> Decimal? {
        let metadata = product.metadata
        if let entry = metadata.storefrontPrices.first(where: { $0.value.storefront == storefront.alpha3 }) {
            return entry.value.amount
        }
        if let price = metadata.price?.value,
           price.storefront == storefront.alpha3 || (price.storefront == nil && price.currency == storefront.currency) {
            return price.amount
        }
        var why = "no price"
        var fix = "add <key>price</key> and <key>currency</key> (\(storefront.currency)) to its metadata"
        if let price = metadata.price?.value {
            fix = "add <key>prices</key> with <key>\(storefront.alpha3)</key> to its metadata, or choose another --storefront"
            why = "a price in \(price.currency ?? "no currency")\(price.storefront.map { " (storefront \($0))" } ?? "") only"
        }
        findings.append(ToolRules.storeKitMissingField.finding(
            "'\(product.id)' has \(why), and a StoreKit configuration for \(storefront.alpha3) needs its price in \(storefront.currency)",
            at: metadata.price?.location ?? product.location,
            fix: SuggestedFix(fix),
            subject: product.id))
        return nil
    }

    /// Facts of the catalog that a product of this kind cannot carry in the file.
    func cannotHold(_ product: Product, kind: ProductKind, _ findings: inout [Diagnostic]) {
        let metadata = product.metadata
        var lost: [(String, SourceLocation)] = []
        if kind != .autoRenewable {
            if let period = metadata.subscriptionPeriod { lost.append(("a subscription period \(period.value)", period.location)) }
            if let group = metadata.subscriptionGroup { lost.append(("the subscription group '\(group.value)'", group.location)) }
            if let level = metadata.groupLevel { lost.append(("the group level \(level.value)", level.location)) }
            if let offer = metadata.introductoryOffer { lost.append(("an introductory offer", offer.location)) }
            if let offer = metadata.promotionalOffers.first { lost.append(("promotional offers", offer.location)) }
        }
        for (fact, location) in lost {
            findings.append(ToolRules.storeKitCannotHold.finding(
                "'\(product.id)' is \(kind.displayName) and has \(fact): a StoreKit configuration gives that only to auto-renewable subscriptions, so it is not written",
                at: location, subject: product.id))
        }
    }

    /// The fields every product has, in any array.
    private func fieldsOf(_ product: Product, kind: ProductKind, ids: inout StableIDs, findings: inout [Diagnostic]) -> [(String, XcodeJSON)] {
        let metadata = product.metadata
        var dropped: [Diagnostic] = []
        let amount = price(of: product, &dropped) ?? 0
        let localizations: [XcodeJSON] = metadata.localizations.map {
            .object([
                ("description", .string($0.description ?? "")),
                ("displayName", .string($0.displayName ?? "")),
                ("locale", .string(Self.storeKitLocale($0.locale))),
            ])
        }
        return [
            ("displayPrice", .string(Self.amountText(amount))),
            ("familyShareable", .bool(metadata.familyShareable ?? false)),
            ("internalID", .string(ids.make("product", product.id))),
            ("localizations", .array(localizations)),
            ("productID", .string(product.id)),
            ("referenceName", .string(Self.referenceName(of: product))),
            ("type", .string(Self.storeKitType(kind))),
        ]
    }

    /// The catalog's reference name; else the display name, else the product ID (Xcode needs one).
    static func referenceName(of product: Product) -> String {
        if let name = product.metadata.referenceName?.value { return name }
        if let name = product.displayName, !name.isEmpty { return name }
        return product.id
    }

    private func entry(_ product: Product, kind: ProductKind, ids: inout StableIDs, findings: inout [Diagnostic]) -> XcodeJSON {
        .object(fieldsOf(product, kind: kind, ids: &ids, findings: &findings))
    }

    private func subscriptionFields(_ product: Product, level: Int, groupID: String, ids: inout StableIDs) -> [(String, XcodeJSON)] {
        let metadata = product.metadata
        var intro = XcodeJSON.null
        if let offer = metadata.introductoryOffer {
            intro = .object(offerFields(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price,
                                        internalID: ids.make("introductory offer", product.id)))
        }
        let promotional: [XcodeJSON] = metadata.promotionalOffers.map { offer in
            .object(offerFields(mode: offer.paymentMode, period: offer.period, periods: offer.numberOfPeriods, price: offer.price,
                                internalID: ids.make("promotional offer", product.id + "\n" + offer.id))
                    + [("offerID", .string(offer.id)), ("referenceName", .string(offer.referenceName ?? offer.id))])
        }
        return [
            ("adHocOffers", .array(promotional)),
            ("codeOffers", .array([])),
            ("groupNumber", .integer(level)),
            ("introductoryOffer", intro),
            ("recurringSubscriptionPeriod", .string(metadata.subscriptionPeriod.map { "\($0.value)" } ?? "")),
            ("subscriptionGroupID", .string(groupID)),
            ("winbackOffers", .array([])),
        ]
    }

    /// An offer as Xcode writes it: no price for a free trial; the number of periods when paid as
    /// you go (or when it is not one).
    private func offerFields(mode: PaymentMode, period: SubscriptionPeriod, periods: Int, price: Decimal?, internalID: String) -> [(String, XcodeJSON)] {
        var fields: [(String, XcodeJSON)] = [
            ("internalID", .string(internalID)),
            ("paymentMode", .string(Self.paymentMode(mode))),
            ("subscriptionPeriod", .string("\(period)")),
        ]
        if mode != .freeTrial, let price { fields.append(("displayPrice", .string(Self.amountText(price)))) }
        if mode == .payAsYouGo || periods != 1 { fields.append(("numberOfPeriods", .integer(periods))) }
        return fields
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
