import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting
import Support

/// `storekit-missing-field`: a product lacks a fact a StoreKit configuration needs.
public enum StoreKitMissingFieldRule: Rule {
    public static let description = RuleDescription(
        id: "storekit-missing-field", name: "StoreKit configuration needs a missing fact", severity: .error,
        rationale: "A StoreKit configuration needs a price in its storefront, a kind, and a group and period for every auto-renewable subscription; iap storekit writes no product it would have to invent them for, and says which.",
        triggering: [], nonTriggering: [])

    /// The kind and the price in `storefront` that a StoreKit configuration needs of `product`
    /// (with a group and a period for an auto-renewable subscription); nil, with the finding that
    /// names what it lacks (each field at once when it lacks more than one), when it cannot be written.
    static func check(_ product: Product, in storefront: Storefront, metadataFile: String?,
                      into findings: inout [Diagnostic]) -> (kind: ProductKind, price: Decimal)? {
        let metadata = product.metadata
        // Every field the product lacks, said at once (a price in another currency is its own finding).
        var missing: [(key: String, what: String)] = []
        if product.kind == nil { missing.append(("kind", "kind")) }
        if metadata.price == nil, metadata.price(in: storefront.alpha3, currency: storefront.currency) == nil {
            missing.append(("price", "price in \(storefront.currency)"))
        }
        if product.kind == .autoRenewable {
            if metadata.subscriptionGroup == nil { missing.append(("subscriptionGroup", "subscription group")) }
            if metadata.subscriptionPeriod == nil { missing.append(("subscriptionPeriod", "period")) }
        }
        if missing.count > 1 {
            let keys = missing.flatMap { $0.key == "price" ? ["price", "currency"] : [$0.key] }
            findings.append(description.finding(
                "\(Quote.bounded(product.id)) has no \(Self.list(missing.map(\.what))): a StoreKit configuration for \(storefront.alpha3) needs each",
                at: product.location, fix: SuggestedFix(Self.metadataAdvice(keys, product, metadataFile)), subject: product.id))
            return nil
        }
        guard let kind = product.kind else {
            findings.append(description.finding(
                "\(Quote.bounded(product.id)) has no kind: a StoreKit configuration needs Consumable, NonConsumable, NonRenewingSubscription or RecurringSubscription",
                at: product.location, fix: SuggestedFix(Self.metadataAdvice(["kind"], product, metadataFile)), subject: product.id))
            return nil
        }
        guard let price = price(of: product, in: storefront, metadataFile: metadataFile, &findings) else { return nil }
        if kind == .autoRenewable {
            guard metadata.subscriptionGroup != nil else {
                findings.append(description.finding(
                    "\(Quote.bounded(product.id)) is an auto-renewable subscription with no subscription group: a StoreKit configuration puts every subscription in one",
                    at: product.location, fix: SuggestedFix(Self.metadataAdvice(["subscriptionGroup"], product, metadataFile)), subject: product.id))
                return nil
            }
            guard metadata.subscriptionPeriod != nil else {
                findings.append(description.finding(
                    "\(Quote.bounded(product.id)) is an auto-renewable subscription with no period: a StoreKit configuration needs one such as P1M",
                    at: product.location, fix: SuggestedFix(Self.metadataAdvice(["subscriptionPeriod"], product, metadataFile)), subject: product.id))
                return nil
            }
        }
        return (kind, price)
    }

    /// The product's price in this storefront: its `prices` entry for it, or its single price when
    /// that is in the storefront's currency. None is a `storekit-missing-field` error.
    static func price(of product: Product, in storefront: Storefront, metadataFile: String?, _ findings: inout [Diagnostic]) -> Decimal? {
        let metadata = product.metadata
        if let price = metadata.price(in: storefront.alpha3, currency: storefront.currency) { return price.value.amount }
        var why = "no price"
        var fix = product.hasMetadata || metadataFile != nil
            ? Self.metadataAdvice(["price", "currency"], product, metadataFile).replacingOccurrences(of: "<key>currency</key>", with: "<key>currency</key> (\(storefront.currency))")
            : Self.metadataAdvice(["price", "currency"], product, metadataFile)
        if let price = metadata.price?.value {
            fix = "add <key>prices</key> with <key>\(storefront.alpha3)</key> to its metadata, or choose another --storefront"
            why = "a price in \(price.currency ?? "no currency")\(price.storefront.map { " (storefront \($0))" } ?? "") only"
        }
        findings.append(description.finding(
            "\(Quote.bounded(product.id)) has \(why), and a StoreKit configuration for \(storefront.alpha3) needs its price in \(storefront.currency)",
            at: metadata.price?.location ?? product.location,
            fix: SuggestedFix(fix),
            subject: product.id))
        return nil
    }

    /// Where to add missing fields: the product's metadata when it has some, the catalog's
    /// metadata plist when it has one, else a metadata plist made from the catalog first.
    static func metadataAdvice(_ keys: [String], _ product: Product, _ metadataFile: String?) -> String {
        let fields = list(keys.map { "<key>\($0)</key>" })
        if product.hasMetadata { return "add \(fields) to its metadata" }
        if let metadataFile { return "describe it in \(metadataFile) with \(fields)" }
        return "no metadata plist describes it: write one with `iap convert \(Escape.shellArgument(product.location.path, path: true)) -o Metadata.plist`, then add \(fields) to its entry"
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
