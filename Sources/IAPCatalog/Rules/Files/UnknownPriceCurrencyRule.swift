import Diagnostics

/// `unknown-price-currency`: a finding about a file, made while loading it: MetadataPlist and
/// StoreKitFile as they read each price, in the loader's one pass over the file; `LoadTimeRule`
/// hands it to the validator.
public enum UnknownPriceCurrencyRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-price-currency", name: "Price without a currency", severity: .info,
        rationale: "An amount without its currency cannot be formatted for any storefront, nor compared with another; a metadata plist names it with currency, a .storekit file with its storefront.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t↓<string>1.99</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t<string>1.99</string>\n\t\t\t<key>currency</key>\n\t\t\t<string>EUR</string>\n\t\t</dict>"),
        ])
}
