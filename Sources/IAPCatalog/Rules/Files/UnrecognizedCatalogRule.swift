import Diagnostics

/// `unrecognized-catalog`: a finding about a file, made while loading it: CatalogFileReader when a
/// file named on the command line has no shape a loader understands, in the loader's one pass over
/// the file; `LoadTimeRule` hands it to the validator.
public enum UnrecognizedCatalogRule: Rule {
    public static let description = RuleDescription(
        id: "unrecognized-catalog", name: "Not a product list", severity: .error,
        rationale: "A file named on the command line whose shape no loader understands would silently yield an empty catalog. A folder walk passes plists that are not catalogs over instead (--verbose says why).",
        triggering: [
            RuleExample([ExampleFile("Products.plist", RuleExample.plist("↓<dict>\n\t<key>items</key>\n\t<array/>\n</dict>"))]),
            RuleExample([ExampleFile("Products.plist", RuleExample.plist("↓<array>\n\t<dict>\n\t\t<key>Name</key>\n\t\t<string>Candy</string>\n\t</dict>\n</array>"))]),
        ],
        nonTriggering: [RuleExample.ids("com.acme.app.coins")])
}
