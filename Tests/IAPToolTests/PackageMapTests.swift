import Foundation
import TestSupport
import XCTest

/// Package.swift is the map of the house: every target declares exactly the modules its files
/// import, no more (an edge the code does not use draws a layer that is not there) and no fewer
/// (SwiftPM finds a module a dependency of a dependency brings, so a missing edge builds, and
/// hides a layer crossed).
final class PackageMapTests: XCTestCase {
    static let root = Prerequisite.packageRoot

    /// Modules of the platform and the toolchain: never declared.
    static let platform: Set<String> = ["Foundation", "FoundationXML", "FoundationNetworking", "XCTest", "Testing", "Glibc", "Musl", "Darwin",
                                        "Dispatch", "os", "Synchronization", "PackagePlugin", "XcodeProjectPlugin", "PackageDescription"]

    struct Target {
        var name: String
        var kind: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of Package.swift with their folders and the module names they depend on
    /// (a product's name is its module's here: ArgumentParser, SwiftSyntax, Crypto…).
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let text = Array(manifest.utf8)
        var found: [Target] = []
        let kinds = ["target", "executableTarget", "testTarget", "systemLibrary", "plugin"]
        var i = 0
        while i < text.count {
            guard text[i] == UInt8(ascii: "."), let kind = kinds.first(where: { Self.matches(text, at: i + 1, "\($0)(") }) else { i += 1; continue }
            let open = i + 1 + kind.utf8.count
            let close = Self.closing(text, from: open)
            let body = String(decoding: text[open..<close], as: UTF8.self)
            i = close
            // `.target(name:` inside another target's dependencies is a dependency, not a target.
            guard let name = Self.firstString(after: "name:", in: body) else { continue }
            var dependencies = Set<String>()
            let bytes = Array(body.utf8)
            if let start = bytes.indices.first(where: { Self.matches(bytes, at: $0, "dependencies: [") }).map({ $0 + "dependencies: ".utf8.count }) {
                let end = Self.closing(bytes, from: start)
                let list = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
                let strings = try NSRegularExpression(pattern: #"(package:\s*)?"([^"]+)""#)
                for match in strings.matches(in: list, range: NSRange(list.startIndex..., in: list)) where match.range(at: 1).location == NSNotFound {
                    dependencies.insert(String(list[Range(match.range(at: 2), in: list)!]))
                }
            }
            let path = Self.firstString(after: "path:", in: body) ?? (kind == "testTarget" ? "Tests/\(name)" : kind == "plugin" ? "Plugins/\(name)" : "Sources/\(name)")
            found.append(Target(name: name, kind: kind, path: path, dependencies: dependencies))
        }
        return found
    }

    static func matches(_ text: [UInt8], at index: Int, _ word: String) -> Bool {
        let bytes = Array(word.utf8)
        return index + bytes.count <= text.count && Array(text[index..<(index + bytes.count)]) == bytes
    }

    /// The index of the bracket that closes the one at `open` (`(` or `[`), strings skipped.
    static func closing(_ text: [UInt8], from open: Int) -> Int {
        var depth = 0
        var inString = false
        var k = open
        while k < text.count {
            let c = text[k]
            if inString {
                if c == UInt8(ascii: "\\") { k += 1 } else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "(") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: ")") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return k }
            }
            k += 1
        }
        return text.count
    }

    static func firstString(after label: String, in body: String) -> String? {
        guard let range = body.range(of: label) else { return nil }
        let rest = body[range.upperBound...].drop { $0 == " " }
        guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: rest.startIndex)..<end])
    }

    /// The modules a folder's Swift files import, outside multi-line string literals (test
    /// fixtures hold `import StoreKit` as text).
    static func imports(in folder: String) throws -> Set<String> {
        var modules = Set<String>()
        let url = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return modules }
        let pattern = try NSRegularExpression(pattern: #"^(?:@testable |@preconcurrency |@_implementationOnly |public |internal |package )*import (?:struct |class |enum |protocol |func |var |typealias )?([A-Za-z_][A-Za-z_0-9]*)"#)
        for case let file as URL in walk where file.pathExtension == "swift" {
            var inString = false
            for piece in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(piece)
                let quotes = line.components(separatedBy: "\"\"\"").count - 1
                if !inString, let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                   let range = Range(match.range(at: 1), in: line) {
                    modules.insert(String(line[range]))
                }
                if quotes % 2 == 1 { inString.toggle() }
            }
        }
        return modules.subtracting(platform)
    }

    static func hasSwiftFiles(_ folder: String) -> Bool {
        let walk = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        while let file = walk?.nextObject() as? URL { if file.pathExtension == "swift" { return true } }
        return false
    }

    func testEveryTargetDeclaresExactlyWhatItImports() throws {
        let targets = try Self.targets()
        let executables = Set(targets.filter { $0.kind == "executableTarget" }.map(\.name))
        // The count of targets is the manifest's: each kind's names are checked below.
        XCTAssertTrue(targets.contains { $0.name == "IAPCatalog" } && targets.contains { $0.name == "EndToEndTests" })
        var differences: [String] = []
        for target in targets where target.kind != "systemLibrary" && target.kind != "plugin" {
            // A C target (`bare-libxml2-count`) includes headers; it imports nothing.
            guard Self.hasSwiftFiles(target.path) else { continue }
            // A test's dependency on an executable builds it for the test to run: not an import.
            let declared = target.dependencies.subtracting(executables)
            let imported = try Self.imports(in: target.path).subtracting([target.name])
            for module in declared.subtracting(imported).sorted() { differences.append("\(target.name) declares \(module) but no file imports it") }
            for module in imported.subtracting(declared).sorted() { differences.append("\(target.name) imports \(module) but does not declare it") }
        }
        XCTAssertEqual(differences, [])
    }

    /// A folder is one concern a reader can hold: past 15 Swift files, split it by concern (as
    /// IAPTool's Configuration/, Jobs/, Reporting/ and Prices/).
    func testNoSourceFolderHoldsMoreThanFifteenSwiftFiles() throws {
        var crowded: [String] = []
        let sources = Self.root.appendingPathComponent("Sources")
        let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: [.isDirectoryKey])
        var folders = [sources]
        while let url = walk?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { folders.append(url) }
        }
        for folder in folders {
            let count = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.count
            if count > 15 { crowded.append("\(folder.path.dropFirst(Self.root.path.count + 1)): \(count)") }
        }
        XCTAssertEqual(crowded, [])
    }
}
