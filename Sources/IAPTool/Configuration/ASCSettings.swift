import AppStoreConnect

/// `iap.yml`'s `asc:` section.
public struct ASCSettings: Sendable, Equatable {
    /// The snapshot `iap check` compares the catalog with (`asc diff`), resolved from the file's folder.
    public var snapshot: String?
    /// Whether `iap check` also plans the catalog against `snapshot` (`iap asc plan`'s findings).
    public var plan = false
    /// The app `iap asc pull` reads when `--app` is not given: a bundle ID or an Apple ID.
    public var app: String?
    /// The storefront whose prices and introductory offers `iap asc pull` reads.
    public var storefront: String?
    /// The price-points file `iap asc pull --price-points` writes and the price rules read.
    public var pricePoints: String?
    /// The environment variables the key is read from.
    public var variables = APIKey.Variables()

    public init() {}

    /// Where `pull --price-points` writes beside `snapshot`: `App.snapshot.json` →
    /// `App.snapshot.price-points.json`.
    public static func pricePointsPath(beside snapshot: String) -> String {
        (snapshot.lowercased().hasSuffix(".json") ? String(snapshot.dropLast(5)) : snapshot) + ".price-points.json"
    }
}
