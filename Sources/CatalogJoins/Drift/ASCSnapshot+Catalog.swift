import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

extension ASCSnapshot {
    /// The snapshot as a catalog, for the writers of `.storekit` files and metadata plists: each
    /// product with its kind, reference name, localizations, family sharing, and — in the
    /// snapshot's storefront — price and introductory offer; subscriptions with group, level and
    /// period. Every value is located at its product's line in the snapshot file (`text`).
    public func catalog(path: String, text: String) -> Catalog {
        let lines = DriftCheck.productLines(text, path: path)
        func located(_ id: String) -> SourceLocation { lines[id] ?? SourceLocation(path: path) }
        func price(_ price: Price?) -> ProductPrice? {
            guard let price, let amount = price.decimal else { return nil }
            return ProductPrice(amount: amount, currency: price.currency, storefront: storefront)
        }
        func localizations(_ list: [Localization], _ at: SourceLocation) -> [IAPCatalog.Localization] {
            list.map { IAPCatalog.Localization(locale: $0.locale, displayName: $0.name, description: $0.description, location: at) }
        }
        func occurrence(_ id: String, kind: ProductKind, declaredBy: String, _ fill: (inout ProductMetadata, SourceLocation) -> Void) -> ProductOccurrence {
            let at = located(id)
            var occurrence = ProductOccurrence(id: id, location: at, role: .storeKit)
            occurrence.declaredKind = Located(kind, at: at)
            occurrence.declaredBy = declaredBy
            var metadata = ProductMetadata()
            metadata.kind = Located(kind, at: at)
            fill(&metadata, at)
            occurrence.metadata = metadata
            return occurrence
        }
        var occurrences: [ProductOccurrence] = []
        for p in inAppPurchases {
            let kind: ProductKind = switch p.type {
            case "CONSUMABLE": .consumable
            case "NON_RENEWING_SUBSCRIPTION": .nonRenewing
            default: .nonConsumable
            }
            occurrences.append(occurrence(p.productId, kind: kind, declaredBy: "App Store Connect type \(p.type ?? "?")") { m, at in
                m.referenceName = p.name.map { Located($0, at: at) }
                m.localizations = localizations(p.localizations, at)
                m.price = price(p.price).map { Located($0, at: at) }
                m.familyShareable = p.familySharable
            })
        }
        for group in subscriptionGroups {
            for s in group.subscriptions {
                occurrences.append(occurrence(s.productId, kind: .autoRenewable, declaredBy: "App Store Connect subscription") { m, at in
                    m.referenceName = s.name.map { Located($0, at: at) }
                    m.localizations = localizations(s.localizations, at)
                    m.price = price(s.price).map { Located($0, at: at) }
                    m.familyShareable = s.familySharable
                    m.subscriptionGroup = group.referenceName.map { Located($0, at: at) }
                    m.groupLevel = s.groupLevel.map { Located($0, at: at) }
                    m.subscriptionPeriod = s.period.flatMap(DriftCheck.period).map { Located($0, at: at) }
                    if let offer = s.introductoryOffer, let mode = Self.paymentMode(offer.mode),
                       let period = offer.duration.flatMap(DriftCheck.offerDuration) {
                        m.introductoryOffer = IAPCatalog.IntroductoryOffer(paymentMode: mode, period: period, numberOfPeriods: offer.periods ?? 1,
                                                                price: offer.price?.decimal, location: at)
                    }
                })
            }
        }
        let products = occurrences.map { o in
            Product(id: o.id, occurrences: [o], kind: o.declaredKind?.value, kindReason: .declared(o.location, o.declaredBy ?? ""),
                    metadata: o.metadata ?? ProductMetadata())
        }
        let file = CatalogFile(path: path, content: .metadata, productCount: products.count)
        return Catalog(name: path, files: [file], bundleID: app.bundleId.map { Located($0, at: SourceLocation(path: path)) },
                       products: products, loadDiagnostics: [])
    }

    static func paymentMode(_ mode: String) -> PaymentMode? {
        switch mode {
        case "FREE_TRIAL": .freeTrial
        case "PAY_AS_YOU_GO": .payAsYouGo
        case "PAY_UP_FRONT": .payUpFront
        default: nil
        }
    }
}
