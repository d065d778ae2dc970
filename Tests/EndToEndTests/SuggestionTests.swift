import Foundation
import IAPTool
import XCTest

/// A mistyped command or option names the nearest one, in ArgumentParser's words, with the usage
/// status 64; a word near nothing is said as before.
final class SuggestionTests: XCTestCase {
    func testAMistypedCommandNamesTheNearest() throws {
        let cases: [([String], String)] = [
            (["valdate"], "Error: Unknown subcommand 'valdate'. Did you mean 'validate'?\nUsage: iap <subcommand>\n  See 'iap --help' for more information.\n"),
            (["valdate", "catalogs", "--format", "json"], "Error: Unknown subcommand 'valdate'. Did you mean 'validate'?\nUsage: iap <subcommand>\n  See 'iap --help' for more information.\n"),
            (["chekc"], "Error: Unknown subcommand 'chekc'. Did you mean 'check'?\nUsage: iap <subcommand>\n  See 'iap --help' for more information.\n"),
            (["storefront"], "Error: Unknown subcommand 'storefront'. Did you mean 'storefronts'?\nUsage: iap <subcommand>\n  See 'iap --help' for more information.\n"),
            (["plist", "lnt", "Info.plist"], "Error: Unknown subcommand 'lnt'. Did you mean 'lint'?\nUsage: iap plist <subcommand>\n  See 'iap plist --help' for more information.\n"),
        ]
        for (arguments, stderr) in cases {
            let run = try IAPRunner.run(arguments)
            XCTAssertEqual(run.status, 64, arguments.joined(separator: " "))
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr, stderr, arguments.joined(separator: " "))
        }
    }

    func testAWordNearNoCommandIsSaidAsBefore() throws {
        let run = try IAPRunner.run(["xyz"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, "Error: Unexpected argument 'xyz'\nUsage: iap <subcommand>\n  See 'iap --help' for more information.\n")
        // An argument of a command is no command: `price -- valdate` is an amount.
        let amount = try IAPRunner.run(["price", "--", "valdate"])
        XCTAssertEqual(amount.status, 64)
        XCTAssertFalse(amount.stderr.contains("Did you mean"), amount.stderr)
    }

    func testAMistypedOptionNamesTheNearest() throws {
        let run = try IAPRunner.run(["validate", "--formt", "json"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, "Error: Unknown option '--formt'. Did you mean '--format'?\nUsage: iap validate [<options>] [<paths> ...]\n  See 'iap validate --help' for more information.\n")
        let bundle = try IAPRunner.run(["list", "--bundleid", "com.acme.app"])
        XCTAssertEqual(bundle.status, 64)
        XCTAssertTrue(bundle.stderr.hasPrefix("Error: Unknown option '--bundleid'. Did you mean '--bundle-id'?\n"), bundle.stderr)
    }

    func testTheNearestNameIsAtMostTwoEditsAway() {
        let names = ["check", "init", "validate", "list", "lint", "gen"]
        XCTAssertEqual(NearestName.to("valdate", among: names), "validate")
        XCTAssertEqual(NearestName.to("lnt", among: names), "lint")
        XCTAssertEqual(NearestName.to("int", among: names), "init", "the first of equally near names")
        XCTAssertNil(NearestName.to("xyz", among: names))
        XCTAssertNil(NearestName.to("report", among: names))
        XCTAssertNil(NearestName.to("x", among: []))
    }
}
