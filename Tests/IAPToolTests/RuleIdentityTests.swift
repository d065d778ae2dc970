import Diagnostics
import Foundation
import TestSupport
import IAPCatalog
import IAPTool
import SourceLint
import XCTest

/// Every finding any code path emits names a rule that has a description, at the severity that
/// rule is configured to: its default, or what `iap.yml` sets. Exercised over the shipped
/// catalogs, every rule's examples (catalog and lint), the example sources and, when present,
/// the real-world corpus.
final class RuleIdentityTests: XCTestCase {
    static let packageRoot = Prerequisite.packageRoot

    /// Fails for each finding whose rule is undescribed or whose severity is not `expected(rule)`.
    func assertDescribed(_ findings: [Diagnostic], severity expected: (RuleDescription) -> Severity? = { $0.severity },
                         configured: Bool = false, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for finding in findings {
            guard let rule = RuleRegistry.rule(finding.ruleID) else {
                XCTFail("\(context): '\(finding.ruleID)' has no rule description (\(finding.location))", file: file, line: line)
                continue
            }
            // Two exceptions, unless iap.yml sets the rule's severity (docs/commands.md: it wins).
            // One: App Store Connect's limits in a configuration synced from it are info, and say so.
            let synced = !configured && CatalogValidator.appStoreConnectLimits.contains(finding.ruleID)
                && finding.message.hasSuffix("(info: this file is synced from App Store Connect, which already holds it; the limit applies when it is next edited there)")
            // The other: an unknown product ID that only an unknown type's call takes (an app's
            // helper, an SDK not known to take App Store IDs) is a warning, and says so (docs/lint.md).
            let unverified = !configured && finding.ruleID == UnknownProductIDRule.description.id && finding.message.contains(" (a warning: `")
            XCTAssertEqual(finding.severity, synced ? .info : unverified ? .warning : expected(rule),
                           "\(context): \(finding.ruleID) at \(finding.location)", file: file, line: line)
        }
    }

    func allCatalogFindings() throws -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let root = Self.packageRoot.path
        var paths = [root + "/catalogs", root + "/Examples"]
        if let corpus = Optional(Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path),
           FileManager.default.fileExists(atPath: corpus) {
            paths.append(corpus)
        } else {
            print("RuleIdentityTests: ../shared/corpus is absent; checking the shipped catalogs and examples only")
        }
        for path in paths {
            let catalogs = try CatalogLoader().load(paths: [path])
            findings += CatalogValidator().validate(catalogs)
        }
        // Every rule's examples, triggering and not.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (r, rule) in CatalogRules.descriptions.enumerated() {
            for (e, example) in (rule.triggering + rule.nonTriggering).enumerated() {
                let dir = folder.appendingPathComponent("\(r)-\(e)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                var files: [String] = []
                for file in example.files {
                    let path = dir.appendingPathComponent(file.name).path
                    try MarkedText(file.text).text.write(toFile: path, atomically: true, encoding: .utf8)
                    files.append(path)
                }
                var retired: [String: SourceLocation] = [:]
                for id in example.retired { retired[id] = SourceLocation(path: "retired.txt", line: 1) }
                let catalog = CatalogLoader(bundleIDOverride: example.bundleID).loadCatalog(name: dir.path, paths: files, explicit: Set(files))
                findings += CatalogValidator(options: ValidationOptions(retiredIDs: retired, requiredLocales: example.requiredLocales))
                    .validate(catalog)
            }
        }
        return findings
    }

    func allLintFindings() throws -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let context = LintContext(productConstants: ["com.acme.app.coins": "ProductID.coins", "com.acme.app.pro": "ProductID.pro"],
                                  titles: [LintContext.normalizedTitle("Bag of Coins")], bundlePrefix: "com.acme.app.",
                                  appNames: [LintContext.normalizedTitle("Acme")])
        for rule in LintRules.all {
            for example in rule.triggering + rule.nonTriggering {
                findings += SourceLinter(context: context).lint(source: MarkedText(example.code).text,
                                                                path: example.language == .swift ? "Example.swift" : "Example.m")
            }
        }
        findings += try SourceLinter(context: context).lint(paths: [Self.packageRoot.path + "/Examples"])
        findings += SourceLinter().lint(files: ["/nonexistent/Unreadable.swift"])
        let corpus = Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        if FileManager.default.fileExists(atPath: corpus) { findings += try SourceLinter(context: context).lint(paths: [corpus]) }
        return findings
    }

    func testEveryEmittedFindingHasItsRulesDescriptionAndSeverity() throws {
        let catalog = try allCatalogFindings()
        let lint = try allLintFindings()
        XCTAssertGreaterThan(catalog.count, 100)
        XCTAssertGreaterThan(lint.count, 50)
        assertDescribed(catalog, "catalog")
        assertDescribed(lint, "lint")
        // Every catalog and lint rule is exercised by these runs.
        let fired = Set((catalog + lint).map(\.ruleID))
        let silent = (CatalogRules.descriptions + LintRules.all).map(\.id).filter { !fired.contains($0) }
        XCTAssertEqual(silent, [], "rules no run here emitted")
    }

    func testConfiguredSeveritiesAreTheOnesReported() throws {
        let findings = try allCatalogFindings() + allLintFindings()
        // Of the rules that found something, turn every other one (by ID) off and change the
        // severity of the rest; then the other way round, so that every rule is tested both off
        // and configured, whatever rules are added.
        let fired = Set(findings.map(\.ruleID)).sorted()
        XCTAssertGreaterThanOrEqual(fired.count, 10, "the fixtures trigger too few rules to test configuration")
        for parity in [0, 1] {
            let off = Set(fired.enumerated().filter { $0.offset % 2 == parity }.map(\.element))
            var severities: [String: Severity?] = [:]
            for rule in RuleRegistry.all {
                severities[rule.id] = off.contains(rule.id) ? .some(nil) : .some(rule.severity == .error ? .info : rule.severity == .warning ? .error : .warning)
            }
            var plan = ReportPlan()
            plan.severities = severities
            plan.stdoutFormat = "json"
            let outcome = try plan.render(command: "check", findings: findings, rules: RuleRegistry.all, files: [])
            let reported = outcome.result.findings
            // Every rule left on is reported, at its configured severity; no rule turned off is.
            XCTAssertEqual(Set(reported.map(\.ruleID)), Set(fired).subtracting(off))
            assertDescribed(reported, severity: { severities[$0.id] ?? $0.severity }, configured: true, "configured")
            XCTAssertFalse(reported.contains { off.contains($0.ruleID) })
        }
    }

    func testRuleIDsAreUniqueAndDescribed() {
        let ids = RuleRegistry.all.map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count)
        for rule in RuleRegistry.all {
            XCTAssertFalse(rule.name.isEmpty, rule.id)
            XCTAssertFalse(rule.rationale.isEmpty, rule.id)
            XCTAssertTrue(rule.id.allSatisfy { $0.isLowercase || $0 == "-" }, rule.id)
        }
    }
}
