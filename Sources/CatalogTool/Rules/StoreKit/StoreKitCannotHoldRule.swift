import Diagnostics
import IAPCatalog

/// `storekit-cannot-hold`: a fact of the catalog has no place in a StoreKit configuration.
public enum StoreKitCannotHoldRule: Rule {
    public static let description = RuleDescription(
        id: "storekit-cannot-hold", name: "StoreKit configuration cannot hold a fact", severity: .warning,
        rationale: "A fact of the catalog that a StoreKit configuration has no place for (a period, group or offer on a product that is not an auto-renewable subscription) would be dropped from the generated file; iap storekit says so instead of dropping it silently.",
        triggering: [], nonTriggering: [])

    /// Facts of the catalog that a product of this kind cannot carry in the file.
    static func check(_ product: Product, kind: ProductKind, into findings: inout [Diagnostic]) {
        let metadata = product.metadata
        var lost: [(String, SourceLocation)] = []
        if kind != .autoRenewable {
            if let period = metadata.subscriptionPeriod { lost.append(("a subscription period \(period.value)", period.location)) }
            if let group = metadata.subscriptionGroup { lost.append(("the subscription group \(Quote.bounded(group.value))", group.location)) }
            if let level = metadata.groupLevel { lost.append(("the group level \(level.value)", level.location)) }
            if let offer = metadata.introductoryOffer { lost.append(("an introductory offer", offer.location)) }
            if let offer = metadata.promotionalOffers.first { lost.append(("promotional offers", offer.location)) }
            if let offer = metadata.winBackOffers.first { lost.append(("win-back offers", offer.terms.location)) }
            if let code = metadata.offerCodes.first { lost.append(("offer codes", code.terms.location)) }
        }
        for (fact, location) in lost {
            findings.append(description.finding(
                "\(Quote.bounded(product.id)) is \(kind.displayName) and has \(fact): a StoreKit configuration gives that only to auto-renewable subscriptions, so it is not written",
                at: location, subject: product.id))
        }
        // App Store Connect's facts a StoreKit configuration has no field for, whatever the kind.
        var elsewhere: [(String, SourceLocation)] = []
        if let note = metadata.reviewNote { elsewhere.append(("a review note", note.location)) }
        if let availability = metadata.availability { elsewhere.append(("an availability", availability.location)) }
        if let start = metadata.priceStartDate { elsewhere.append(("a price start date \(start.value)", start.location)) }
        if kind == .autoRenewable, let custom = metadata.offerCodes.lazy.flatMap(\.customCodes).first {
            elsewhere.append(("the custom offer code \(Quote.bounded(custom.code))", custom.location))
        }
        if kind == .autoRenewable, let offer = metadata.winBackOffers.first {
            findings.append(description.finding(
                "\(Quote.bounded(product.id)) has win-back offers: iap does not write them into a StoreKit configuration yet, so they are left out (the metadata plist keeps them)",
                at: offer.terms.location, subject: product.id))
        }
        for (fact, location) in elsewhere {
            findings.append(description.finding(
                "\(Quote.bounded(product.id)) has \(fact): a StoreKit configuration has no place for it, so it is not written (the metadata plist keeps it)",
                at: location, subject: product.id))
        }
    }
}
