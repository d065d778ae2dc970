import Diagnostics

/// The rules whose findings the loader makes while reading files. Every load-time finding is
/// made from one of these descriptions (`LoadRules.x.finding(…)`).
public enum LoadRules {
    public static let malformedCatalog = RuleDescription(
        id: "malformed-catalog", name: "Malformed catalog file", severity: .error,
        rationale: "A catalog file that does not parse ships no products; Xcode and StoreKit fail on it at run time.",
        triggering: [
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("<array>\n\t<string>com.acme.app.coins</strin>↓\n</array>"))]),
            RuleExample([ExampleFile("Products.storekit", "{ \"products\" : [ ↓}")]),
            RuleExample([ExampleFile("Empty.storekit", "↓")]),
        ],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])

    public static let unrecognizedCatalog = RuleDescription(
        id: "unrecognized-catalog", name: "Not a product list", severity: .error,
        rationale: "A file named on the command line whose shape no loader understands would silently yield an empty catalog. A folder walk passes plists that are not catalogs over instead (--verbose says why).",
        triggering: [
            RuleExample([ExampleFile("Products.plist", RuleExample.plist("↓<dict>\n\t<key>items</key>\n\t<array/>\n</dict>"))]),
            RuleExample([ExampleFile("Products.plist", RuleExample.plist("↓<array>\n\t<dict>\n\t\t<key>Name</key>\n\t\t<string>Candy</string>\n\t</dict>\n</array>"))]),
        ],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])

    public static let invalidMetadata = RuleDescription(
        id: "invalid-metadata", name: "Invalid metadata", severity: .error,
        rationale: "Metadata with a wrong type or a value out of range is metadata the tool cannot check; say so instead of ignoring it.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t↓<string>gadget</string>\n\t\t</dict>"),
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>price</key>\n\t\t\t↓<string>1,99</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t<string>1.99</string>\n\t\t</dict>"),
        ])

    public static let unknownMetadataKey = RuleDescription(
        id: "unknown-metadata-key", name: "Unknown metadata key", severity: .warning,
        rationale: "A key the metadata format does not know is ignored; it is usually a typo of one it does (refernceName), so the value it holds is never checked.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t↓<key>refernceName</key>\n\t\t\t<string>Coins</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>referenceName</key>\n\t\t\t<string>Coins</string>\n\t\t</dict>"),
        ])

    public static let unknownPriceCurrency = RuleDescription(
        id: "unknown-price-currency", name: "Price without a currency", severity: .info,
        rationale: "An amount without its currency cannot be formatted for any storefront, nor compared with another; a metadata plist names it with currency, a .storekit file with its storefront.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t↓<string>1.99</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t<string>1.99</string>\n\t\t\t<key>currency</key>\n\t\t\t<string>EUR</string>\n\t\t</dict>"),
        ])

    public static let emptyProductList = RuleDescription(
        id: "empty-product-list", name: "Empty product list", severity: .warning,
        rationale: "An empty list makes the app request no products: the store screen stays empty.",
        triggering: [RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("↓<array/>"))])],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])

    public static let dictRootedIDList = RuleDescription(
        id: "dict-rooted-id-list", name: "Dict-rooted ID list", severity: .warning,
        rationale: "Code that reads IAP_ProductIDs.plist as [String] gets nil from a <dict> root and loads no products; real projects ship this bug.",
        triggering: [
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("↓<dict>\n\t<key>Item 0</key>\n\t<string>com.acme.app.coins</string>\n</dict>"))]),
        ],
        nonTriggering: [
            RuleExample.ids("com.acme.app.coins"),
            RuleExample([ExampleFile("ProductList.plist", RuleExample.plist("<dict>\n\t<key>coins</key>\n\t<string>com.acme.app.coins</string>\n</dict>"))]),
        ])

    public static let unresolvedBundleID = RuleDescription(
        id: "unresolved-bundle-id", name: "Unresolved bundle ID", severity: .warning,
        rationale: "Info.plist often holds $(PRODUCT_BUNDLE_IDENTIFIER); iap expands it from the Xcode project and .xcconfig files, and says so when it cannot, since without the real bundle ID prefixes cannot be checked. Only a catalog with products needs it.",
        triggering: [
            RuleExample([
                ExampleFile("Info.plist", RuleExample.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t↓<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</dict>")),
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ]),
        ],
        nonTriggering: [
            RuleExample([
                ExampleFile("Info.plist", RuleExample.plist("<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>com.acme.app</string>\n</dict>")),
                ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["com.acme.app.coins"])),
            ]),
        ])

    public static let committedSecret = RuleDescription(
        id: "committed-secret", name: "Committed secret", severity: .error,
        rationale: "An App Store shared secret or an offer-signing private key in a repository lets anyone act as your app; real public repos ship both.",
        triggering: [
            RuleExample([ExampleFile("MKStoreKitConfigs.plist", RuleExample.plist("<dict>\n\t<key>Others</key>\n\t<array>\n\t\t<string>com.acme.app.pro</string>\n\t</array>\n\t<key>SharedSecret</key>\n\t↓<string>749a1ca3750a421fa92cf8e139a6f539</string>\n</dict>"))]),
            RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "2X9R4HXF34", marked: true))]),
        ],
        nonTriggering: [
            RuleExample([ExampleFile("MKStoreKitConfigs.plist", RuleExample.plist("<dict>\n\t<key>Others</key>\n\t<array>\n\t\t<string>com.acme.app.pro</string>\n\t</array>\n</dict>"))]),
            RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "98EEF22A"))]),
        ])

    public static let localOfferKey = RuleDescription(
        id: "local-offer-key", name: "Xcode's local offer-signing key", severity: .info,
        rationale: "Xcode generates a key (an 8-digit hex key ID) to sign promotional offers when testing with a .storekit file; it is not an App Store Connect key and needs no revoking. A key imported from App Store Connect is committed-secret.",
        triggering: [RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "98EEF22A", marked: true))])],
        nonTriggering: [RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "2X9R4HXF34"))])])

    public static let all: [RuleDescription] = [malformedCatalog, unrecognizedCatalog, invalidMetadata, unknownMetadataKey, unknownPriceCurrency, emptyProductList, dictRootedIDList, unresolvedBundleID, committedSecret, localOfferKey]
}

