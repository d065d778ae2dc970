import Diagnostics
import Foundation
import TestSupport
import XCTest
@testable import CodeGeneration
@testable import IAPCatalog

/// Generated code compiles under Swift 6 strict concurrency, and string literals give back
/// exactly the text they were made from. Uses the `swiftc` of the toolchain running the tests.
final class CompileTests: XCTestCase {
    static var swiftc: String? {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let packageRoot = Prerequisite.packageRoot

    func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iap-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testLiteralsRoundTripThroughTheCompiler() throws {
        guard let swiftc = Self.swiftc else { throw XCTSkip("swiftc not on PATH") }
        let texts = ["plain", "quote \" and \\ backslash", "interpolation \\(x) stays text", "tab\tnew\nline\rreturn", "nul\0byte",
                     "bell\u{07}del\u{7F}", "line\u{2028}sep", "rtl\u{200F}mark", "emoji 😀⛽️", "日本語", "\"\"\"", "#\"raw\"#", "$0.99", ""]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "let values: [String] = [\n" + texts.map { "    " + SwiftString.literal($0) }.joined(separator: ",\n") + "\n]\n"
            + "for value in values { print(value.unicodeScalars.map { String($0.value) }.joined(separator: \" \")) }\n"
        try source.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let binary = folder.appendingPathComponent("literals").path
        let (status, output) = try run(swiftc, ["-swift-version", "6", folder.appendingPathComponent("main.swift").path, "-o", binary])
        XCTAssertEqual(status, 0, output)
        let (runStatus, printed) = try run(binary, [])
        XCTAssertEqual(runStatus, 0)
        let expected = texts.map { $0.unicodeScalars.map { String($0.value) }.joined(separator: " ") + "\n" }.joined()
        XCTAssertEqual(printed, expected)
    }

    /// Both styles for every catalog in catalogs/ and every real catalog in ../shared/corpus
    /// type-check together with `swiftc -typecheck -swift-version 6`.
    func testGeneratedCodeTypeChecksInSwift6() throws {
        guard let swiftc = Self.swiftc else { throw XCTSkip("swiftc not on PATH") }
        var catalogs: [(String, Catalog)] = []
        for name in ["FakeGame", "RazeFaces", "SpeakEnglish"] {
            let folder = Self.packageRoot.appendingPathComponent("catalogs/\(name)").path
            catalogs += try CatalogLoader().load(paths: [folder]).map { (name, $0) }
        }
        let corpus = Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        if FileManager.default.fileExists(atPath: corpus.path) {
            for sub in ["plists", "storekit"] {
                let folder = corpus.appendingPathComponent(sub).path
                for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
                    let catalog = CatalogLoader().loadCatalog(name: file, paths: [folder + "/" + file], explicit: [folder + "/" + file])
                    if !catalog.products.isEmpty { catalogs.append((file, catalog)) }
                }
            }
        } else {
            print("../shared/corpus not found: type-checking catalogs/ only")
        }
        // Names the compiler accepts only in backticks, or only after lowering an acronym.
        let tricky = ["com.acme.app.init", "com.acme.app.self", "com.acme.app.ARSubscriptionMonthly", "com.acme.app.default"]
        catalogs.append(("tricky", Catalog(name: "tricky", files: [], bundleID: nil, products: CatalogLoader.merge(tricky.map {
            ProductOccurrence(id: $0, location: SourceLocation(path: "Products.plist"), role: .productList)
        }), loadDiagnostics: [])))
        XCTAssertGreaterThanOrEqual(catalogs.count, 4)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, (_, catalog)) in catalogs.enumerated() {
            for style in GenerationOptions.Style.allCases {
                let options = GenerationOptions(style: style, typeName: "Catalog\(index)\(style == .constants ? "IDs" : "Products")",
                                                access: .public, disambiguate: true)
                let code = try CodeGenerator(options: options).generate(catalog, sources: [catalog.name])
                let path = folder.appendingPathComponent("Catalog\(index)\(style.rawValue).swift").path
                try code.write(toFile: path, atomically: true, encoding: .utf8)
                files.append(path)
            }
        }
        let (status, output) = try run(swiftc, ["-typecheck", "-swift-version", "6", "-strict-concurrency=complete",
                                                "-parse-as-library", "-module-name", "Generated"] + files)
        XCTAssertEqual(status, 0, output)
    }
}
