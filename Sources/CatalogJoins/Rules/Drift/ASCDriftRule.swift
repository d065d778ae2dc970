import Diagnostics

/// `asc-drift`: the catalog and App Store Connect describe a product differently.
public enum ASCDriftRule: Rule {
    public static let description = RuleDescription(
        id: "asc-drift", name: "Catalog differs from App Store Connect", severity: .warning,
        rationale: "What App Store Connect holds is what StoreKit serves: a kind, subscription period, group, level, family-sharing flag or localized text that differs from the catalog means the paywall, the generated constants or the StoreKit test configuration describe a product the store does not sell. The message names the field and both places.",
        triggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro", marked: true),
                                      remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_YEAR")])],
        nonTriggering: [ASCExample.drift(metadata: ASCExample.product("com.acme.app.pro.monthly", kind: "auto-renewable", period: "P1M", group: "Pro"),
                                         remote: [.subscription("com.acme.app.pro.monthly", group: "Pro", period: "ONE_MONTH")])])
}
