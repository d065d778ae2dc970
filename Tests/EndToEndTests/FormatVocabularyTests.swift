import Foundation
import IAPTool
import XCTest

/// `--format` names are one vocabulary across commands; the names an earlier release took are aliases.
final class FormatVocabularyTests: XCTestCase {
    func testEveryCommandsFormatsAreNamesOfTheVocabulary() {
        let commands: [(String, [String])] = [
            ("list", ListJob.Format.allCases.map(\.rawValue)),
            ("report", ReportJob.Format.allCases.map(\.rawValue)),
            ("rules", RuleListing.Format.allCases.map(\.rawValue)),
            ("price, storefronts", TableFormat.allCases.map(\.rawValue)),
            ("plist print", PlistJob.PrintFormat.allCases.map(\.rawValue)),
            ("validate, lint, check, gen --check, plist lint", FindingsFormat.names),
        ]
        for (command, names) in commands {
            for name in names {
                XCTAssertTrue(FormatName.all.contains(name), "\(command): '\(name)' is not in the vocabulary")
                XCTAssertNil(FormatName.aliases[name], "\(command): '\(name)' is an alias, not a name")
            }
        }
        XCTAssertEqual(FormatName.canonical("md"), "markdown")
        XCTAssertEqual(FormatName.canonical("json"), "json")
        XCTAssertEqual(FormatName.canonical("mdx"), "mdx")
    }

    /// `md` was `report`'s name for Markdown and `markdown` everyone else's: both work everywhere.
    func testMarkdownAndItsAliasMeanTheSameEverywhere() throws {
        for command in [["report", "catalogs/FakeGame"], ["report", "--sales", "Tests/Fixtures/Sales"], ["rules"],
                        ["validate", "catalogs/FakeGame"], ["plist", "lint", "catalogs/FakeGame/Metadata.plist"]] {
            let markdown = try IAPRunner.run(command + ["--format", "markdown"])
            let md = try IAPRunner.run(command + ["--format", "md"])
            XCTAssertEqual(md.status, markdown.status, command.joined(separator: " "))
            XCTAssertEqual(md.stdout, markdown.stdout, command.joined(separator: " "))
            XCTAssertEqual(md.stderr, markdown.stderr, command.joined(separator: " "))
            XCTAssertTrue(markdown.stdout.hasPrefix("#") || markdown.stdout.hasPrefix("| rule |"), markdown.stdout)
        }
        // The default of report is the same Markdown.
        XCTAssertEqual(try IAPRunner.run(["report", "catalogs/FakeGame"]).stdout,
                       try IAPRunner.run(["report", "catalogs/FakeGame", "--format", "md"]).stdout)
    }

    func testAnAliasInAReportAndInIAPYml() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let catalog = IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame").path
        let viaAlias = try IAPRunner.run(["validate", catalog, "--report", "md:alias.md", "--report", "md"], in: folder)
        XCTAssertEqual(viaAlias.status, 0, viaAlias.stderr)
        let viaName = try IAPRunner.run(["validate", catalog, "--report", "markdown:name.md"], in: folder)
        XCTAssertEqual(viaName.status, 0, viaName.stderr)
        let alias = try String(contentsOf: folder.appendingPathComponent("alias.md"), encoding: .utf8)
        XCTAssertEqual(alias, try String(contentsOf: folder.appendingPathComponent("name.md"), encoding: .utf8))
        XCTAssertTrue(alias.hasPrefix("## iap validate: "), alias)
        // `md` without a path writes Markdown's own file name.
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("iap-report.md"), encoding: .utf8), alias)

        try "catalogs: [\(catalog)]\nformat: md\n".write(to: folder.appendingPathComponent("iap.yml"), atomically: true, encoding: .utf8)
        let check = try IAPRunner.run(["check"], in: folder)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.hasPrefix("## iap check: "), check.stdout)
    }

    /// `list` takes csv now, like the other tables (`price`, `storefronts`).
    func testListAsCSV() throws {
        let run = try IAPRunner.run(["list", "catalogs/FakeGame", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, """
            catalog,bundle_id,id,kind,kind_reason,declared,reference_name,display_name,price,currency,subscription_group,subscription_period
            catalogs/FakeGame,com.appcoda.FakeGame,com.appcoda.fakegame.extra-lives,consumable,declared in catalogs/FakeGame/Metadata.plist:17:4 (kind = consumable),yes,Extra Lives,Extra Lives,0.99,USD,,
            catalogs/FakeGame,com.appcoda.FakeGame,com.appcoda.fakegame.superpowers,non-consumable,declared in catalogs/FakeGame/Metadata.plist:47:4 (kind = non-consumable),yes,Superpowers,Superpowers,1.99,USD,,
            catalogs/FakeGame,com.appcoda.FakeGame,com.appcoda.fakegame.unlock_maps,non-consumable,declared in catalogs/FakeGame/Metadata.plist:77:4 (kind = non-consumable),yes,Unlock Maps,All Maps,2.99,USD,,

            """)
        // Every product of every catalog, one header.
        let all = try IAPRunner.run(["list", "catalogs", "--format", "csv"])
        let json = try IAPRunner.run(["list", "catalogs", "--format", "json"])
        XCTAssertEqual(all.stdout.split(separator: "\n").count - 1, json.stdout.components(separatedBy: "\"kindReason\"").count - 1)
    }

    /// A name a command does not take is a usage error listing the names it does, not an alias.
    func testAnUnknownFormatListsTheCanonicalNames() throws {
        let report = try IAPRunner.run(["report", "catalogs/FakeGame", "--format", "mdx"])
        XCTAssertEqual(report.status, 64)
        XCTAssertTrue(report.stderr.hasPrefix("Error: The value 'mdx' is invalid for '--format <format>'. Please provide one of 'markdown', 'csv', 'json' or 'html'.\n"), report.stderr)
        let list = try IAPRunner.run(["list", "--format", "html"])
        XCTAssertEqual(list.status, 64)
        XCTAssertTrue(list.stderr.hasPrefix("Error: The value 'html' is invalid for '--format <format>'. Please provide one of 'text', 'json' or 'csv'.\n"), list.stderr)
    }
}
