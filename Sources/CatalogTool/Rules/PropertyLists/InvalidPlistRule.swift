import Diagnostics

/// `invalid-plist`: a property list does not parse.
public enum InvalidPlistRule: Rule {
    public static let description = RuleDescription(
        id: "invalid-plist", name: "Invalid property list", severity: .error,
        rationale: "A property list that does not parse fails in Xcode and at run time; iap plist lint says where, the way plutil -lint does on a Mac.",
        triggering: [], nonTriggering: [])
}
