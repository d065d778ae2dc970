import Diagnostics

public struct UndeclaredKindRule: CatalogRule, Rule {
    /// Above this many undeclared products, one summary instead of one finding each.
    static let summaryThreshold = 100

    public static let description = RuleDescription(
        id: "undeclared-kind", name: "Kind not declared", severity: .info,
        rationale: "A kind guessed from words can be wrong; declare it in metadata or a .storekit file so generated code and reports are sure.",
        triggering: [
            .ids("↓com.acme.app.extra_lives"), .ids("↓com.acme.app.thing"),
            RuleExample([ExampleFile("IAP_ProductIDs.plist", RuleExample.idList(["↓com.acme.app.coins0"] + (1...100).map { "com.acme.app.coins\($0)" }))]),
        ],
        nonTriggering: [.metadata(RuleExample.product("com.acme.app.extra_lives", kindField("consumable")))])

    /// Among the slowest rules on a large catalog: started fourth (`CatalogRule.schedulingRank`).
    public var schedulingRank: Int? { 3 }

    public func check(_ catalog: Catalog, options: ValidationOptions, into found: inout FindingCollector) {
        let undeclared = catalog.products.filter { !$0.kindReason.isDeclared }
        if undeclared.count > Self.summaryThreshold {
            let inferred = undeclared.filter { $0.kind != nil }.count
            let first = undeclared.prefix(3).map { "'" + $0.id + "'" }.joined(separator: ", ")
            found.add(finding("\(undeclared.count) products have no declared kind (\(inferred) inferred from words, \(undeclared.count - inferred) unknown), first \(first); declare kinds in a metadata plist or .storekit file",
                              at: undeclared[0].location))
            return
        }
        for product in undeclared {
            found.add(at: product.location) {
                switch product.kindReason {
                case .inferred(let words, let source) where product.kindReason.isGuess:
                    let quoted = words.map { "'" + $0 + "'" }.joined(separator: ", ")
                    return finding("kind of '" + product.id + "' is a guess: " + product.kind!.displayName + " from " + quoted + " in " + source
                                   + ", a word one-time unlocks and subscriptions both use; declare the kind in metadata", at: product.location)
                case .inferred(let words, let source):
                    let quoted = words.map { "'" + $0 + "'" }.joined(separator: ", ")
                    return finding("kind of '" + product.id + "' is " + product.kind!.displayName + ", inferred from " + quoted
                                   + " in " + source + "; declare it in metadata", at: product.location)
                default:
                    return finding("kind of \(Quote.bounded(product.id)) is unknown: nothing declares it and no word of its ID tells; declare it in metadata",
                                   at: product.location)
                }
            }
        }
    }
}
