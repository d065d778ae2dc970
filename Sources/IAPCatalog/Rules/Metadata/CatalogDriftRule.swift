import Diagnostics
import Foundation
import Support

/// `catalog-drift`: the metadata plist and the `.storekit` files of one catalog disagree.
///
/// One rule with a precise message rather than one rule per field: a team turns drift on or off
/// as a whole (the formats are kept in step by `iap storekit`, or they are not), and the message
/// names the field, both values and both places. Kinds are `kind-conflict`'s, so not repeated here.
///
/// What is compared, so that files that legitimately differ stay quiet:
/// - a product missing from one side only between a metadata plist and the `.storekit` files
///   taken together (a team may split its products over several configurations); configurations
///   that hold less than half of the plist's products are a partial test setup, said once;
/// - prices only for the same storefront: a metadata plist's `prices` entry for the file's
///   storefront, or its `price` when in that storefront's currency; two `.storekit` files only
///   when they are for the same storefront;
/// - localized text only in locales both sides have (`en-US` and `en_US` are one locale).
public struct CatalogDriftRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "catalog-drift", name: "Catalog formats disagree", severity: .warning,
        rationale: "When a metadata plist and a StoreKit configuration describe the same products, StoreKit testing and the app's reviewed catalog should agree; a price, period, group, offer, family-sharing flag or localized text that differs means one was edited and the other not (iap storekit regenerates the configuration).",
        triggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins",
                "<key>kind</key><string>consumable</string><key>price</key><string>0.99</string><key>currency</key><string>USD</string>"))),
            ExampleFile("Products.storekit", CatalogDriftRule.storeKit(productID: "com.acme.app.coins", price: "1.99", marker: true)),
        ])],
        nonTriggering: [RuleExample([
            ExampleFile("Metadata.plist", RuleExample.metadataPlist(RuleExample.product("com.acme.app.coins",
                "<key>kind</key><string>consumable</string><key>price</key><string>0.99</string><key>currency</key><string>USD</string>"))),
            ExampleFile("Products.storekit", CatalogDriftRule.storeKit(productID: "com.acme.app.coins", price: "0.99", marker: false)),
        ])])

    /// A one-product `.storekit` file for the examples.
    static func storeKit(productID: String, price: String, marker: Bool) -> String {
        """
        {
          "products" : [
            {
              "displayPrice" : "\(price)",
              "familyShareable" : false,
              "internalID" : "00000001",
              "localizations" : [],
              \(marker ? "↓" : "")"productID" : "\(productID)",
              "referenceName" : "Coins",
              "type" : "Consumable"
            }
          ],
          "settings" : { "_storefront" : "USA" },
          "subscriptionGroups" : [],
          "version" : { "major" : 4, "minor" : 0 }
        }
        """
    }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let storeKitFiles = catalog.files.filter { if case .storeKit = $0.content { true } else { false } }.map(\.path)
        let metadataFiles = catalog.files.filter { $0.content == .metadata }.map(\.path)
        guard storeKitFiles.count + metadataFiles.count >= 2 else { return }
        var onlyInPlist: [(String, SourceLocation)] = []
        var inBoth = 0
        for product in catalog.products {
            let plist = product.occurrences.first { $0.role == .metadata && $0.metadata != nil }
            let kits = product.occurrences.filter { $0.role == .storeKit && $0.metadata != nil }
            if !metadataFiles.isEmpty, !storeKitFiles.isEmpty {
                if let plist, kits.isEmpty {
                    onlyInPlist.append((product.id, plist.location))
                } else if plist == nil, let kit = kits.first {
                    found.add(at: kit.location) {
                        finding(
                            "\(Quote.bounded(product.id)) is in \(name(kit.location.path)) but not in the metadata plist (\(names(metadataFiles)))",
                            at: kit.location, fix: SuggestedFix("add it to the metadata plist (iap convert writes one from the .storekit file)"))
                    }
                } else if plist != nil {
                    inBoth += 1
                }
            }
            guard let reference = plist ?? kits.first else { continue }
            for other in kits where other.location != reference.location {
                compare(product.id, reference, other, into: &found)
            }
        }
        // Products of the plist that no configuration holds: each is drift when the configurations
        // hold most of the plist; when they hold less than half, they are a partial test
        // configuration on purpose, said once.
        if let first = onlyInPlist.first {
            if inBoth >= onlyInPlist.count {
                for (id, location) in onlyInPlist {
                    found.add(at: location) {
                        finding(
                            "\(Quote.bounded(id)) is in the metadata plist but in no StoreKit configuration of this catalog (\(names(storeKitFiles)))",
                            at: location, fix: SuggestedFix(regenerate(metadataFiles, storeKitFiles)))
                    }
                }
            } else {
                let total = inBoth + onlyInPlist.count
                found.add(finding(
                    "\(names(storeKitFiles)) \(storeKitFiles.count == 1 ? "holds" : "hold") \(inBoth) of the metadata plist's \(total) products: a partial test configuration, not compared product by product (\(onlyInPlist.count) missing, the first \(Quote.bounded(first.0)))",
                    at: first.1, fix: SuggestedFix("iap storekit writes a configuration with every product")))
            }
        }
    }

    private func name(_ path: String) -> String { (path as NSString).lastPathComponent }
    private func names(_ paths: [String]) -> String { paths.map(name).joined(separator: ", ") }

    /// The command that regenerates the configuration from the metadata plist, as it can be run
    /// (paths quoted where the shell needs it); with several of either, what to run.
    private func regenerate(_ metadataFiles: [String], _ storeKitFiles: [String]) -> String {
        guard metadataFiles.count == 1, storeKitFiles.count == 1 else {
            return "regenerate the configuration from the metadata plist with iap storekit PLIST -o FILE.storekit, or add the product in Xcode"
        }
        func quoted(_ path: String) -> String { Escape.shellArgument(path, path: true) }
        return "run iap storekit \(quoted(metadataFiles[0])) -o \(quoted(storeKitFiles[0])) to regenerate the configuration, or add the product in Xcode"
    }

    /// Every field both occurrences state and state differently.
    private func compare(_ id: String, _ a: ProductOccurrence, _ b: ProductOccurrence, into found: inout FindingCollector) {
        guard let ma = a.metadata, let mb = b.metadata else { return }
        var differences: [(field: String, left: String, right: String, at: SourceLocation)] = []
        func differ(_ field: String, _ left: String?, _ right: String?, _ at: SourceLocation?) {
            guard let left, let right, left != right else { return }
            differences.append((field, left, right, at ?? a.location))
        }
        differ("reference name", ma.referenceName.map { "\(Quote.bounded($0.value))" }, mb.referenceName.map { "\(Quote.bounded($0.value))" }, ma.referenceName?.location)
        if let price = mb.price?.value, let storefront = price.storefront, let currency = price.currency,
           let mine = ma.price(in: storefront, currency: currency) {
            differ("price in \(storefront)", "\(mine.value.amount) \(price.currency ?? "")", "\(price.amount) \(price.currency ?? "")", mine.location)
        }
        differ("subscription period", ma.subscriptionPeriod.map { "\($0.value)" }, mb.subscriptionPeriod.map { "\($0.value)" }, ma.subscriptionPeriod?.location)
        differ("subscription group", ma.subscriptionGroup.map { "\(Quote.bounded($0.value))" }, mb.subscriptionGroup.map { "\(Quote.bounded($0.value))" }, ma.subscriptionGroup?.location)
        differ("group level", ma.groupLevel.map { "\($0.value)" }, mb.groupLevel.map { "\($0.value)" }, ma.groupLevel?.location)
        differ("family sharing", ma.familyShareable.map { $0 ? "on" : "off" }, mb.familyShareable.map { $0 ? "on" : "off" }, nil)
        differ("introductory offer", Self.describe(ma.introductoryOffer), Self.describe(mb.introductoryOffer), ma.introductoryOffer?.location)
        let offersA = Dictionary(ma.promotionalOffers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let offersB = Dictionary(mb.promotionalOffers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for offerID in Set(offersA.keys).union(offersB.keys).sorted() {
            differ("promotional offer \(Quote.bounded(offerID))", Self.describe(offersA[offerID]), Self.describe(offersB[offerID]), offersA[offerID]?.location)
        }
        let localesB = Dictionary(mb.localizations.map { (Localization.key($0.locale), $0) }, uniquingKeysWith: { first, _ in first })
        for localization in ma.localizations {
            guard let other = localesB[Localization.key(localization.locale)] else { continue }
            differ("display name (\(localization.locale))", localization.displayName.map { "\(Quote.bounded($0))" }, other.displayName.map { "\(Quote.bounded($0))" }, localization.location)
            differ("description (\(localization.locale))", localization.description.map { "\(Quote.bounded($0))" }, other.description.map { "\(Quote.bounded($0))" }, localization.location)
        }
        for difference in differences {
            found.add(at: b.location) {
                finding("\(Quote.bounded(id)): \(difference.field) is \(difference.right) in \(name(b.location.path)) but \(difference.left) in \(name(a.location.path))",
                        at: b.location, related: [RelatedLocation(difference.at, "\(difference.field) \(difference.left) here")],
                        fix: SuggestedFix("make the two agree: iap storekit regenerates the configuration from the catalog"))
            }
        }
    }

    /// An offer as one comparable line; "none" when there is none (so a missing offer differs).
    static func describe(_ offer: IntroductoryOffer?) -> String {
        guard let offer else { return "none" }
        return text(offer.paymentMode, offer.period.description, offer.numberOfPeriods, offer.price)
    }

    static func describe(_ offer: PromotionalOffer?) -> String {
        guard let offer else { return "none" }
        return text(offer.paymentMode, offer.period.description, offer.numberOfPeriods, offer.price)
    }

    private static func text(_ mode: PaymentMode, _ period: String, _ periods: Int, _ price: Decimal?) -> String {
        var out = "\(mode.rawValue) \(periods == 1 ? "" : "\(periods)×")\(period)"
        if mode != .freeTrial, let price { out += " at \(price)" }
        return out
    }
}
