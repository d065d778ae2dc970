import Diagnostics
import Foundation
import IAPCatalog

/// What `iap gen` generates and how.
public struct GenerationOptions: Sendable {
    public enum Style: String, Sendable, CaseIterable {
        /// `enum ProductID` with one `static let` per product, `all`, per-kind sets, group enums.
        case constants
        /// `enum Product: String, CaseIterable, Sendable` with a `kind` property.
        case `enum`
    }

    public enum Access: String, Sendable, CaseIterable {
        case `internal`, `public`, package
    }

    public var style: Style
    public var typeName: String
    public var access: Access
    /// Suffix colliding names (`_2`, `_3`) instead of failing.
    public var disambiguate: Bool

    public init(style: Style = .constants, typeName: String? = nil, access: Access = .internal, disambiguate: Bool = false) {
        self.style = style
        self.typeName = typeName ?? (style == .constants ? "ProductID" : "Product")
        self.access = access
        self.disambiguate = disambiguate
    }
}

/// Why code could not be generated, in words that say what to do.
public enum GenerationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Several products get the same Swift name: each name with every product and where it is.
    case collisions([String: [String]])
    case invalidTypeName(String)
    case noProducts

    public var description: String {
        switch self {
        case .collisions(let byName):
            let lines = byName.keys.sorted().map { name in "  '\(name)': " + byName[name]!.joined(separator: ", ") }
            return "products would share a Swift name (rename them, set distinct reference names, or pass --disambiguate):\n"
                + lines.joined(separator: "\n")
        case .invalidTypeName(let name):
            return "'\(name)' is not a valid Swift type name"
        case .noProducts:
            return "the catalog has no products: an enum with no cases cannot have String raw values (use --style constants)"
        }
    }
}

/// Generates Swift source from a catalog: deterministic, escaped, Swift 6 clean.
public struct CodeGenerator: Sendable {
    public var options: GenerationOptions

    public init(options: GenerationOptions = GenerationOptions()) {
        self.options = options
    }

    /// Member names the generated type already uses.
    var reservedNames: Set<String> {
        switch options.style {
        case .constants: ["all", "consumables", "nonConsumables", "autoRenewableSubscriptions", "nonRenewingSubscriptions"]
        // `case `init`` is accepted by the compiler: it does not clash with `init(rawValue:)`.
        case .enum: ["kind", "allCases", "rawValue", "Kind"]
        }
    }