extension CatalogRules {
    /// Findings about whole files, made while loading them.
    static let fileRules: [any CatalogRule] = LoadRules.all.map(LoadTimeRule.init)
}

/// Small `.storekit` files for rule examples.
enum StoreKitExample {
    /// A configuration with one product and an offer-signing key with this key ID; `marked`
    /// puts `↓` on the key's line.
    static func keyPair(id: String, marked: Bool = false) -> String {
        """
        {
          "products" : [
            {
              "productID" : "com.acme.app.pro",
              "referenceName" : "Pro",
              "type" : "NonConsumable"
            }
          ],
          "subscriptionOffersKeyPair" : {
            "id" : "\(id)",
        \(marked ? "↓" : "")    "privateKey" : "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg-example"
          },
          "version" : { "major" : 4, "minor" : 0 }
        }
        """
    }
}

extension Catalog {
    /// The findings that say a file of the catalog could not be read as a catalog file at all
    /// (`malformed-catalog`, `unrecognized-catalog`): its products are missing from the catalog,
    /// so commands that use the products (`gen`, `list`) must not carry on as if it were whole.
    public var unreadableFileFindings: [Diagnostic] {
        loadDiagnostics.filter { CatalogRules.unreadableFileRules.contains($0.ruleID) }
    }
}

extension CatalogRules {
    /// The rules whose findings mean a file could not be read.
    static let unreadableFileRules: Set<String> = [LoadRules.malformedCatalog.id, LoadRules.unrecognizedCatalog.id]
}
