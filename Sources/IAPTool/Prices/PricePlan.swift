import AppStoreConnect
import Diagnostics
import Foundation
import PriceFormatting
import Support

/// `iap price plan`: from a base price, the price in every storefront, snapped to that
/// storefront's App Store Connect price points: Apple's equalization of the base price, or that
/// times a multiplier per storefront (a purchasing-power index). Deterministic: the same file,
/// base and multipliers give the same plan.
public struct PricePlan: Sendable {
    /// How a target between two points is snapped.
    public enum Rounding: String, Sendable, CaseIterable {
        /// The nearest point; halfway, the lower one.
        case nearest
        /// The highest point not above the target, so the customer never pays more than the plan
        /// (the lowest point when every point is above it).
        case down
    }

    public struct Row: Sendable, Equatable {
        public var territory: String
        public var currency: String?
        public var price: Decimal
        public var proceeds: Decimal?
        public var equalized: Decimal
        public var multiplier: Decimal?
    }

    public var kind: PricePoints.Kind
    public var baseTerritory: String
    public var basePrice: Decimal
    public var multipliers: [String: Decimal]?
    public var rounding: Rounding
    /// The storefronts to plan (nil: every territory of the ladders).
    public var storefronts: [String]?

    public init(kind: PricePoints.Kind, baseTerritory: String, basePrice: Decimal, multipliers: [String: Decimal]? = nil,
                rounding: Rounding = .nearest, storefronts: [String]? = nil) {
        self.kind = kind
        self.baseTerritory = baseTerritory
        self.basePrice = basePrice
        self.multipliers = multipliers
        self.rounding = rounding
        self.storefronts = storefronts
    }

    /// The point `rounding` picks for `target` on `ladder`.
    public static func snap(_ target: Decimal, on ladder: PricePoints.Ladder, _ rounding: Rounding) -> PricePoints.Point? {
        let (below, above) = ladder.neighbours(of: target)
        if let exact = ladder.point(target) { return exact }
        switch rounding {
        case .down:
            return below ?? above
        case .nearest:
            guard let below else { return above }
            guard let above else { return below }
            return target - below.price <= above.price - target ? below : above
        }
    }

    /// The plan's rows, storefront by storefront (alpha-3 order), and the storefronts left out
    /// with why. Fails when the base is not a point or the file has no equalization of it.
    public func rows(_ points: PricePoints, path: String) throws(ToolFailure) -> (rows: [Row], leftOut: [String]) {
        guard let ladders = points.ladders[kind], let baseLadder = ladders[baseTerritory] else {
            throw .cannotRun("\(path) has no \(kind == .subscriptions ? "subscription" : "in-app purchase") price points in \(baseTerritory): "
                             + "pull them with `iap asc pull --price-points`")
        }
        let shownBase = PricePoints.text(basePrice)
        guard baseLadder.point(basePrice) != nil else {
            let (below, above) = baseLadder.neighbours(of: basePrice)
            let near = [below, above].compactMap { $0.map { PricePoints.text($0.price) } }.joined(separator: " and ")
            throw .usage("\(shownBase) is not an App Store Connect price point in \(baseTerritory)" + (near.isEmpty ? "" : "; the nearest are \(near)"))
        }
        guard let equalization = points.equalization(kind, territory: baseTerritory, price: basePrice) else {
            throw .cannotRun("\(path) has no equalization of \(shownBase) in \(baseTerritory): pull it with "
                             + "`iap asc pull --price-points --equalize \(baseTerritory):\(shownBase)`")
        }
        var rows: [Row] = []
        var leftOut: [String] = []
        let wanted = storefronts.map(Set.init)
        for (territory, ladder) in ladders.sorted(by: { $0.key < $1.key }) where wanted?.contains(territory) ?? true {
            let equalized = territory == baseTerritory ? basePrice : equalization.prices[territory]
            guard let equalized else {
                leftOut.append("\(territory): no equalization of the base price in the file")
                continue
            }
            let multiplier = territory == baseTerritory ? nil : multipliers?[territory]
            let target = equalized * (multiplier ?? 1)
            guard let point = Self.snap(target, on: ladder, rounding) else {
                leftOut.append("\(territory): no price points")
                continue
            }
            rows.append(Row(territory: territory, currency: ladder.currency, price: point.price, proceeds: point.proceeds,
                            equalized: equalized, multiplier: multiplier))
        }
        for territory in (storefronts ?? []).sorted() where ladders[territory] == nil {
            leftOut.append("\(territory): no price points in the file")
        }
        return (rows, leftOut)
    }

    /// Multipliers from CSV text: `TERRITORY,MULTIPLIER` a line (alpha-3 or alpha-2 codes; a
    /// first line that is not one is a header), `#` comments. A line that cannot be read is an
    /// error naming the file, the line and what to do.
    public static func multipliers(csv text: String, path: String) throws(ToolFailure) -> [String: Decimal] {
        var found: [String: Decimal] = [:]
        var first = true
        // "\r\n" is one Character in Swift: each line end is a separator.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).enumerated() {
            let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r\u{FEFF}")).trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            defer { first = false }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let at = "\(path):\(index + 1)"
            guard cells.count == 2 else {
                throw .usage("\(at): expected TERRITORY,MULTIPLIER (like JPN,0.8), found \(Quote.bounded(line))")
            }
            guard let storefront = try? Storefronts.find(cells[0]) else {
                if first { continue } // a header: territory,multiplier
                throw .usage("\(at): \(Quote.bounded(cells[0])) is not one of the App Store's 175 storefronts (`iap storefronts` lists them)")
            }
            guard ValueCheckDecimal.isPlainDecimal(cells[1]), let value = Decimal(string: cells[1], locale: Locale(identifier: "en_US_POSIX")),
                  value > 0, value <= 100 else {
                throw .usage("\(at): the multiplier \(Quote.bounded(cells[1])) is not a number above 0 and at most 100 (like 0.8)")
            }
            guard found[storefront.alpha3] == nil else { throw .usage("\(at): \(storefront.alpha3) has a multiplier already") }
            found[storefront.alpha3] = value
        }
        return found
    }
}

/// Digits with at most one point: what a multiplier or a price is written as (no sign, exponent or grouping).
enum ValueCheckDecimal {
    static func isPlainDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in !part.isEmpty && part.count <= 12 && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        return (parts.count == 1 || parts.count == 2) && parts.allSatisfy(digits)
    }
}
