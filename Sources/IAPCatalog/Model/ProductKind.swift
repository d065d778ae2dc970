/// The four kinds of in-app purchase App Store Connect knows.
public enum ProductKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case consumable
    case nonConsumable = "non-consumable"
    case autoRenewable = "auto-renewable"
    case nonRenewing = "non-renewing"

    /// Words a person reads: "auto-renewable subscription".
    public var displayName: String {
        switch self {
        case .consumable: "consumable"
        case .nonConsumable: "non-consumable"
        case .autoRenewable: "auto-renewable subscription"
        case .nonRenewing: "non-renewing subscription"
        }
    }

    public var isSubscription: Bool { self == .autoRenewable || self == .nonRenewing }

    /// Parses the spellings used by our metadata, `.storekit` files (`NonConsumable`,
    /// `RecurringSubscription`, `NonRenewingSubscription`) and hand-written plists
    /// (`Non-Consumable`, `auto-renewable subscription`, …). Case, spaces, `-` and `_` are ignored.
    public init?(spelling: String) {
        // The spellings our metadata plists and .storekit files write, without normalizing.
        switch spelling {
        case "consumable", "Consumable": self = .consumable; return
        case "non-consumable", "NonConsumable": self = .nonConsumable; return
        case "auto-renewable", "RecurringSubscription": self = .autoRenewable; return
        case "non-renewing", "NonRenewingSubscription": self = .nonRenewing; return
        default: break
        }
        let key = String(spelling.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic })
        switch key {
        case "consumable": self = .consumable
        case "nonconsumable": self = .nonConsumable
        case "autorenewable", "autorenewablesubscription", "autorenewing", "recurringsubscription", "recurring",
             "autorenewingsubscription":
            self = .autoRenewable
        case "nonrenewing", "nonrenewingsubscription", "nonrenewable", "nonrenewablesubscription":
            self = .nonRenewing
        default: return nil
        }
    }

    private var order: Int { ProductKind.allCases.firstIndex(of: self)! }
    public static func < (lhs: ProductKind, rhs: ProductKind) -> Bool { lhs.order < rhs.order }
}
