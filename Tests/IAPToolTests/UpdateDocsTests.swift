import Foundation
import TestSupport
import XCTest

/// `scripts/update-docs.sh` is the one command that regenerates what is generated: it runs, with
/// `IAP_UPDATE_GOLDEN=1`, every test class that compares with a generated file through `Golden`.
final class UpdateDocsTests: XCTestCase {
    func testTheScriptRunsEveryTestThatComparesWithAGeneratedFile() throws {
        let root = Prerequisite.packageRoot
        let script = try String(contentsOf: root.appendingPathComponent("scripts/update-docs.sh"), encoding: .utf8)
        let listed = try XCTUnwrap(script.firstMatch(of: /golden_tests='([^']*)'/), "update-docs.sh lists its tests in golden_tests")
        let named = Set(listed.1.split(separator: "|").map(String.init))

        // The classes of the test files that call Golden.check or a helper built on it.
        // (Spelled in two pieces so that this file does not match itself.)
        let calls = ["Golden" + ".check(", "assert" + "Golden("]
        var comparing: Set<String> = []
        let tests = root.appendingPathComponent("Tests")
        let walk = try XCTUnwrap(FileManager.default.enumerator(atPath: tests.path))
        while let path = walk.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("TestSupport/") else { continue }
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            guard calls.contains(where: text.contains) else { continue }
            for match in text.matches(of: /final class (\w+): XCTestCase/) {
                let body = text[match.range.upperBound...]
                let end = body.range(of: "\nfinal class ")?.lowerBound ?? body.endIndex
                let own = body[..<end]
                if calls.contains(where: own.contains) { comparing.insert(String(match.1)) }
            }
        }
        XCTAssertTrue(comparing.contains("ReadmeTests"))
        XCTAssertEqual(named.sorted(), comparing.sorted(), "golden_tests in scripts/update-docs.sh")
    }
}
