import Diagnostics
import Foundation

extension CatalogRules {
    static let metadataRules: [any CatalogRule] = [
        MissingMetadataRule(), OrphanMetadataRule(), KindConflictRule(), CatalogDriftRule(), KindContradictsIDRule(), PeriodContradictsNameRule(),
        ReferenceNameTooLongRule(), DuplicateReferenceNameRule(), DisplayNameTooLongRule(), DescriptionTooLongRule(),
        MissingLocalizationRule(), SubscriptionWithoutGroupRule(), UnknownSubscriptionPeriodRule(),
        FreeTrialWithPriceRule(), TooManyProductsRule(),
    ]
}

private func kindField(_ kind: String) -> String { "<key>kind</key><string>\(kind)</string>" }


struct MissingMetadataRule: CatalogRule {
    let description = RuleDescription(
        id: "missing-metadata", name: "Product without metadata", severity: .warning,
        rationale: "When a catalog has metadata, a listed product that none describes has no kind, name or price to check or generate.",
        triggering: [RuleExample([
            ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins", "↓com.acme.app.gems"])),
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
        ])],
        nonTriggering: [.ids("com.acme.app.coins", "com.acme.app.gems")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        guard catalog.hasMetadataSource else { return [] }
        return catalog.products.filter { !$0.hasMetadataSource }.map {
            finding("\(Quote.bounded($0.id)) has no metadata: no metadata plist or .storekit file of this catalog describes it", at: $0.location)
        }
    }
}

struct OrphanMetadataRule: CatalogRule {
    let description = RuleDescription(
        id: "orphan-metadata", name: "Metadata for an unlisted product", severity: .warning,
        rationale: "Metadata for an ID no product list holds describes a product the app never requests: a leftover or a typo.",
        triggering: [RuleExample([
            ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(
                RuleExample.product("com.acme.app.coins", kindField("consumable")) + "\n\t\t↓<key>com.acme.app.old</key>\n\t\t<dict/>")),
        ])],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", kindField("consumable")))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        guard catalog.hasProductList else { return [] }
        return catalog.products.filter { !$0.isListed }.map {
            finding("\(Quote.bounded($0.id)) has metadata but no product list of this catalog holds it: the app never requests it",
                    at: $0.location)
        }
    }
}

struct KindConflictRule: CatalogRule {
    let description = RuleDescription(
        id: "kind-conflict", name: "Sources disagree on the kind", severity: .error,
        rationale: "A product is one kind in App Store Connect; two files that say otherwise mean one of them is wrong.",
        triggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
            ExampleFile("Products.plist", RuleExample.plist("<array>\n\t<dict>\n\t\t<key>ProductId</key>\n\t\t<string>com.acme.app.coins</string>\n\t\t<key>Type</key>\n\t\t↓<string>Non-Consumable</string>\n\t</dict>\n</array>")),
        ])],
        nonTriggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins", kindField("consumable")))),
            ExampleFile("Products.plist", RuleExample.plist("<array>\n\t<dict>\n\t\t<key>ProductId</key>\n\t\t<string>com.acme.app.coins</string>\n\t\t<key>Type</key>\n\t\t<string>Consumable</string>\n\t</dict>\n</array>")),
        ])])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            guard product.occurrenceCount > 1, let kind = product.kind, case .declared(let location, let words) = product.kindReason else { return nil }
            let others = product.occurrences.filter { ($0.declaredKind?.value).map { $0 != kind } ?? false }
            guard let other = others.first, let otherKind = other.declaredKind else { return nil }
            return finding(
                "\(Quote.bounded(product.id)) is declared \(otherKind.value.displayName) here (\(other.declaredBy ?? "")) but \(kind.displayName) in \(location) (\(words))",
                at: otherKind.location, related: [RelatedLocation(location, "declared \(kind.displayName) here")])
        }
    }
}

struct KindContradictsIDRule: CatalogRule {
    let description = RuleDescription(
        id: "kind-contradicts-id", name: "Kind contradicts the ID", severity: .warning,
        rationale: "An ID that says 'consumable' for a product declared non-consumable confuses every reader and often hides a wrong declaration.",
        triggering: [.metadata(RuleExample.product("com.acme.app.consumable.coins", "<key>kind</key>↓<string>non-consumable</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.consumable.coins", kindField("consumable")))])

