import Diagnostics
import Foundation
import Support

/// App Store Connect's price points, offline: for in-app purchases and for subscriptions, each
/// territory's ladder (every customer price App Store Connect accepts there, with its proceeds),
/// and Apple's equalizations of the base prices the app uses. `iap asc pull --price-points`
/// writes it beside the snapshot; the price rules and `iap price plan` read it.
public struct PricePoints: Sendable, Equatable {
    public static let formatName = "iap-price-points"
    public static let currentVersion = 1
    /// More points than a territory has (about 800) or territories than the App Store has (175):
    /// a file past them is not App Store Connect's.
    public static let maxPointsPerTerritory = 10_000
    public static let maxTerritories = 400

    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case inAppPurchases
        case subscriptions

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// One point: what the customer pays, and what the developer is paid.
    public struct Point: Sendable, Equatable {
        public var price: Decimal
        public var proceeds: Decimal?

        public init(price: Decimal, proceeds: Decimal?) {
            self.price = price
            self.proceeds = proceeds
        }
    }

    /// A territory's ladder, ascending.
    public struct Ladder: Sendable, Equatable {
        public var currency: String?
        public var points: [Point]

        public init(currency: String?, points: [Point]) {
            self.currency = currency
            self.points = points
        }

        /// The index of the first point not below `price` (binary search: the ladder ascends).
        private func lowerBound(_ price: Decimal) -> Int {
            var low = 0, high = points.count
            while low < high {
                let middle = (low + high) / 2
                if points[middle].price < price { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The point at `price`, exactly.
        public func point(_ price: Decimal) -> Point? {
            let index = lowerBound(price)
            return index < points.count && points[index].price == price ? points[index] : nil
        }

        /// The points just below and just above `price` (either nil at the ladder's ends).
        public func neighbours(of price: Decimal) -> (below: Point?, above: Point?) {
            var index = lowerBound(price)
            let below = index > 0 ? points[index - 1] : nil
            if index < points.count, points[index].price == price { index += 1 }
            return (below, index < points.count ? points[index] : nil)
        }
    }

    /// A base price, and the price Apple's equalization gives it in each other territory.
    public struct Equalization: Sendable, Equatable {
        public var territory: String
        public var price: Decimal
        public var prices: [String: Decimal]

        public init(territory: String, price: Decimal, prices: [String: Decimal]) {
            self.territory = territory
            self.price = price
            self.prices = prices
        }
    }

    public var app: ASCSnapshot.App
    public var ladders: [Kind: [String: Ladder]]
    public var equalizations: [Kind: [Equalization]]

    public init(app: ASCSnapshot.App, ladders: [Kind: [String: Ladder]], equalizations: [Kind: [Equalization]]) {
        self.app = app
        self.ladders = ladders
        self.equalizations = equalizations
    }

    /// The equalization of `price` in `territory`, when the file holds it.
    public func equalization(_ kind: Kind, territory: String, price: Decimal) -> Equalization? {
        equalizations[kind]?.first { $0.territory == territory && $0.price == price }
    }

    /// A decimal as App Store Connect writes it (`0.99`, `160`): its digits, in the POSIX locale.
    public static func text(_ value: Decimal) -> String {
        // `Decimal`'s description is its digits with a '.', in no locale.
        value.description
    }

    /// The file: JSON with keys sorted, one territory's ladder a line, a final newline; the same
    /// bytes for the same points whatever order App Store Connect answered in.
    public func encoded() -> String {
        var out = "{\n  \"app\" : " + Self.json(app) + ",\n  \"equalizations\" : {"
        let kinds = Kind.allCases.sorted()
        var firstKind = true
        for kind in kinds {
            out += (firstKind ? "\n" : ",\n") + "    \"\(kind.rawValue)\" : ["
            firstKind = false
            let list = (equalizations[kind] ?? []).sorted { ($0.territory, $0.price) < ($1.territory, $1.price) }
            out += list.enumerated().map { n, e in
                let prices = e.prices.sorted { $0.key < $1.key }.map { "\"\($0.key)\" : \"\(Self.text($0.value))\"" }.joined(separator: ", ")
                return (n == 0 ? "\n" : ",\n") + "      { \"price\" : \"\(Self.text(e.price))\", \"prices\" : { \(prices) }, \"territory\" : \"\(e.territory)\" }"
            }.joined()
            out += list.isEmpty ? "]" : "\n    ]"
        }
        out += "\n  },\n  \"format\" : \"\(Self.formatName)\",\n  \"ladders\" : {"
        firstKind = true
        for kind in kinds {
            out += (firstKind ? "\n" : ",\n") + "    \"\(kind.rawValue)\" : {"
            firstKind = false
            let territories = (ladders[kind] ?? [:]).sorted { $0.key < $1.key }
            out += territories.enumerated().map { n, entry in
                // A ladder is one string, `price:proceeds` a point, space between points: 300,000
                // points read as 350 strings, not 300,000 arrays.
                let points = entry.value.points.map { p in Self.text(p.price) + (p.proceeds.map { ":" + Self.text($0) } ?? "") }
                    .joined(separator: " ")
                let currency = entry.value.currency.map { "\"currency\" : \"\($0)\", " } ?? ""
                return (n == 0 ? "\n" : ",\n") + "      \"\(entry.key)\" : { \(currency)\"points\" : \"\(points)\" }"
            }.joined()
            out += territories.isEmpty ? "}" : "\n    }"
        }
        out += "\n  },\n  \"version\" : \(Self.currentVersion)\n}\n"
        return out
    }

    private static func json(_ app: ASCSnapshot.App) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        return String(decoding: try! encoder.encode(app), as: UTF8.self).replacingOccurrences(of: "\":", with: "\" : ")
            .replacingOccurrences(of: ",\"", with: ", \"")
    }

    // MARK: Reading

    private struct File: Decodable {
        struct LadderEntry: Decodable {
            var currency: String?
            /// `price:proceeds` a point (`:proceeds` may be left out), space between points.
            var points: String
        }
        struct EqualizationEntry: Decodable {
            var territory: String
            var price: String
            var prices: [String: String]
        }
        var format: String?
        var version: Int?
        var app: ASCSnapshot.App?
        var ladders: [String: [String: LadderEntry]]?
        var equalizations: [String: [EqualizationEntry]]?
    }

    /// Reads a price-points file's bytes; every value is held to what App Store Connect writes
    /// (territory codes, prices as digits, ladders ascending, within bounds). The error says what
    /// is wrong and where.
    public static func decode(_ data: Data, path: String) throws(SnapshotError) -> PricePoints {
        let again = "pull it again with `iap asc pull --price-points`"
        if let syntax = JSONSyntax.firstError(in: [UInt8](data), integersIn64Bits: true) {
            throw SnapshotError(path: path, message: "not valid JSON (line \(syntax.line), column \(syntax.column): \(syntax.message)); \(again)")
        }
        // One parse: the header is checked on the decoded file (a file of another shape fails
        // to decode, and says so with what it is not).
        guard let decoded = try? JSONDecoder().decode(File.self, from: data), decoded.format == formatName else {
            struct Header: Decodable { var format: String? }
            if (try? JSONDecoder().decode(Header.self, from: data))?.format == formatName {
                throw SnapshotError(path: path, message: "not in the shape of a price-points file of this iap (written by another version?); \(again)")
            }
            throw SnapshotError(path: path, message: "not an iap price-points file (\"format\" is not \"\(formatName)\"); \(again)")
        }
        guard decoded.version == currentVersion else {
            throw SnapshotError(path: path, message: "price-points version \(decoded.version.map(String.init) ?? "missing") is not \(currentVersion), the one this iap reads; \(again)")
        }
        guard let app = decoded.app, let fileLadders = decoded.ladders else {
            throw SnapshotError(path: path, message: "not in the shape of a price-points file (no app or no ladders); \(again)")
        }
        let file = (app: app, ladders: fileLadders, equalizations: decoded.equalizations)
        func fail(_ at: String, _ why: String) -> SnapshotError { SnapshotError(path: path, message: "\(at) \(why); \(again)") }
        func decimal(_ text: String, at: String) throws(SnapshotError) -> Decimal {
            guard let value = ASCValue.decimal(text) else {
                throw fail(at, "is \(Quote.escaped(text)): \(ASCValue.price(text) ?? "not a price")")
            }
            return value
        }
        func territory(_ code: String, at: String) throws(SnapshotError) {
            if let why = ASCValue.code(code) { throw fail(at, "has the territory \(Quote.escaped(code)): \(why)") }
        }
        var ladders: [Kind: [String: Ladder]] = [:]
        var equalizations: [Kind: [Equalization]] = [:]
        for (name, territories) in file.ladders.sorted(by: { $0.key < $1.key }) {
            guard let kind = Kind(rawValue: name) else { throw fail("ladders", "has \(Quote.escaped(name)), not inAppPurchases or subscriptions") }
            guard territories.count <= maxTerritories else { throw fail("ladders.\(name)", "has \(territories.count) territories, more than \(maxTerritories)") }
            for (code, entry) in territories.sorted(by: { $0.key < $1.key }) {
                let at = "ladders.\(name).\(code)"
                try territory(code, at: "ladders.\(name)")
                if let currency = entry.currency, let why = ASCValue.code(currency) { throw fail("\(at).currency", "is \(Quote.escaped(currency)): \(why)") }
                var points: [Point] = []
                for (index, pair) in entry.points.split(separator: " ").enumerated() {
                    guard index < maxPointsPerTerritory else { throw fail(at, "has more than \(maxPointsPerTerritory) points") }
                    let parts = pair.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                    guard parts.count == 1 || parts.count == 2 else { throw fail("\(at).points[\(index)]", "is \(Quote.escaped(pair)), not price:proceeds") }
                    let price = try decimal(String(parts[0]), at: "\(at).points[\(index)]")
                    let proceeds = parts.count == 2 ? try decimal(String(parts[1]), at: "\(at).points[\(index)].proceeds") : nil
                    if let last = points.last, last.price >= price {
                        throw fail("\(at).points[\(index)]", "is \(parts[0]), not above the point before it (\(text(last.price))): a ladder ascends")
                    }
                    points.append(Point(price: price, proceeds: proceeds))
                }
                ladders[kind, default: [:]][code] = Ladder(currency: entry.currency, points: points)
            }
        }
        for (name, list) in (file.equalizations ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let kind = Kind(rawValue: name) else { throw fail("equalizations", "has \(Quote.escaped(name)), not inAppPurchases or subscriptions") }
            guard list.count <= maxPointsPerTerritory else { throw fail("equalizations.\(name)", "has \(list.count) entries, more than \(maxPointsPerTerritory)") }
            for (index, entry) in list.enumerated() {
                let at = "equalizations.\(name)[\(index)]"
                try territory(entry.territory, at: at)
                guard entry.prices.count <= maxTerritories else { throw fail(at, "has \(entry.prices.count) prices, more than \(maxTerritories)") }
                var prices: [String: Decimal] = [:]
                for (code, text) in entry.prices.sorted(by: { $0.key < $1.key }) {
                    try territory(code, at: "\(at).prices")
                    prices[code] = try decimal(text, at: "\(at).prices.\(code)")
                }
                equalizations[kind, default: []].append(Equalization(territory: entry.territory, price: try decimal(entry.price, at: "\(at).price"), prices: prices))
            }
        }
        return PricePoints(app: file.app, ladders: ladders, equalizations: equalizations)
    }
}
