import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog
import PriceFormatting

/// A price-points rule: its description, and its check of the catalog's declared prices against
/// App Store Connect's price points. `PricePointCheck` runs each rule `PricePointRules.rules` lists.
protocol PricePointRule: Rule {
    static func check(_ join: PriceJoin, into found: inout FindingCollector)
}

/// A price the catalog declares, in the territory it is for.
struct DeclaredPrice {
    var product: Product
    var kind: PricePoints.Kind
    var territory: String
    var price: Located<ProductPrice>
    /// The product's base price (its single `price`), when this is a manual price of another territory.
    var base: (territory: String, price: Decimal)?
    /// An introductory or promotional offer's price.
    var isOffer = false
}

/// The catalog's declared prices beside the price-points file: what every price-points rule reads.
struct PriceJoin {
    let catalog: Catalog
    let points: PricePoints
    /// The file as given, for messages.
    let path: String
    let limits: [String: Int]
    let formatter = PriceFormatter()

    /// The territory a declared price is for: its storefront, else the one storefront of its
    /// currency (USD: USA, the base App Store Connect proposes); nil when the currency has several (EUR).
    static func territory(of price: ProductPrice) -> String? {
        if let storefront = price.storefront { return storefront }
        guard let currency = price.currency else { return nil }
        if currency == "USD" { return "USA" }
        let using = Storefronts.all.filter { $0.currency == currency }
        return using.count == 1 ? using[0].alpha3 : nil
    }

    /// Every price the catalog declares with the territory it is for: each product's price, and
    /// its per-storefront prices (each with the base it could be equalized from).
    var declared: [DeclaredPrice] {
        var out: [DeclaredPrice] = []
        for product in catalog.products {
            let kind: PricePoints.Kind = product.kind == .autoRenewable ? .subscriptions : .inAppPurchases
            let metadata = product.metadata
            var base: (String, Decimal)?
            if let price = metadata.price, let territory = Self.territory(of: price.value) {
                out.append(DeclaredPrice(product: product, kind: kind, territory: territory, price: price))
                base = (territory, price.value.amount)
                // An offer's price is in the product's currency: a point of the same ladder. A free
                // trial has none.
                var offers: [(Decimal?, SourceLocation)] = []
                if let intro = metadata.introductoryOffer, intro.paymentMode != .freeTrial { offers.append((intro.price, intro.location)) }
                for promo in metadata.promotionalOffers where promo.paymentMode != .freeTrial { offers.append((promo.price, promo.location)) }
                for case let (amount?, location) in offers {
                    let offer = ProductPrice(amount: amount, currency: price.value.currency, storefront: territory)
                    out.append(DeclaredPrice(product: product, kind: kind, territory: territory, price: Located(offer, at: location), isOffer: true))
                }
            }
            for price in metadata.storefrontPrices {
                guard let territory = Self.territory(of: price.value), territory != base?.0 || price.value.amount != base?.1 else { continue }
                out.append(DeclaredPrice(product: product, kind: kind, territory: territory, price: price, base: base.map { ($0.0, $0.1) }))
            }
        }
        return out
    }

    /// A price as customers in `territory` see it (`¥160`, `4,99 €`), else its digits.
    func shown(_ amount: Decimal, in territory: String) -> String {
        formatter.string(amount, storefront: territory) ?? PricePoints.text(amount)
    }
}

/// The catalog's declared prices checked against App Store Connect's price points (a file
/// `iap asc pull --price-points` wrote): each rule of `PricePointRules`.
public struct PricePointCheck: Sendable {
    public let points: PricePoints
    public let path: String

    public init(points: PricePoints, path: String) {
        self.points = points
        self.path = path
    }

    /// The findings for one catalog, each rule's capped at `findingsPerRule`; `limits` are
    /// `iap.yml`'s `rules.ID.limit` values.
    public func check(_ catalog: Catalog, limits: [String: Int] = [:], findingsPerRule: Int? = 100) -> [Diagnostic] {
        let join = PriceJoin(catalog: catalog, points: points, path: path, limits: limits)
        return PricePointRules.rules.flatMap { rule in
            var found = FindingCollector(limit: findingsPerRule)
            rule.check(join, into: &found)
            return found.findings(of: rule.description)
        }
    }
}
