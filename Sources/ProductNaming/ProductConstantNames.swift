import IAPCatalog

/// The Swift name of each product's constant, as `iap gen` writes it and `iap lint` suggests it
/// (`ProductID.proMonthly`): the reference name, or the shortest run of the ID's last segments
/// that no other product's ID ends with, made a valid identifier. Its own module so that the
/// linter has the names without the generator (and its templates).
public enum ProductConstantNames {
    /// Member names the generated type already uses, by `iap gen`'s style.
    public static let reservedInConstants: Set<String> = ["all", "consumables", "nonConsumables", "autoRenewableSubscriptions", "nonRenewingSubscriptions"]
    // `case `init`` is accepted by the compiler: it does not clash with `init(rawValue:)`.
    public static let reservedInEnum: Set<String> = ["kind", "allCases", "rawValue", "Kind"]

    /// Names several products would share (or that the type already has), each with the products
    /// that get it and where they are.
    public struct Collisions: Error, Sendable, Equatable {
        public var byName: [String: [String]]
    }

    /// One Swift name per product, in catalog order; names that collide (after sanitising, with
    /// each other or with `reserved`) throw, or with `disambiguate` get `_2`, `_3`.
    public static func names(for products: [Product], reserved: Set<String>, disambiguate: Bool) throws(Collisions) -> [String] {
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
        let colliding = byName.filter { $0.value.count > 1 || reserved.contains($0.key) }
        guard !colliding.isEmpty else { return names }
        if !disambiguate {
            var report: [String: [String]] = [:]
            for (name, indices) in colliding {
                report[name] = indices.map { "\(products[$0].id) (\(products[$0].location))" }
                    + (reserved.contains(name) ? ["the generated type's own '\(name)'"] : [])
            }
            throw Collisions(byName: report)
        }
        var taken = Set(names.map(SwiftIdentifier.bare)).union(reserved)
        for (name, indices) in colliding.sorted(by: { $0.key < $1.key }) {
            let start = reserved.contains(name) ? 0 : 1
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
}
