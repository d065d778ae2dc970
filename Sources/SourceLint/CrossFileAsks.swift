import Diagnostics

/// Product IDs the code asks for through what another file declares: an enum's cases
/// (`ProductID.allCases.map(\.rawValue)`, `[.monthly, .yearly].map { $0.rawValue }`), a type's
/// constant (`ProductIDs.pro`) or a file's (`kProductIDs`). Each file's flow hands on the asks it
/// cannot resolve alone and offers the product IDs its declarations hold, each under a key;
/// `SourceLinter.run` joins the two over every file linted, and the IDs found are
/// `requested` at the ask's place. They feed `iap asc ready` only: no lint finding comes of them.
struct CrossFileAsks: Sendable {
    /// Each ask: its key, and where the code asks.
    var asked: [(key: String, line: Int, column: Int)] = []
    /// Each product ID a declaration offers, under its key.
    var offered: [(key: String, id: String)] = []

    /// Asks and offers a file hands on at most: a generated table of thousands is cut, not a hang.
    static let maxAsked = 1_000
    static let maxOffered = 10_000
    /// Between an offer's key and its ID (a character no key or ID holds).
    static let separator = "\u{1F}"

    static let askMark = RuleDescription(id: "-cross-file-ask", name: "Ask resolved across files", severity: .info, rationale: "", triggering: [], nonTriggering: [])
    static let offerMark = RuleDescription(id: "-cross-file-offer", name: "Product ID offered across files", severity: .info, rationale: "", triggering: [], nonTriggering: [])

    /// The last part of a dotted type name: `Store.ProductID` → `ProductID` (a type is keyed by its own name).
    static func lastComponent(_ type: String) -> String {
        type.split(separator: ".").last.map(String.init) ?? type
    }

    static func cases(of type: String) -> String { "cases " + lastComponent(type) }
    static func member(_ type: String, _ name: String) -> String { "member " + lastComponent(type) + "." + name }
    static func enumCase(_ name: String) -> String { "case " + name }
    /// The key an enum case offers its raw value under: its name and its enum's.
    static func enumCase(_ name: String, of type: String) -> String { "case " + name + " " + lastComponent(type) }
    static func name(_ name: String) -> String { "name " + name }

    mutating func take(_ finding: Finding) -> Bool {
        if finding.rule.id == Self.askMark.id {
            asked.append((finding.message, finding.line, finding.column))
            return true
        }
        if finding.rule.id == Self.offerMark.id {
            let parts = finding.message.split(separator: Character(Self.separator), maxSplits: 1)
            if parts.count == 2 { offered.append((String(parts[0]), String(parts[1]))) }
            return true
        }
        return false
    }

    /// Each file's asks answered with every file's offers: the requested IDs it adds, by file.
    /// A key two places offer — an enum case's name in two enums, a file's constant in two
    /// files — answers nothing: which one the code means is not known, and a wrong guess would
    /// be an ID the app never asks for.
    static func resolve(_ files: [(path: String, asks: CrossFileAsks)]) -> [[RequestedProductID]] {
        var byKey: [String: (origin: String, ids: [String])] = [:]
        var ambiguous = Set<String>()
        for file in files {
            for (offered, id) in file.asks.offered {
                // `case NAME TYPE`: the case's enum is its origin; any other key's, its file.
                let parts = offered.split(separator: " ")
                let (key, origin) = parts.count == 3 && parts[0] == "case" ? ("case " + parts[1], String(parts[2])) : (offered, file.path)
                if let known = byKey[key] {
                    if known.origin != origin { ambiguous.insert(key) } else if !known.ids.contains(id) { byKey[key]!.ids.append(id) }
                } else {
                    byKey[key] = (origin, [id])
                }
            }
        }
        for key in ambiguous { byKey[key] = nil }
        let byKeyIDs = byKey.mapValues(\.ids)
        return files.map { file in
            var seen = Set<String>()
            var found: [RequestedProductID] = []
            for ask in file.asks.asked {
                for id in byKeyIDs[ask.key] ?? [] where seen.insert("\(ask.line):\(ask.column):\(id)").inserted {
                    found.append(RequestedProductID(id: id, line: ask.line, column: ask.column, path: file.path))
                }
            }
            return found
        }
    }
}
