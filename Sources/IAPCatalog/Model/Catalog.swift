import Diagnostics

/// The nine shapes of product-ID plist found in real projects.
public enum ListShape: String, Sendable, Hashable, CaseIterable, Codable {
    case arrayOfIDs = "array-of-ids"
    case arrayOfDicts = "array-of-dicts"
    case idToValue = "id-to-value"
    case nameToID = "name-to-id"
    case productsAndSubscriptions = "products-and-subscriptions"
    case productsArrayOfDicts = "products-array-of-dicts"
    case singleProduct = "single-product"
    case idToMetadata = "id-to-metadata"
    case mkStoreKit = "mkstorekit"

    /// What the shape looks like, for `iap list --verbose`.
    public var summary: String {
        switch self {
        case .arrayOfIDs: "<array> of ID strings"
        case .arrayOfDicts: "<array> of product dicts keyed by an ID key"
        case .idToValue: "<dict> of ID → display value (Apple's SKDemo)"
        case .nameToID: "<dict> of name → ID"
        case .productsAndSubscriptions: "<dict> with Products IDs and Subscriptions groups (StoreHelper)"
        case .productsArrayOfDicts: "<dict> with Products: <array> of dicts with an ID"
        case .singleProduct: "a single product <dict>"
        case .idToMetadata: "<dict> of ID → metadata dict"
        case .mkStoreKit: "MKStoreKit config (Consumables / Non-Consumables / Subscriptions / Others)"
        }
    }
}

/// What a file of a catalog turned out to be.
public enum CatalogFileContent: Sendable, Hashable {
    case productList(ListShape)
    case metadata
    case storeKit(version: String, storefront: String?, locale: String?)
    /// An `Info.plist`: the bundle ID it gives, if any.
    case bundleInfo(String?)
    /// `RetiredProductIDs.plist`: IDs deleted from App Store Connect that must not come back.
    case retiredList
    /// Read, but not a product list; the reason names what was seen.
    case notACatalog(String)
    /// Could not be read (malformed XML or JSON, I/O error).
    case unreadable(String)

    public var label: String {
        switch self {
        case .productList(let shape): "product list (\(shape.rawValue))"
        case .metadata: "metadata"
        case .storeKit(let version, let storefront, let locale):
            "storekit v\(version)" + (storefront.map { ", storefront \($0)" } ?? "") + (locale.map { ", locale \($0)" } ?? "")
        case .bundleInfo(let id): "Info.plist" + (id.map { " (\($0))" } ?? "")
        case .retiredList: "retired product IDs"
        case .notACatalog: "not a catalog"
        case .unreadable: "unreadable"
        }
    }
}

/// One file of a catalog and what it held.
public struct CatalogFile: Sendable, Hashable {
    public var path: String
    public var content: CatalogFileContent
    public var productCount: Int
    /// A `.storekit` file synced from App Store Connect by Xcode (its settings carry
    /// `_applicationInternalID` or `_lastSynchronizedDate`): what it holds, App Store Connect
    /// has already accepted.
    public var syncedFromAppStoreConnect = false
    /// The shared Xcode schemes whose Run action names this `.storekit` file as its StoreKit
    /// configuration (their paths, sorted): what Xcode's StoreKit testing reads when the app runs.
    public var runBySchemes: [String] = []

    public init(path: String, content: CatalogFileContent, productCount: Int) {
        self.path = path
        self.content = content
        self.productCount = productCount
    }
}

/// The files of one app's catalog, their products merged by ID, and what loading found wrong.
public struct Catalog: Sendable {
    /// The folder the catalog was found in, or the files' common folder.
    public var name: String
    public var files: [CatalogFile]
    public var bundleID: Located<String>?
    public var products: [Product]
    /// Findings made while reading (malformed files, unknown shapes, secrets, bad metadata).
    public var loadDiagnostics: [Diagnostic]
    /// IDs listed in the catalog's `RetiredProductIDs.plist`, with where.
    public var retiredIDs: [String: SourceLocation]
    /// Locales the metadata plist says every product needs (`requiredLocales`).
    public var requiredLocales: [String]
    /// What the app is called (its Xcode targets' and `Info.plist`'s names), when known.
    public var appNames: [String] = []

    public init(name: String, files: [CatalogFile], bundleID: Located<String>?, products: [Product],
                loadDiagnostics: [Diagnostic], retiredIDs: [String: SourceLocation] = [:], requiredLocales: [String] = []) {
        self.name = name
        self.files = files
        self.bundleID = bundleID
        self.products = products
        self.loadDiagnostics = loadDiagnostics
        self.retiredIDs = retiredIDs
        self.requiredLocales = requiredLocales
    }

    /// The products some source gives metadata for, in catalog order: what rules about names,
    /// prices and periods look at (in a million-ID list, none).
    public var describedProducts: [Product] { products.filter(\.hasMetadata) }

    /// Whether any file gives product metadata (our metadata plist or a `.storekit` file).
    public var hasMetadataSource: Bool {
        files.contains { if case .metadata = $0.content { true } else if case .storeKit = $0.content { true } else { false } }
    }

    /// Whether any file is a product-ID list.
    public var hasProductList: Bool {
        files.contains { if case .productList = $0.content { true } else { false } }
    }
}
