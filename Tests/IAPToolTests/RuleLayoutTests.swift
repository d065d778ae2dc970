import Diagnostics
import Foundation
import TestSupport
import CatalogJoins
import IAPCatalog
import IAPTool
import SalesReports
import SourceLint
import XCTest

/// The house rule for rules: each rule of the five families (catalog, lint, report, drift and the
/// tool's own) is one type in its own file,
/// `Sources/<Engine>/Rules/<Family>/<Name>.swift`, with its description, examples, decisions and
/// settings; and no code names a rule by its ID as a string (it names the type: `DuplicateIDRule.id`).
/// Read from the sources themselves, so a rule added another way fails here.
final class RuleLayoutTests: XCTestCase {
    static let packageRoot = Prerequisite.packageRoot

    /// Every `.swift` file under `Sources/`, by its path from the package root.
    static func sources() throws -> [String: String] {
        let root = packageRoot.path
        guard let walk = FileManager.default.enumerator(atPath: root + "/Sources") else { return [:] }
        var files: [String: String] = [:]
        while let path = walk.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            files["Sources/" + path] = try String(contentsOfFile: root + "/Sources/" + path, encoding: .utf8)
        }
        return files
    }

    /// The module each registry's rules live in: every registry `RuleRegistry.all` is made of.
    static let engines: [(module: String, rules: [RuleDescription])] = [
        ("IAPCatalog", CatalogRules.descriptions), ("SourceLint", LintRules.all), ("SalesReports", ReportRules.all),
        ("CatalogJoins", SalesReportRules.joins + ASCRules.all + ReadinessRules.all + PricePointRules.all + PlanRules.all), ("CatalogTool", ToolRules.all),
    ]

    func testTheEnginesCoverEveryRegisteredRule() {
        XCTAssertEqual(Set(Self.engines.flatMap(\.rules).map(\.id)), Set(RuleRegistry.all.map(\.id)))
        XCTAssertEqual(Self.engines.map(\.rules.count).reduce(0, +), RuleRegistry.all.count)
    }

    /// The families whose rules the engine runs from their registry: a drift rule by `DriftCheck`,
    /// a lint rule by the one walk per file (`SwiftLintRule`, `ObjCLintRule`), a rule about sales by
    /// `SalesJoin` (`SalesRule`, `SalesJoinRule`). Such a rule's type is named, outside comments,
    /// in its own file and its registries' (the sales rules anchor the joins' order in
    /// `SalesReportRules`), nowhere else in Sources. The other families' rules are found where the
    /// engine meets what they are about: a file that does not load or parse, a report row that does
    /// not read, a stale generated file.
    static let dispatched: [(folder: String, registries: [String])] = [
        ("Sources/CatalogJoins/Rules/Drift/", ["Sources/CatalogJoins/Rules/ASCRules.swift"]),
        ("Sources/CatalogJoins/Rules/Ready/", ["Sources/CatalogJoins/Rules/ReadinessRules.swift"]),
        ("Sources/CatalogJoins/Rules/Prices/", ["Sources/CatalogJoins/Rules/PricePointRules.swift"]),
        ("Sources/SourceLint/Rules/Prices/", ["Sources/SourceLint/Rules/LintRules.swift"]),
        ("Sources/SourceLint/Rules/Titles/", ["Sources/SourceLint/Rules/LintRules.swift"]),
        ("Sources/SourceLint/Rules/ProductIDs/", ["Sources/SourceLint/Rules/LintRules.swift"]),
        ("Sources/SourceLint/Rules/Formatters/", ["Sources/SourceLint/Rules/LintRules.swift"]),
        ("Sources/SourceLint/Rules/Secrets/", ["Sources/SourceLint/Rules/LintRules.swift"]),
        ("Sources/SalesReports/Rules/Sales/", ["Sources/SalesReports/Rules/ReportRules.swift", "Sources/CatalogJoins/Rules/SalesReportRules.swift"]),
        ("Sources/CatalogJoins/Rules/Sales/", ["Sources/CatalogJoins/Rules/SalesReportRules.swift"]),
    ]

    func testDispatchedRulesAreNamedOnlyInTheirFileAndTheirRegistry() throws {
        let files = try Self.sources().mapValues(Self.code)
        var checked = 0
        for (folder, registries) in Self.dispatched {
            for path in files.keys where path.hasPrefix(folder) {
                let name = String(path.split(separator: "/").last!.dropLast(".swift".count))
                let naming = files.filter { Self.names($0.value, name) }.map(\.key).sorted()
                XCTAssertEqual(naming, ([path] + registries).sorted(), name)
                checked += 1
            }
        }
        let engines = files.keys.filter { $0.hasPrefix("Sources/SourceLint/Rules/Sources/") }.count
        XCTAssertEqual(checked, ASCRules.all.count + ReadinessRules.all.count + PricePointRules.all.count + LintRules.all.count - engines + ReportRules.sales.count
                       + SalesReportRules.joins.count)
    }

    /// The text without its comment lines.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.drop { $0 == " " }.hasPrefix("//") }.joined(separator: "\n")
    }

    /// Whether `text` has `name` as a whole identifier.
    static func names(_ text: String, _ name: String) -> Bool {
        var rest = text[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let isWord = { (c: Character?) in c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isWord(before), !isWord(after) { return true }
            rest = text[found.upperBound...]
        }
        return false
    }

    func testNoRuleIDIsWrittenAsAStringOutsideItsRule() throws {
        let files = try Self.sources()
        XCTAssertGreaterThan(files.count, 100)
        for rule in RuleRegistry.all {
            let literal = "\"\(rule.id)\""
            let holding = files.filter { $0.value.contains(literal) }.map(\.key).sorted()
            let defining = holding.filter { files[$0]!.contains("id: \(literal)") }
            XCTAssertEqual(defining.count, 1, "\(rule.id) is defined in \(defining)")
            XCTAssertEqual(holding, defining, "\(rule.id) written as a string outside its rule; name the rule's type (`…Rule.id`) instead")
        }
    }

    func testEveryEngineRuleIsOneTypeInItsOwnFileUnderRulesFamily() throws {
        let files = try Self.sources()
        var ruleFiles = Set<String>()
        for (module, rules) in Self.engines {
            XCTAssertFalse(rules.isEmpty, module)
            for rule in rules {
                guard let (path, text) = files.first(where: { $0.value.contains("id: \"\(rule.id)\"") }) else {
                    XCTFail("\(rule.id): no file defines it")
                    continue
                }
                ruleFiles.insert(path)
                // Sources/<Engine>/Rules/<Family>/<Name>.swift
                let parts = path.split(separator: "/").map(String.init)
                XCTAssertEqual(parts.count, 5, "\(rule.id) is in \(path), not in Sources/\(module)/Rules/<Family>/<Name>.swift")
                guard parts.count == 5 else { continue }
                XCTAssertEqual(parts[1], module, "\(rule.id) is in \(path)")
                XCTAssertEqual(parts[2], "Rules", "\(rule.id) is in \(path)")
                let name = String(parts[4].dropLast(".swift".count))
                XCTAssertTrue(name.hasSuffix("Rule"), "\(path): a rule's file is named for its type, …Rule.swift")
                let declared = ["struct \(name): CatalogRule, Rule {", "enum \(name): Rule {", "enum \(name): DriftRule {", "enum \(name): SalesRule {",
                                "enum \(name): SalesJoinRule {", "enum \(name): ReadinessRule {", "enum \(name): PricePointRule {"].map { "public " + $0 }
                XCTAssertTrue(declared.contains { text.contains($0) }, "\(path) does not declare the rule type \(name)")
                XCTAssertEqual(text.components(separatedBy: "= RuleDescription(").count - 1, 1, "\(path) holds more than one rule")
            }
        }
        // Nothing else sits in a family folder: each file there is a registered rule's.
        let inFamilies = files.keys.filter { path in
            let parts = path.split(separator: "/")
            return parts.count == 5 && parts[2] == "Rules" && Self.engines.contains { $0.module == parts[1] }
        }
        XCTAssertEqual(Set(inFamilies).subtracting(ruleFiles).sorted(), [], "files in a family folder that define no registered rule")
        XCTAssertEqual(ruleFiles.count, Self.engines.map(\.rules.count).reduce(0, +))
    }

    func testRulesOwnTheirLimits() {
        // The rules that take `rules.ID.limit` in iap.yml say so in their description, with the default.
        let limited = RuleRegistry.all.filter { $0.defaultLimit != nil }.map { "\($0.id)=\($0.defaultLimit!)" }
        XCTAssertEqual(limited, ["display-name-too-long=35", "description-too-long=55", "high-refund-rate=10", "price-far-from-equalization=25"])
        XCTAssertEqual(ValidationOptions().displayNameLimit, 35)
        XCTAssertEqual(ValidationOptions(descriptionLimit: 40).limit(of: DescriptionTooLongRule.description), 40)
        XCTAssertEqual(HighRefundRateRule.description.defaultLimit, 10)
        XCTAssertEqual(CatalogValidator.appStoreConnectLimits.sorted(),
                       ["description-too-long", "display-name-too-long", "duplicate-reference-name", "empty-id-segment", "id-too-long",
                        "invalid-id-characters", "reference-name-too-long", "too-many-products", "whitespace-in-id"])
    }
}
