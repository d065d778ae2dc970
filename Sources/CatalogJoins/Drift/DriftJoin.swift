import AppStoreConnect
import Diagnostics
import IAPCatalog

/// A drift rule: its description, and its check over the catalog and the snapshot side by side.
/// `DriftCheck` runs each rule `ASCRules.rules` lists; a rule names no other.
protocol DriftRule: Rule {
    static func check(_ join: DriftJoin, into found: inout FindingCollector)
    /// Whether its findings say why App Store Connect lacks or withholds a product, so that
    /// `iap asc ready` reports them with the readiness rules'.
    static var saysWhyNotServed: Bool { get }
}

extension DriftRule {
    static var saysWhyNotServed: Bool { false }
}

/// The catalog and the snapshot side by side: what every drift rule reads.
struct DriftJoin {
    let catalog: Catalog
    let drift: DriftCheck
    /// Every product of the snapshot, in-app purchases then subscriptions, in the snapshot's order.
    let remotes: [(id: String, remote: DriftCheck.Remote)]
    /// The first of `remotes` with each ID.
    let byID: [String: DriftCheck.Remote]

    init(catalog: Catalog, drift: DriftCheck) {
        self.catalog = catalog
        self.drift = drift
        remotes = drift.remotes
        var byID: [String: DriftCheck.Remote] = [:]
        for (id, remote) in remotes where byID[id] == nil { byID[id] = remote }
        self.byID = byID
    }

    var snapshot: ASCSnapshot { drift.snapshot }
    /// The snapshot file as given.
    var path: String { drift.path }
    var appName: String { drift.appName }
    func location(of productID: String) -> SourceLocation { drift.location(of: productID) }
}