    /// Only explicit kind words count: `pro` or `monthly` are hints, `consumable` is a statement.
    static let explicit: [String: ProductKind] = [
        "consumable": .consumable, "consumables": .consumable, "nonconsumable": .nonConsumable,
        "nonconsumables": .nonConsumable, "nonrenewing": .nonRenewing, "autorenewable": .autoRenewable,
    ]

    /// Every explicit word holds "consumable" or "renew": most IDs are ruled out by one byte scan.
    static func mayStateKind(_ id: String) -> Bool {
        let lower = id.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        func contains(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard lower.count >= w.count else { return false }
            return (0...(lower.count - w.count)).contains { i in lower[i..<(i + w.count)].elementsEqual(w) }
        }
        return contains("consumable") || contains("renew")
    }

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.compactMap { product in
            guard let kind = product.kind, case .declared(let location, _) = product.kindReason,
                  Self.mayStateKind(product.id) else { return nil }
            let words = KindInference.tokens(product.id)
            // "nonconsumable" contains the pair "non"+"consumable": the most specific word wins.
            let stated = Self.explicit.filter { words.contains($0.key) }.max { $0.key.count < $1.key.count }
            guard let stated, stated.value != kind else { return nil }
            return finding("\(Quote.bounded(product.id)) is declared \(kind.displayName) but its ID says '\(stated.key)'", at: location)
        }
    }
}

struct ReferenceNameTooLongRule: CatalogRule {
    static let limit = 64
    let description = RuleDescription(
        id: "reference-name-too-long", name: "Reference name too long", severity: .error,
        rationale: "App Store Connect refuses reference names over 64 characters.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key>↓<string>\(String(repeating: "Coins ", count: 11))</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.describedProducts.compactMap { product in
            guard let name = product.metadata.referenceName, name.value.count > Self.limit else { return nil }
            return finding("reference name of \(Quote.bounded(product.id)) is \(name.value.count) characters; App Store Connect allows \(Self.limit)",
                           at: name.location)
        }
    }
}

struct DuplicateReferenceNameRule: CatalogRule {
    let description = RuleDescription(
        id: "duplicate-reference-name", name: "Duplicate reference name", severity: .error,
        rationale: "Reference names must be unique within an app in App Store Connect.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>") + "\n"
                               + RuleExample.product("com.acme.app.coins2", "<key>referenceName</key>↓<string>coins</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>referenceName</key><string>Coins</string>") + "\n"
                                  + RuleExample.product("com.acme.app.gems", "<key>referenceName</key><string>Gems</string>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        let named = catalog.describedProducts.compactMap { p in p.metadata.referenceName.map { (p, $0) } }
        // Compared ignoring ASCII case and surrounding spaces (trimmed only where there are any).
        let keys = named.map { _, name -> String in
            let v = name.value
            return v.utf8.first == 0x20 || v.utf8.last == 0x20 ? v.trimmingCharacters(in: .whitespaces) : v
        }
        var found: [Diagnostic] = []
        IDKeys.forEachRepeat(keys, .lower) { first, later in
            let (earlier, earlierName) = named[first], (product, name) = named[later]
            found.append(finding("reference name \(Quote.bounded(name.value)) of \(Quote.bounded(product.id)) is already used by \(Quote.bounded(earlier.id))",
                                 at: name.location, related: [RelatedLocation(earlierName.location, "first used here")]))
        }
        return found
    }
}

extension CatalogRule {
    /// One finding per localization whose text (display name or description) is over `limit`.
    func lengthFindings(_ catalog: Catalog, _ field: KeyPath<Localization, String?>, limit: Int, what: String) -> [Diagnostic] {
        catalog.describedProducts.flatMap { product in
            product.metadata.localizations.compactMap { l -> Diagnostic? in
                guard let text = l[keyPath: field], text.count > limit else { return nil }
                return finding("\(what) of \(Quote.bounded(product.id)) (\(l.locale)) is \(text.count) characters; the limit is \(limit)",
                               at: l.location)
            }
        }
    }
}

struct DisplayNameTooLongRule: CatalogRule {
    let description = RuleDescription(
        id: "display-name-too-long", name: "Display name too long", severity: .warning,
        rationale: "App Store Connect limits display names (35 characters today, 30 for years); longer names are refused. Change the limit with --display-name-limit.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict>↓<key>en-US</key><dict><key>displayName</key><string>A Very Large Bag Of Shiny Golden Coins</string></dict></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        lengthFindings(catalog, \.displayName, limit: options.displayNameLimit, what: "display name")
    }
}

