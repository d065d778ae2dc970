import AppStoreConnect
import Diagnostics
import IAPCatalog

/// A product ID the app's code asks for (lint's product-ID flow finds it), and where.
public struct CodeRequest: Sendable, Hashable {
    public var id: String
    public var location: SourceLocation

    public init(id: String, location: SourceLocation) {
        self.id = id
        self.location = location
    }
}

/// Will it sell? For every product the catalog lists and every product ID the code asks for, one
/// verdict per place a product request can be answered: the Xcode StoreKit configuration, the
/// sandbox (and TestFlight), and the App Store in each storefront asked about. The causes are
/// findings of `ReadinessRules` (and of the drift rules `asc-missing-product` and
/// `asc-product-not-ready`, which say why App Store Connect lacks or withholds a product).
///
/// What the snapshot cannot show stays out of the verdict and is said so in docs/readiness.md:
/// agreements, tax and banking (the Paid Apps Agreement), the app's own state, and the delay
/// before a newly approved product is served.
public struct Readiness: Sendable {
    /// Where a product request is answered.
    public enum Place: Sendable, Hashable, CustomStringConvertible {
        /// Xcode's StoreKit testing with the catalog's `.storekit` configuration.
        case storeKit
        /// The sandbox and TestFlight: App Store Connect's products that are not withheld.
        case sandbox
        /// The App Store, in a storefront (alpha-3), or in any when nil.
        case appStore(String?)

        public var description: String {
            switch self {
            case .storeKit: "StoreKit"
            case .sandbox: "sandbox"
            case .appStore(let storefront): storefront.map { "App Store \($0)" } ?? "App Store"
            }
        }
    }

    /// One product at one place.
    public enum Verdict: Sendable, Equatable {
        case served
        /// Not served, with the cause in a few words (the findings say more).
        case notServed(String)
        /// The snapshot does not say (what to pull to know).
        case unknown(String)

        public var word: String {
            switch self {
            case .served: "yes"
            case .notServed: "no"
            case .unknown: "?"
            }
        }
    }

    /// One product ID: where the app asks for it, and its verdict at each of `places`.
    public struct Row: Sendable {
        public var id: String
        /// The first place the code asks for it, else the product list that lists it.
        public var askedBy: SourceLocation?
        public var inCatalog: Bool
        public var verdicts: [Verdict]
    }

    public let places: [Place]
    public let rows: [Row]
    let join: ReadinessJoin

    /// The storefront that stands for every territory the snapshot names (`--storefront all`).
    public static let everyStorefront = "all"

    /// The App Store columns `storefronts` asks for: each, `everyStorefront` standing for every
    /// territory the snapshot names for a product (in an availability, or with a price), each once.
    public static func storefronts(_ storefronts: [String], in snapshot: ASCSnapshot) -> [String] {
        var seen: Set<String> = []
        return storefronts.flatMap { $0 == everyStorefront ? ReadinessJoin.everyTerritory(in: snapshot) : [$0] }.filter { seen.insert($0).inserted }
    }

    /// `storefronts`: the App Store columns (none: the snapshot's storefront, else one column
    /// for the App Store anywhere; `everyStorefront`: every territory the snapshot names).
    /// `elsewhere`: the product IDs of the repository's other catalogs (another app's, a dev
    /// build's): code that names one asks for that app's product, not this one's.
    public init(catalog: Catalog, drift: DriftCheck, requests: [CodeRequest], storefronts: [String] = [], elsewhere: Set<String> = []) {
        let columns = storefronts.isEmpty ? [drift.snapshot.storefront] : Self.storefronts(storefronts, in: drift.snapshot).map { Optional($0) }
        // Not an ask of this app: another catalog's ID, or the start of an ID built at run time
        // (`"com.acme.app." + tier`: it ends with a separator).
        let own = Set(catalog.products.map(\.id))
        let asked = requests.filter { request in
            guard let last = request.id.unicodeScalars.last, !".-_".unicodeScalars.contains(last) else { return false }
            return own.contains(request.id) || !elsewhere.contains(request.id)
        }
        let join = ReadinessJoin(catalog: catalog, drift: drift, requests: asked, storefronts: columns.compactMap { $0 })
        self.join = join
        var places: [Place] = join.storeKitIDs == nil ? [] : [.storeKit]
        places.append(.sandbox)
        places += columns.map { .appStore($0) }
        self.places = places
        rows = join.ids.map { id in
            Row(id: id, askedBy: join.askedBy(id), inCatalog: join.catalogByID[id] != nil, verdicts: places.map { join.verdict(id, at: $0) })
        }
    }

    /// The findings that say why, each rule's capped at `findingsPerRule`: the drift rules that
    /// say App Store Connect lacks or withholds a product, then `ReadinessRules`.
    public func findings(findingsPerRule: Int? = 100) -> [Diagnostic] {
        var told: [any DriftRule.Type] = []
        for rule in ASCRules.rules where rule.saysWhyNotServed { told.append(rule) }
        let drift = join.drift.check(join.catalog, rules: told, findingsPerRule: findingsPerRule)
        return drift + ruleFindings(inCheck: false, findingsPerRule: findingsPerRule)
    }

    /// The readiness rules' findings alone (`iap check` has the drift rules' already); `inCheck`
    /// leaves out those of rules whose finding lint's in the same run says already.
    public func ruleFindings(inCheck: Bool, findingsPerRule: Int? = 100) -> [Diagnostic] {
        ReadinessRules.rules.filter { !inCheck || $0.runsInCheck }.flatMap { rule in
            var found = FindingCollector(limit: findingsPerRule)
            rule.check(join, into: &found)
            return found.findings(of: rule.description)
        }
    }

    /// The rows the app asks for (in code, or in a product list it loads) that the App Store will
    /// not serve in a storefront asked about: what makes `iap asc ready` exit 1.
    public var askedForAndNotServed: [Row] {
        rows.filter { row in
            row.askedBy != nil && zip(places, row.verdicts).contains { place, verdict in
                if case .appStore = place, case .notServed = verdict { return true }
                return false
            }
        }
    }
}
