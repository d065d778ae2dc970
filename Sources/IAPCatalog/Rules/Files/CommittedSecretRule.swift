import Diagnostics

/// `committed-secret`: a finding about a file, made while loading it: SecretScanner, over each file
/// read, in the loader's one pass over the file; `LoadTimeRule` hands it to the validator.
public enum CommittedSecretRule: Rule {
    public static let description = RuleDescription(
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
}
