import Diagnostics

public struct KindContradictsIDRule: CatalogRule, Rule {
    public static let description = RuleDescription(
        id: "kind-contradicts-id", name: "Kind contradicts the ID", severity: .warning,
        rationale: "An ID that says 'consumable' for a product declared non-consumable confuses every reader and often hides a wrong declaration.",
        triggering: [.metadata(RuleExample.product("com.acme.app.consumable.coins", "<key>kind</key>↓<string>non-consumable</string>"))],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.consumable.coins", kindField("consumable")))])

    /// Only explicit kind words count: `pro` or `monthly` are hints, `consumable` is a statement.
    static let explicit: [String: ProductKind] = [
        "consumable": .consumable, "consumables": .consumable, "nonconsumable": .nonConsumable,
        "nonconsumables": .nonConsumable, "nonrenewing": .nonRenewing, "autorenewable": .autoRenewable,
    ]

    /// Every explicit word holds "consumable" or "renew": most IDs are ruled out by one byte scan.
    static func mayStateKind(_ id: String) -> Bool {
        let lower = id.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        func contains(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard lower.count >= w.count else { return false }
            return (0...(lower.count - w.count)).contains { i in lower[i..<(i + w.count)].elementsEqual(w) }
        }
        return contains("consumable") || contains("renew")
    }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        for product in catalog.products {
            guard let kind = product.kind, case .declared(let location, _) = product.kindReason,
                  Self.mayStateKind(product.id) else { continue }
            let words = KindInference.tokens(product.id)
            // "nonconsumable" contains the pair "non"+"consumable": the most specific word wins.
            let stated = Self.explicit.filter { words.contains($0.key) }.max { $0.key.count < $1.key.count }
            guard let stated, stated.value != kind else { continue }
            found.add(at: location) { finding("\(Quote.bounded(product.id)) is declared \(kind.displayName) but its ID says '\(stated.key)'", at: location) }
        }
    }
}
