import Diagnostics

/// `dict-rooted-id-list`: a finding about a file, made while loading it: ProductListShapes when an
/// ID list has a `<dict>` root, in the loader's one pass over the file; `LoadTimeRule` hands it to
/// the validator.
public enum DictRootedIDListRule: Rule {
    public static let description = RuleDescription(
        id: "dict-rooted-id-list", name: "Dict-rooted ID list", severity: .warning,
        rationale: "Code that reads IAP_ProductIDs.plist as [String] gets nil from a <dict> root and loads no products; real projects ship this bug.",
        triggering: [
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.plist("↓<dict>\n\t<key>Item 0</key>\n\t<string>com.acme.app.coins</string>\n</dict>"))]),
        ],
        nonTriggering: [
            RuleExample.ids("com.acme.app.coins"),
            RuleExample([ExampleFile("ProductList.plist", RuleExample.plist("<dict>\n\t<key>coins</key>\n\t<string>com.acme.app.coins</string>\n</dict>"))]),
        ])
}