struct DescriptionTooLongRule: CatalogRule {
    let description = RuleDescription(
        id: "description-too-long", name: "Description too long", severity: .warning,
        rationale: "App Store Connect limits product descriptions (55 characters today, 45 for years). Change the limit with --description-limit.",
        triggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict>↓<key>en-US</key><dict><key>description</key><string>\(String(repeating: "Coins for everyone. ", count: 3))</string></dict></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en-US</key><dict><key>description</key><string>A bag of coins</string></dict></dict>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        lengthFindings(catalog, \.description, limit: options.descriptionLimit, what: "description")
    }
}

struct MissingLocalizationRule: CatalogRule {
    let description = RuleDescription(
        id: "missing-localization", name: "Missing localization", severity: .warning,
        rationale: "A product without a localization for a locale you ship shows another language's name there. Locales come from --require-locale.",
        triggering: [
            .metadata("\t\t↓<key>com.acme.app.coins</key>\n\t\t<dict><key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict></dict>",
                      requiredLocales: ["en-US", "de-DE"]),
            RuleExample([ExampleFile("Metadata.plist", RuleExample.plist("<dict>\n\t<key>IAPCatalogMetadata</key>\n\t<integer>1</integer>\n\t<key>requiredLocales</key>\n\t<array><string>en-US</string><string>fr-FR</string></array>\n\t<key>products</key>\n\t<dict>\n\t\t↓<key>com.acme.app.coins</key>\n\t\t<dict><key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict></dict>\n\t</dict>\n</dict>"))]),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en_US</key><dict><key>displayName</key><string>Coins</string></dict></dict>"),
                                  requiredLocales: ["en-US"])])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        let required = options.requiredLocales + catalog.requiredLocales.filter { !options.requiredLocales.contains($0) }
        guard !required.isEmpty else { return [] }
        return catalog.products.filter(\.hasMetadataSource).flatMap { product in
            let have = Set(product.metadata.localizations.map { Localization.key($0.locale) })
            return required.filter { !have.contains(Localization.key($0)) }.map {
                finding("\(Quote.bounded(product.id)) has no \($0) localization", at: product.location)
            }
        }
    }
}

struct SubscriptionWithoutGroupRule: CatalogRule {
    let description = RuleDescription(
        id: "subscription-without-group", name: "Subscription without a group", severity: .error,
        rationale: "Every auto-renewable subscription belongs to a subscription group in App Store Connect; without one it cannot be created.",
        triggering: [.metadata("\t\t↓<key>com.acme.app.monthly</key>\n\t\t<dict><key>kind</key><string>auto-renewable</string><key>subscriptionPeriod</key><string>P1M</string></dict>")],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.products.filter { $0.kind == .autoRenewable && $0.hasMetadataSource && $0.metadata.subscriptionGroup == nil }.map {
            finding("auto-renewable subscription \(Quote.bounded($0.id)) has no subscription group", at: $0.location,
                    fix: SuggestedFix("add subscriptionGroup to its metadata"))
        }
    }
}

struct UnknownSubscriptionPeriodRule: CatalogRule {
    /// Billing periods App Store Connect offers for auto-renewable subscriptions.
    static let billingPeriods: Set<String> = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    /// Durations App Store Connect offers for introductory offers.
    static let offerPeriods: Set<String> = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    let description = RuleDescription(
        id: "unknown-subscription-period", name: "Unknown subscription period", severity: .error,
        rationale: "App Store Connect offers billing periods P1W, P1M, P2M, P3M, P6M and P1Y, and offer durations from P3D to P1Y; anything else cannot be configured.",
        triggering: [
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key>↓<string>P5W</string>")),
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P10D</string></dict>")),
            .metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>promotionalOffers</key><array>↓<dict><key>id</key><string>winback</string><key>paymentMode</key><string>pay-up-front</string><key>period</key><string>P4M</string><key>price</key><string>4.99</string></dict></array>")),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key><dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string></dict>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for product in catalog.describedProducts {
            if let period = product.metadata.subscriptionPeriod, !Self.billingPeriods.contains(period.value.description) {
                found.append(finding("subscription period '\(period.value)' of \(Quote.bounded(product.id)) is not one App Store Connect offers (\(Self.billingPeriods.sorted().joined(separator: ", ")))",
                                     at: period.location))
            }
            if let offer = product.metadata.introductoryOffer, !Self.offerPeriods.contains(offer.period.description) {
                found.append(finding("introductory offer period '\(offer.period)' of \(Quote.bounded(product.id)) is not one App Store Connect offers",
                                     at: offer.location))
            }
            for offer in product.metadata.promotionalOffers where !Self.offerPeriods.contains(offer.period.description) {
                found.append(finding("promotional offer \(Quote.bounded(offer.id)) of \(Quote.bounded(product.id)) has period '\(offer.period)', not one App Store Connect offers",
                                     at: offer.location))
            }
        }
        return found
    }
}

