import Diagnostics

/// `local-offer-key`: a finding about a file, made while loading it: StoreKitFile as it reads the
/// offer-signing key, in the loader's one pass over the file; `LoadTimeRule` hands it to the
/// validator.
public enum LocalOfferKeyRule: Rule {
    public static let description = RuleDescription(
        id: "local-offer-key", name: "Xcode's local offer-signing key", severity: .info,
        rationale: "Xcode generates a key (an 8-digit hex key ID) to sign promotional offers when testing with a .storekit file; it is not an App Store Connect key and needs no revoking. A key imported from App Store Connect is committed-secret.",
        triggering: [RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "98EEF22A", marked: true))])],
        nonTriggering: [RuleExample([ExampleFile("Products.storekit", StoreKitExample.keyPair(id: "2X9R4HXF34"))])])
}
