import StoreKit

// A shop screen written the way many tutorials write it. `iap lint` reports every smell below;
// Examples/StoreDemo shows the same screen done right.
@MainActor
final class ShopViewController {
    var titleText = ""
    var priceText = ""
    var cartTotal = 0.0

    func load() async throws {
        let products = try await Product.products(for: ["com.appcoda.fakegame.extra-lives", "com.appcoda.fakegame.superpower"])
        titleText = "Extra Lives"
        priceText = "Only $0.99!"
        for product in products {
            let amount = Double(truncating: product.price as NSDecimalNumber)
            cartTotal += amount
        }
    }

    func formatted(_ price: Decimal) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        return formatter.string(from: price as NSDecimalNumber) ?? ""
    }

    func plain(_ price: Decimal) -> String {
        String(format: "%.2f", NSDecimalNumber(decimal: price).doubleValue)
    }

    // iap:disable:next hardcoded-price - the App Store screenshot build shows US prices on purpose
    let screenshotPrice = "$4.99"
}
