import Diagnostics
import IAPCatalog

/// `ready-unknown-product`: the code asks for a product ID that no catalog and App Store Connect has.
public enum ReadyUnknownProductRule: ReadinessRule {
    public static let description = RuleDescription(
        id: "ready-unknown-product", name: "Product asked for that exists nowhere", severity: .error,
        rationale: "A product ID the app's code asks StoreKit for (or compares a product's ID with) that is in no catalog and not in App Store Connect is never returned, in Xcode's StoreKit testing, the sandbox or the App Store: the app's list comes back without it. An ID App Store Connect has with or without the app's bundle prefix is ready-bundle-prefix.",
        triggering: [ASCExample.ready(code: #"let products = try await Product.products(for: [↓"com.acme.app.gold"])"#, ids: ["com.acme.app.coins"],
                                      remote: [.purchase("com.acme.app.coins", type: "CONSUMABLE")])],
        nonTriggering: [ASCExample.ready(code: #"let products = try await Product.products(for: ["com.acme.app.coins"])"#, ids: ["com.acme.app.coins"],
                                         remote: [.purchase("com.acme.app.coins", type: "CONSUMABLE")])])

    /// In `iap check`, lint's `unknown-product-id` reports the same literal (not in the catalog).
    static let runsInCheck = false

    static func check(_ join: ReadinessJoin, into found: inout FindingCollector) {
        // One finding an ID, at the first place that asks for it: one cause, one fix.
        for (request, more) in join.firstRequests where join.catalogByID[request.id] == nil && join.remoteByID[request.id] == nil
            && join.prefixVariant(of: request.id) == nil {
            found.add(at: request.location) {
                description.finding(
                    "\(Quote.bounded(request.id)) is asked for here\(more > 0 ? " (and in \(more) more \(more == 1 ? "place" : "places"))" : ""), but no catalog has it "
                        + "and App Store Connect (app \(join.appName), \(join.drift.path)) does not either: no product request returns it",
                    at: request.location,
                    fix: SuggestedFix("correct the ID, or create the product in App Store Connect and add it to the catalog"))
            }
        }
    }
}