    /// One Swift name per product, in catalog order: the reference name, or the shortest run of
    /// the ID's last segments that no other product's ID ends with.
    public func names(for products: [Product]) throws(GenerationError) -> [String] {
        let segments = products.map { $0.id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init) }
        // The shortest unique suffix of segments, level by level: count every product's suffix of
        // length `take` once, settle those whose suffix is unique, go on with the rest.
        var take = [Int](repeating: 0, count: products.count)
        var pending = Array(products.indices.filter { products[$0].metadata.referenceName?.value.isEmpty ?? true })
        var level = 1
        while !pending.isEmpty {
            var counts: [ArraySlice<String>: Int] = [:]
            for i in products.indices { counts[segments[i].suffix(level), default: 0] += 1 }
            pending = pending.filter { i in
                if counts[segments[i].suffix(level)] == 1 || level >= segments[i].count {
                    take[i] = max(level, 1)
                    return false
                }
                return true
            }
            level += 1
        }
        var names: [String] = []
        for (i, product) in products.enumerated() {
            if let reference = product.metadata.referenceName?.value, !reference.isEmpty {
                names.append(SwiftIdentifier.make(from: reference))
            } else {
                names.append(SwiftIdentifier.make(from: segments[i].suffix(take[i]).joined(separator: " ")))
            }
        }
        // Collisions after sanitising, with each other and with the type's own members.
        var byName: [String: [Int]] = [:]
        for (i, name) in names.enumerated() { byName[SwiftIdentifier.bare(name), default: []].append(i) }
        let colliding = byName.filter { $0.value.count > 1 || reservedNames.contains($0.key) }
        guard !colliding.isEmpty else { return names }
        if !options.disambiguate {
            var report: [String: [String]] = [:]
            for (name, indices) in colliding {
                report[name] = indices.map { "\(products[$0].id) (\(products[$0].location))" }
                    + (reservedNames.contains(name) ? ["the generated type's own '\(name)'"] : [])
            }
            throw .collisions(report)
        }
        var taken = Set(names.map(SwiftIdentifier.bare)).union(reservedNames)
        for (name, indices) in colliding.sorted(by: { $0.key < $1.key }) {
            let start = reservedNames.contains(name) ? 0 : 1
            for (k, index) in indices.enumerated() where k >= start {
                var n = k + 1
                var candidate = "\(name)_\(n)"
                while taken.contains(candidate) { n += 1; candidate = "\(name)_\(n)" }
                taken.insert(candidate)
                names[index] = candidate
            }
        }
        return names
    }

    /// The whole file. `sources` are the catalog files named in the header (relative paths).
    public func generate(_ catalog: Catalog, sources: [String]) throws(GenerationError) -> String {
        let typeName = options.typeName
        guard SwiftIdentifier.make(from: typeName, upper: true) == typeName || typeName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
              let first = typeName.first, first.isLetter || first == "_", !SwiftIdentifier.keywords.contains(typeName) else {
            throw .invalidTypeName(typeName)
        }
        let products = catalog.products
        if options.style == .enum && products.isEmpty { throw .noProducts }
        let names = try names(for: products)
        var out = "// Generated by `iap gen` from the in-app purchase catalog. Do not edit: regenerate.\n"
        out += "// Sources:\n"
        for source in sources { out += "//   \(SwiftString.comment(source))\n" }
        out += "\n// swiftlint:disable all\n\n"
        switch options.style {
        case .constants: out += constants(products, names)
        case .enum: out += enumeration(products, names)
        }
        return out
    }

    private var access: String { options.access == .internal ? "" : options.access.rawValue + " " }

    private func docComment(_ product: Product, indent: String) -> String {
        var parts: [String] = []
        if let name = product.displayName { parts.append(name) }
        parts.append(product.kind?.displayName ?? "kind unknown")
        if let price = product.metadata.price?.value {
            parts.append(price.description)
        }
        if let period = product.metadata.subscriptionPeriod?.value { parts.append("every \(period)") }
        return indent + "/// " + SwiftString.comment(parts.joined(separator: ", ")) + "\n"
    }

    private func constants(_ products: [Product], _ names: [String]) -> String {
        let type = options.typeName
        var out = "/// The catalog's product IDs, in catalog order.\n"
        out += "\(access)enum \(type) {\n"
        for (product, name) in zip(products, names) {
            out += docComment(product, indent: "    ")
            out += "    \(access)static let \(name) = \(SwiftString.literal(product.id))\n\n"
        }
        out += "    /// Every product ID, in catalog order.\n"
        out += "    \(access)static let all: [String] = [" + names.joined(separator: ", ") + "]\n"
        let kinds: [(String, ProductKind)] = [("consumables", .consumable), ("nonConsumables", .nonConsumable),
                                              ("autoRenewableSubscriptions", .autoRenewable), ("nonRenewingSubscriptions", .nonRenewing)]
        for (property, kind) in kinds {
            let members = zip(products, names).filter { $0.0.kind == kind }.map(\.1)
            out += "    \(access)static let \(property): Set<String> = [" + members.joined(separator: ", ") + "]\n"
        }
        // Subscription groups, in catalog order, each with its products in catalog order.
        var groups: [String] = []
        var members: [String: [String]] = [:]
        for (product, name) in zip(products, names) {
            guard let group = product.metadata.subscriptionGroup?.value else { continue }
            if members[group] == nil { groups.append(group) }
            members[group, default: []].append(name)
        }
        if !groups.isEmpty {
            out += "\n    /// Subscription groups, each with its products in catalog order.\n"
            out += "    \(access)enum Groups {\n"
            var used = Set<String>()
            for group in groups {
                var name = SwiftIdentifier.make(from: group, upper: true, fallback: "Group")
                var n = 2
                while used.contains(name) { name = SwiftIdentifier.make(from: group, upper: true, fallback: "Group") + "_\(n)"; n += 1 }
                used.insert(name)
                out += "        /// \(SwiftString.comment(group))\n"
                out += "        \(access)enum \(name) {\n"
                out += "            \(access)static let name = \(SwiftString.literal(group))\n"
                out += "            \(access)static let all: [String] = [" + members[group]!.map { "\(type).\($0)" }.joined(separator: ", ") + "]\n"
                out += "        }\n"
            }
            out += "    }\n"
        }
        out += "}\n"
        return out
    }

    private func enumeration(_ products: [Product], _ names: [String]) -> String {
        let type = options.typeName
        var out = "/// The catalog's products, in catalog order; the raw value is the product ID.\n"
        out += "\(access)enum \(type): String, CaseIterable, Sendable {\n"
        for (product, name) in zip(products, names) {
            out += docComment(product, indent: "    ")
            out += "    case \(name) = \(SwiftString.literal(product.id))\n"
        }
        out += """

            /// The four kinds of in-app purchase, or `unknown` where the catalog does not say.
            \(access)enum Kind: String, Sendable {
                case consumable, nonConsumable, autoRenewableSubscription, nonRenewingSubscription, unknown
            }

            /// This product's kind.
            \(access)var kind: Kind {
                switch self {

        """
        let kindCase: (ProductKind?) -> String = {
            switch $0 {
            case .consumable: ".consumable"
            case .nonConsumable: ".nonConsumable"
            case .autoRenewable: ".autoRenewableSubscription"
            case .nonRenewing: ".nonRenewingSubscription"
            case nil: ".unknown"
            }
        }
        if products.isEmpty {
            out += "        }\n"
        } else {
            for (product, name) in zip(products, names) { out += "        case .\(name): \(kindCase(product.kind))\n" }
        }
        out += "        }\n    }\n}\n"
        return out
    }
}
