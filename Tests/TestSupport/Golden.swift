import Foundation
import XCTest

/// Files the tests compare output with: golden files, and the generated parts of README.md and
/// docs/. A test compares; with `IAP_UPDATE_GOLDEN=1` in the environment it writes what it would
/// compare with instead. `scripts/update-docs.sh` runs every test that does so (the list is in the
/// script, and `UpdateDocsTests` holds it to the tests that call `Golden`), so one command brings
/// every generated file up to date, and a tree it would change fails the tests.
public enum Golden {
    /// Whether this run rewrites instead of comparing.
    public static var updating: Bool { ProcessInfo.processInfo.environment["IAP_UPDATE_GOLDEN"] == "1" }

    /// Compares `text` with the file at `path` (from the package root), or writes it there when updating.
    public static func check(_ text: String, _ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Prerequisite.packageRoot.appendingPathComponent(path)
        if updating {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(text, expected, "output differs from \(path) (scripts/update-docs.sh rewrites it)", file: file, line: line)
    }
}
