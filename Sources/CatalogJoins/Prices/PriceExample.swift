import AppStoreConnect
import Diagnostics
import Foundation
import IAPCatalog

/// Examples of the price-points rules: a metadata plist beside a small price-points file named
/// `pricePointsName` (a few points in USA, GBR and JPN, and the equalization of 4.99 USD).
public enum PriceExample {
    public static let pricePointsName = "price-points.json"

    static let file: String = {
        func ladder(_ currency: String, _ prices: [String]) -> PricePoints.Ladder {
            PricePoints.Ladder(currency: currency, points: prices.map { PricePoints.Point(price: Decimal(string: $0)!, proceeds: nil) })
        }
        let ladders: [String: PricePoints.Ladder] = [
            "USA": ladder("USD", ["0.99", "1.99", "2.99", "3.99", "4.99", "5.99"]),
            "GBR": ladder("GBP", ["0.89", "1.79", "2.69", "3.49", "4.49", "4.99", "5.49"]),
            "JPN": ladder("JPY", ["150", "300", "450", "600", "750", "900"]),
        ]
        let equalized = PricePoints.Equalization(territory: "USA", price: Decimal(string: "4.99")!,
                                                 prices: ["GBR": Decimal(string: "4.49")!, "JPN": 750])
        return PricePoints(app: ASCSnapshot.App(id: "6450000000", bundleId: "com.acme.app", name: "Acme"),
                           ladders: [.inAppPurchases: ladders, .subscriptions: ladders],
                           equalizations: [.inAppPurchases: [equalized], .subscriptions: [equalized]]).encoded()
    }()

    /// `body`: the product's keys in a metadata plist (`RuleExample.product`'s).
    public static func priced(_ id: String, _ fields: String...) -> RuleExample {
        RuleExample([ExampleFile("Metadata.plist", RuleExample.metadataPlist(
            "\t\t<key>\(id)</key>\n\t\t<dict>\n" + fields.map { "\t\t\t" + $0 }.joined(separator: "\n") + "\n\t\t</dict>")),
                     ExampleFile(pricePointsName, file)], bundleID: "com.acme.app")
    }
}
