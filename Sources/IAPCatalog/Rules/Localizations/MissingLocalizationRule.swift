import Diagnostics

public struct MissingLocalizationRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "missing-localization", name: "Missing localization", severity: .warning,
        rationale: "A product without a localization for a locale you ship shows another language's name there. Locales come from --require-locale.",
        triggering: [
            .metadata("\t\t↓<key>com.acme.app.coins</key>\n\t\t<dict><key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict></dict>",
                      requiredLocales: ["en-US", "de-DE"]),
            RuleExample([ExampleFile("Metadata.plist", RuleExample.plist("<dict>\n\t<key>IAPCatalogMetadata</key>\n\t<integer>1</integer>\n\t<key>requiredLocales</key>\n\t<array><string>en-US</string><string>fr-FR</string></array>\n\t<key>products</key>\n\t<dict>\n\t\t↓<key>com.acme.app.coins</key>\n\t\t<dict><key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Coins</string></dict></dict></dict>\n\t</dict>\n</dict>"))]),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.coins", "<key>localizations</key><dict><key>en_US</key><dict><key>displayName</key><string>Coins</string></dict></dict>"),
                                  requiredLocales: ["en-US"])])

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let required = options.requiredLocales + catalog.requiredLocales.filter { !options.requiredLocales.contains($0) }
        guard !required.isEmpty else { return }
        for product in catalog.products where product.hasMetadataSource {
            let have = Set(product.metadata.localizations.map { Localization.key($0.locale) })
            for locale in required where !have.contains(Localization.key(locale)) {
                found.add(at: product.location) { finding("\(Quote.bounded(product.id)) has no \(locale) localization", at: product.location) }
            }
        }
    }
}
