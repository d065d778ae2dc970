import Diagnostics

/// `unknown-metadata-key`: a finding about a file, made while loading it: MetadataPlist as it reads
/// each key, in the loader's one pass over the file; `LoadTimeRule` hands it to the validator.
public enum UnknownMetadataKeyRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-metadata-key", name: "Unknown metadata key", severity: .warning,
        rationale: "A key the metadata format does not know is ignored; it is usually a typo of one it does (refernceName), so the value it holds is never checked.",
        triggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t↓<key>refernceName</key>\n\t\t\t<string>Coins</string>\n\t\t</dict>"),
        ],
        nonTriggering: [
            .metadata("\t\t<key>com.acme.app.coins</key>\n\t\t<dict>\n\t\t\t<key>referenceName</key>\n\t\t\t<string>Coins</string>\n\t\t</dict>"),
        ])
}
