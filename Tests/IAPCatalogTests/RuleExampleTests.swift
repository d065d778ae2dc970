import Diagnostics
import Foundation
import TestSupport
import XCTest
@testable import IAPCatalog

/// Runs every rule's examples: each triggering example must produce the rule's finding at its
/// `↓` marker (line and column), each non-triggering example none of it.
final class RuleExampleTests: XCTestCase {
    struct Materialized {
        var paths: [String]
        var marker: SourceLocation?
        var options: ValidationOptions
        var bundleID: String?
    }

    static func materialize(_ example: RuleExample, in folder: URL) throws -> Materialized {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        var marker: SourceLocation?
        for file in example.files {
            let path = folder.appendingPathComponent(file.name).path
            let marked = MarkedText(file.text)
            if let line = marked.line, let column = marked.column { marker = SourceLocation(path: path, line: line, column: column) }
            try marked.text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        var retired: [String: SourceLocation] = [:]
        for (i, id) in example.retired.enumerated() { retired[id] = SourceLocation(path: "retired.txt", line: i + 1) }
        let options = ValidationOptions(retiredIDs: retired, requiredLocales: example.requiredLocales)
        return Materialized(paths: paths, marker: marker, options: options, bundleID: example.bundleID)
    }

    func findings(of rule: any CatalogRule, for example: RuleExample, name: String) throws -> (Materialized, [Diagnostic]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-rules-\(UUID().uuidString)/\(name)")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let m = try Self.materialize(example, in: folder)
        let catalog = CatalogLoader(bundleIDOverride: m.bundleID).loadCatalog(name: name, paths: m.paths, explicit: Set(m.paths))
        let found = rule.check(catalog, options: m.options).filter { $0.ruleID == rule.description.id }
        return (m, found)
    }

    func testEveryRuleHasExamplesBothWays() {
        for description in CatalogRules.descriptions {
            XCTAssertFalse(description.triggering.isEmpty, description.id)
            XCTAssertFalse(description.nonTriggering.isEmpty, description.id)
            XCTAssertFalse(description.rationale.isEmpty, description.id)
        }
        let ids = CatalogRules.descriptions.map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count, "rule IDs must be unique")
    }

    func testTriggeringExamplesFireAtTheirMarkers() throws {
        for rule in CatalogRules.all {
            let id = rule.description.id
            for (n, example) in rule.description.triggering.enumerated() {
                let (m, found) = try findings(of: rule, for: example, name: "\(id)-\(n)")
                XCTAssertFalse(found.isEmpty, "\(id) example \(n) did not fire")
                guard let marker = m.marker else { continue }
                let hit = found.contains { d in
                    d.location.path == marker.path && d.location.line == marker.line
                        && (d.location.column == 0 || d.location.column == marker.column)
                }
                XCTAssertTrue(hit, "\(id) example \(n): expected at \(marker.line):\(marker.column), got \(found.map { "\($0.location.line):\($0.location.column) \($0.message)" })")
            }
        }
    }

    func testNonTriggeringExamplesStayQuiet() throws {
        for rule in CatalogRules.all {
            let id = rule.description.id
            for (n, example) in rule.description.nonTriggering.enumerated() {
                let (_, found) = try findings(of: rule, for: example, name: "\(id)-ok-\(n)")
                XCTAssertTrue(found.isEmpty, "\(id) non-triggering example \(n) fired: \(found.map(\.message))")
            }
        }
    }
}