struct FreeTrialWithPriceRule: CatalogRule {
    let description = RuleDescription(
        id: "free-trial-with-price", name: "Free trial with a price", severity: .warning,
        rationale: "A free trial costs nothing; a price left on it (Xcode keeps the last one typed) is shown in tests and reports as if it were charged.",
        triggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key>↓<dict><key>paymentMode</key><string>free-trial</string><key>period</key><string>P1W</string><key>price</key><string>0.99</string></dict>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.monthly", "<key>kind</key><string>auto-renewable</string>", "<key>subscriptionGroup</key><string>Pro</string>", "<key>subscriptionPeriod</key><string>P1M</string>", "<key>introductoryOffer</key><dict><key>paymentMode</key><string>pay-as-you-go</string><key>period</key><string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>0.99</string></dict>"))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        catalog.describedProducts.compactMap { product in
            guard let offer = product.metadata.introductoryOffer, offer.paymentMode == .freeTrial,
                  let price = offer.price, price != 0 else { return nil }
            return finding("free-trial offer of \(Quote.bounded(product.id)) carries a price (\(price)); a free trial is free", at: offer.location,
                           fix: SuggestedFix("remove the price, or make it a pay-as-you-go or pay-up-front offer"))
        }
    }
}

struct TooManyProductsRule: CatalogRule {
    let description = RuleDescription(
        id: "too-many-products", name: "Too many products", severity: .error,
        rationale: "App Store Connect allows at most 10,000 in-app purchases per app.",
        triggering: [RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.p0"] + (1...10_000).map { "com.acme.app.p\($0)" }))])],
        nonTriggering: [.ids("com.acme.app.coins")])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        guard catalog.products.count > options.maxProducts, let first = catalog.products.first else { return [] }
        return [finding("the catalog holds \(catalog.products.count) products; App Store Connect allows \(options.maxProducts) per app",
                        at: first.location)]
    }
}

struct UndeclaredKindRule: CatalogRule {
    /// Above this many undeclared products, one summary instead of one finding each.
    static let summaryThreshold = 100

    let description = RuleDescription(
        id: "undeclared-kind", name: "Kind not declared", severity: .info,
        rationale: "A kind guessed from words can be wrong; declare it in metadata or a .storekit file so generated code and reports are sure.",
        triggering: [
            .ids("↓com.acme.app.extra_lives"), .ids("↓com.acme.app.thing"),
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.coins0"] + (1...100).map { "com.acme.app.coins\($0)" }))]),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.extra_lives", kindField("consumable")))])

    func check(_ catalog: Catalog, options: ValidationOptions) -> [Diagnostic] {
        let undeclared = catalog.products.filter { !$0.kindReason.isDeclared }
        if undeclared.count > Self.summaryThreshold {
            let inferred = undeclared.filter { $0.kind != nil }.count
            let first = undeclared.prefix(3).map { "'" + $0.id + "'" }.joined(separator: ", ")
            return [finding("\(undeclared.count) products have no declared kind (\(inferred) inferred from words, \(undeclared.count - inferred) unknown), first \(first); declare kinds in a metadata plist or .storekit file",
                            at: undeclared[0].location)]
        }
        return undeclared.map { product in
            switch product.kindReason {
            case .inferred(let words, let source):
                let quoted = words.map { "'" + $0 + "'" }.joined(separator: ", ")
                return finding("kind of '" + product.id + "' is " + product.kind!.displayName + ", inferred from " + quoted
                               + " in " + source + "; declare it in metadata", at: product.location)
            default:
                return finding("kind of \(Quote.bounded(product.id)) is unknown: nothing declares it and no word of its ID tells; declare it in metadata",
                               at: product.location)
            }
        }
    }
}
