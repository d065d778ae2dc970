/// What an App Store Connect "Product Type Identifier" code means.
///
/// The table is Apple's, "Product type identifiers", App Store Connect Help
/// (https://developer.apple.com/help/app-store-connect/reference/product-type-identifiers):
/// the codes used in sales and financial reports. `IAC` (free subscription) comes from Apple's
/// older reporting instructions and still appears in old reports. A code not in the table is kept
/// as written and shown as unknown (rule `unknown-product-type`).
public struct ProductType: Sendable, Hashable {
    /// What kind of transaction a code stands for.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        case app = "app"
        case appBundle = "app bundle"
        case update = "update"
        case redownload = "re-download"
        case inAppPurchase = "in-app purchase"
        case restoredInAppPurchase = "restored in-app purchase"
        case nonRenewingSubscription = "non-renewing subscription"
        case autoRenewableSubscription = "auto-renewable subscription"
        case unknown = "unknown"

        /// True for the in-app purchase categories, which a product catalog describes.
        public var isInAppPurchase: Bool {
            switch self {
            case .inAppPurchase, .restoredInAppPurchase, .nonRenewingSubscription, .autoRenewableSubscription: true
            default: false
            }
        }
    }

    public var code: String
    public var category: Category
    /// Apple's description of the code ("In-App Purchase (Mac)").
    public var description: String

    public var isKnown: Bool { category != .unknown }

    /// The code's meaning; unknown codes keep their spelling.
    public init(code: String) {
        if let known = ProductType.table[code] {
            self = known
        } else {
            self.init(code: code, category: .unknown, description: "not in Apple's product type table")
        }
    }

    private init(code: String, category: Category, description: String) {
        self.code = code
        self.category = category
        self.description = description
    }

    /// Apple's table, code by code.
    public static let all: [ProductType] = [
        ProductType(code: "1", category: .app, description: "Free or paid app (iOS, iPadOS, visionOS, watchOS)"),
        ProductType(code: "1-B", category: .appBundle, description: "App bundle (iOS, iPadOS, visionOS)"),
        ProductType(code: "F1-B", category: .appBundle, description: "App bundle (Mac)"),
        ProductType(code: "1E", category: .app, description: "Paid app: custom iOS app"),
        ProductType(code: "1EP", category: .app, description: "Paid app: custom iPadOS app"),
        ProductType(code: "1EU", category: .app, description: "Paid app: custom universal app"),
        ProductType(code: "1F", category: .app, description: "Free or paid app: universal, excluding tvOS"),
        ProductType(code: "1T", category: .app, description: "Free or paid app: iPad"),
        ProductType(code: "3", category: .redownload, description: "Re-download (iOS, tvOS, visionOS, watchOS)"),
        ProductType(code: "3F", category: .redownload, description: "Re-download: universal, excluding tvOS"),
        ProductType(code: "7", category: .update, description: "Update (iOS, tvOS, visionOS, watchOS)"),
        ProductType(code: "7F", category: .update, description: "Update: universal, excluding tvOS"),
        ProductType(code: "7T", category: .update, description: "Update (iPadOS, visionOS)"),
        ProductType(code: "F1", category: .app, description: "Free or paid app (Mac)"),
        ProductType(code: "F7", category: .update, description: "Update (Mac)"),
        ProductType(code: "FI1", category: .inAppPurchase, description: "In-App Purchase (Mac)"),
        ProductType(code: "IA1", category: .inAppPurchase, description: "In-App Purchase (iOS, iPadOS, visionOS)"),
        ProductType(code: "IA1-M", category: .inAppPurchase, description: "In-App Purchase (Mac)"),
        ProductType(code: "IA3", category: .restoredInAppPurchase, description: "Restored In-App Purchase: non-consumable"),
        ProductType(code: "IA9", category: .nonRenewingSubscription, description: "Non-renewing subscription (iOS, iPadOS, visionOS)"),
        ProductType(code: "IA9-M", category: .nonRenewingSubscription, description: "Subscription (Mac)"),
        ProductType(code: "IAY", category: .autoRenewableSubscription, description: "Auto-renewable subscription (iOS, iPadOS, visionOS)"),
        ProductType(code: "IAY-M", category: .autoRenewableSubscription, description: "Auto-renewable subscription (Mac)"),
        ProductType(code: "IAC", category: .autoRenewableSubscription, description: "Free subscription (older reports)"),
    ]

    private static let table: [String: ProductType] = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
}
