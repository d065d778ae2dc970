import Diagnostics

/// `invalid-metadata`: a finding about a file, made while loading it: MetadataPlist,
/// ProductListShapes and StoreKitFile as they read each value, in the loader's one pass over the
/// file; `LoadTimeRule` hands it to the validator.
public enum InvalidMetadataRule: Rule {
    public static let description = RuleDescription(
        id: "invalid-metadata", name: "Invalid metadata", severity: .error,
        rationale: "Metadata with a wrong type or a value out of range is metadata the tool cannot check; say so instead of ignoring it.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t↓<string>gadget</string>\n\t\t</dict>"),
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>price</key>\n\t\t\t↓<string>1,99</string>\n\t\t</dict>"),
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>priceStartDate</key>\n\t\t\t↓<string>2027-02-30</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>kind</key>\n\t\t\t<string>consumable</string>\n\t\t\t<key>price</key>\n\t\t\t<string>1.99</string>\n\t\t</dict>"),
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>price</key>\n\t\t\t<string>1.99</string>\n\t\t\t<key>currency</key>\n\t\t\t<string>USD</string>\n\t\t\t<key>priceStartDate</key>\n\t\t\t<string>2027-03-01</string>\n\t\t</dict>"),
        ])
}
