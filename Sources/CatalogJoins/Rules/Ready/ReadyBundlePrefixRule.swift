import Diagnostics
import IAPCatalog

/// `ready-bundle-prefix`: the code asks for an ID that App Store Connect has only with (or
/// without) the app's bundle prefix.
public enum ReadyBundlePrefixRule: ReadinessRule {
    public static let description = RuleDescription(
        id: "ready-bundle-prefix", name: "Product asked for with the wrong bundle prefix", severity: .error,
        rationale: "Product IDs are matched exactly: code that asks for 'com.acme.app.gold' gets nothing when App Store Connect's product is 'gold', and the other way round. The two differ by the app's bundle ID, a mistake made when a catalog or a tutorial's IDs are copied into another app.",
        triggering: [ASCExample.ready(code: #"let products = try await Product.products(for: ["com.acme.app.coins", ↓"com.acme.app.gold"])"#,
                                      ids: ["com.acme.app.coins"], remote: [.purchase("com.acme.app.coins", type: "CONSUMABLE"),
                                                                             .purchase("gold", type: "NON_CONSUMABLE")])],
        nonTriggering: [ASCExample.ready(code: #"let products = try await Product.products(for: ["com.acme.app.coins", "gold"])"#,
                                         ids: ["com.acme.app.coins"], remote: [.purchase("com.acme.app.coins", type: "CONSUMABLE"),
                                                                                .purchase("gold", type: "NON_CONSUMABLE")])])

    static func check(_ join: ReadinessJoin, into found: inout FindingCollector) {
        // An ID the catalog has too is asc-missing-product's, at the catalog's line, which names
        // the other ID: one finding for one cause. One finding an ID, at the first place asking.
        for (request, _) in join.firstRequests where join.remoteByID[request.id] == nil && join.catalogByID[request.id] == nil {
            guard let other = join.prefixVariant(of: request.id) else { continue }
            let with = other.count > request.id.count ? "with" : "without"
            found.add(at: request.location) {
                description.finding(
                    "\(Quote.bounded(request.id)) is asked for here, but App Store Connect (app \(join.appName)) has \(Quote.bounded(other)), \(with) the "
                        + "app's bundle prefix (\(join.drift.location(of: other))): a product request for \(Quote.bounded(request.id)) returns nothing",
                    at: request.location, related: [RelatedLocation(join.drift.location(of: other), "in App Store Connect")],
                    fix: SuggestedFix("ask for \(Quote.bounded(other)), the ID App Store Connect has"))
            }
        }
    }
}
