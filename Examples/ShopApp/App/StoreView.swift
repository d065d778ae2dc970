import StoreKit

/// The shop's buttons. One price is written into the code: `iap check` finds it.
struct StoreView {
    func buttonTitle(for product: Product) -> String {
        if product.id == ProductID.pro {
            return "Go Pro for $4.99"
        }
        return product.displayName + " " + product.displayPrice
    }

    func load() async throws -> [Product] {
        try await Product.products(for: ProductID.all)
    }
}
