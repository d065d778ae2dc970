import Diagnostics
import Foundation
import TestSupport
import XCTest
@testable import CodeGeneration
@testable import IAPCatalog

final class GeneratorTests: XCTestCase {
    func catalog(_ ids: [String], referenceNames: [String?] = []) -> Catalog {
        let occurrences = ids.enumerated().map { i, id -> ProductOccurrence in
            var occurrence = ProductOccurrence(id: id, location: SourceLocation(path: "Products.plist", line: i + 5, column: 2),
                                               role: .productList)
            if i < referenceNames.count, let name = referenceNames[i] {
                var metadata = ProductMetadata()
                metadata.referenceName = Located(name, at: occurrence.location)
                occurrence.metadata = metadata
            }
            return occurrence
        }
        return Catalog(name: "test", files: [], bundleID: nil, products: CatalogLoader.merge(occurrences), loadDiagnostics: [])
    }

    func testNamesFromIDsUseTheShortestUniqueSuffix() throws {
        let names = try CodeGenerator().names(for: catalog(["com.a.pro.monthly", "com.a.basic.monthly", "com.a.coins_100", "com.a.tip"]).products)
        XCTAssertEqual(names, ["proMonthly", "basicMonthly", "_100", "tip"])
    }

    func testCollisionsAreAnErrorNamingEveryProduct() throws {
        let c = catalog(["com.a.x", "com.a.y", "com.a.z"], referenceNames: ["coins_100", "coins-100", "coins.100"])
        XCTAssertThrowsError(try CodeGenerator().names(for: c.products)) { error in
            XCTAssertEqual("\(error)", """
            products would share a Swift name (rename them, set distinct reference names, or pass --disambiguate):
              'coins100': com.a.x (Products.plist:5:2), com.a.y (Products.plist:6:2), com.a.z (Products.plist:7:2)
            """)
        }
        XCTAssertEqual(try CodeGenerator(options: GenerationOptions(disambiguate: true)).names(for: c.products),
                       ["coins100", "coins100_2", "coins100_3"])
    }

    func testReservedMemberNamesCollideToo() throws {
        let c = catalog(["com.a.all", "com.a.kind"])
        XCTAssertThrowsError(try CodeGenerator().names(for: c.products)) { error in
            XCTAssertTrue("\(error)".contains("'all': com.a.all (Products.plist:5:2), the generated type's own 'all'"), "\(error)")
        }
        XCTAssertEqual(try CodeGenerator(options: GenerationOptions(disambiguate: true)).names(for: c.products), ["all_1", "kind"])
        XCTAssertEqual(try CodeGenerator(options: GenerationOptions(style: .enum, disambiguate: true)).names(for: c.products), ["all", "kind_1"])
        // `case `init`` compiles: it does not clash with the enum's init(rawValue:).
        XCTAssertEqual(try CodeGenerator(options: GenerationOptions(style: .enum)).names(for: catalog(["com.a.init", "com.a.coins"]).products),
                       ["`init`", "coins"])
    }

    func testOutputIsDeterministic() throws {
        let c = catalog(["com.a.b", "com.a.c"], referenceNames: ["Bee", "Sea"])
        let one = try CodeGenerator().generate(c, sources: ["Products.plist"])
        let two = try CodeGenerator().generate(c, sources: ["Products.plist"])
        XCTAssertEqual(one, two)
        XCTAssertFalse(one.contains("202"), "no timestamp")
        XCTAssertThrowsError(try CodeGenerator(options: GenerationOptions(typeName: "class")).generate(c, sources: []))
        XCTAssertThrowsError(try CodeGenerator(options: GenerationOptions(typeName: "9Lives")).generate(c, sources: []))
        XCTAssertThrowsError(try CodeGenerator(options: GenerationOptions(style: .enum)).generate(catalog([]), sources: [])) {
            XCTAssertEqual($0 as? GenerationError, .noProducts)
        }
    }

    func testGoldenFilesForShippedCatalogs() throws {
        let root = CompileTests.packageRoot
        for name in ["FakeGame", "RazeFaces", "SpeakEnglish"] {
            let folder = "catalogs/\(name)"
            let loaded = try CatalogLoader().load(paths: [root.appendingPathComponent(folder).path])
            let catalog = try XCTUnwrap(loaded.first)
            let sources = catalog.files.map { folder + "/" + ($0.path as NSString).lastPathComponent }
            for style in GenerationOptions.Style.allCases {
                let code = try CodeGenerator(options: GenerationOptions(style: style)).generate(catalog, sources: sources)
                try Golden.check(code, "Tests/CodeGenerationTests/Golden/\(name)-\(style.rawValue).swift")
            }
        }
    }

    func testUnifiedDiff() {
        XCTAssertEqual(UnifiedDiff.make(old: "a\nb\nc\n", new: "a\nB\nc\n", oldName: "x", newName: "y"), """
        --- x
        +++ y
        @@ -1,4 +1,4 @@
         a
        -b
        +B
         c
         

        """)
        XCTAssertEqual(UnifiedDiff.make(old: "same\n", new: "same\n", oldName: "x", newName: "y"), "")
    }

    /// Three changes far apart in 30,000 lines: aligned without a table of every line against
    /// every line (issue 22: 10,000 products took 7.1 GB), hunks numbered as `diff -u` numbers them.
    func testUnifiedDiffOfALongFileIsItsHunksAlone() {
        let old = (0..<30_000).map { "line \($0)" }
        var new = old
        new[10] = "changed 10"
        new.remove(at: 20_000)
        new.insert("added", at: 29_000)
        let start = Date()
        let made = UnifiedDiff.diff(old: old.joined(separator: "\n") + "\n", new: new.joined(separator: "\n") + "\n", oldName: "a", newName: "b")
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertTrue(made.complete)
        XCTAssertEqual(made.text, """
            --- a
            +++ b
            @@ -8,7 +8,7 @@
             line 7
             line 8
             line 9
            -line 10
            +changed 10
             line 11
             line 12
             line 13
            @@ -19998,7 +19998,6 @@
             line 19997
             line 19998
             line 19999
            -line 20000
             line 20001
             line 20002
             line 20003
            @@ -28999,6 +28998,7 @@
             line 28998
             line 28999
             line 29000
            +added
             line 29001
             line 29002
             line 29003

            """)
    }

    /// Past 1,000 changed lines, the diff is the first differing line with its context.
    func testUnifiedDiffPastItsLimitShowsTheFirstDifference() {
        let same = (0..<5).map { "same \($0)" }
        let old = same + (0..<3000).map { "a\($0)" }, new = same + (0..<3000).map { "b\($0)" }
        let made = UnifiedDiff.diff(old: old.joined(separator: "\n"), new: new.joined(separator: "\n"), oldName: "x", newName: "y")
        XCTAssertFalse(made.complete)
        XCTAssertEqual(made.text, "--- x\n+++ y\n@@ -3,4 +3,4 @@\n same 2\n same 3\n same 4\n-a0\n+b0\n")
        // One side ends first: the first line the other goes on with.
        XCTAssertEqual(UnifiedDiff.diff(old: "a\nb", new: "a\nb\n" + (0..<2000).map { "c\($0)" }.joined(separator: "\n"),
                                        oldName: "x", newName: "y").text, "--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n b\n+c0\n")
    }
}
