import Foundation
import TestSupport
import XCTest

/// `scripts/fetch-schemas.sh`, which the public CI runs so that no test skips for want of
/// `../shared/schemas`: the subset the fake App Store Connect serves is cut from Apple's whole
/// document byte for byte, and the script keeps files whose checksums hold and fetches nothing
/// then (this machine has no network: the download itself is the public CI's to run).
final class FetchSchemasTests: ScratchFolderTestCase {
    override class var folderPrefix: String { "iap-schemas" }

    func testTheSubsetIsCutFromTheWholeDocumentByteForByte() throws {
        let whole = try Prerequisite.shared("schemas/app-store-connect-openapi-4.4.1.json")
        let subset = try Prerequisite.shared("schemas/app-store-connect-openapi-4.4.1-subset.json")
        let python = try Prerequisite.program(["python3"], install: "apt-get install python3")
        let cut = folder.appendingPathComponent("cut.json")
        let result = try IAPRunner.runProgram(python, ["scripts/cut-openapi-subset.py", whole.path, cut.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: cut), try Data(contentsOf: subset))
    }

    func testFilesWhoseChecksumsHoldAreKeptAndTheSubsetCut() throws {
        for name in ["sarif-schema-2.1.0.json", "app-store-connect-openapi-4.4.1.json"] {
            try FileManager.default.copyItem(at: try Prerequisite.shared("schemas/\(name)"), to: folder.appendingPathComponent(name))
        }
        try Prerequisite.program(["python3"], install: "apt-get install python3")
        let result = try IAPRunner.runProgram("/bin/bash", ["scripts/fetch-schemas.sh", folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            fetch-schemas: \(folder.path)/sarif-schema-2.1.0.json is there
            fetch-schemas: \(folder.path)/app-store-connect-openapi-4.4.1.json is there
            fetch-schemas: \(folder.path)/app-store-connect-openapi-4.4.1-subset.json cut and checked

            """)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("app-store-connect-openapi-4.4.1-subset.json")),
                       try Data(contentsOf: try Prerequisite.shared("schemas/app-store-connect-openapi-4.4.1-subset.json")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["app-store-connect-openapi-4.4.1-subset.json", "app-store-connect-openapi-4.4.1.json", "sarif-schema-2.1.0.json"])
    }
}
