import Foundation
import TestSupport
import XCTest
@testable import CodeGeneration
@testable import IAPCatalog

final class TemplateTests: XCTestCase {
    func testExampleTemplatesGolden() throws {
        let root = CompileTests.packageRoot
        let cases: [(String, String, String, String)] = [
            ("FakeGame", "objc-header", "FakeGame-objc.h", "FGProductID"),
            ("FakeGame", "kotlin-object", "FakeGame-kotlin.kt", "ProductIds"),
            ("RazeFaces", "kotlin-object", "RazeFaces-kotlin.kt", "ProductIds"),
            ("RazeFaces", "objc-header", "RazeFaces-objc.h", "RFProductID"),
        ]
        for (name, template, golden, typeName) in cases {
            let folder = "catalogs/\(name)"
            let catalog = try XCTUnwrap(try CatalogLoader().load(paths: [root.appendingPathComponent(folder).path]).first)
            let sources = catalog.files.map { folder + "/" + ($0.path as NSString).lastPathComponent }
            let text = try TemplateRenderer(options: GenerationOptions(typeName: typeName))
                .render(templateAt: root.appendingPathComponent("Templates/\(template).stencil").path, catalog: catalog, sources: sources)
            try Golden.check(text, "Tests/CodeGenerationTests/Golden/\(golden)")
        }
    }

    func testFiltersEscapeForEachLanguage() throws {
        let filters = TemplateRenderer.filters
        XCTAssertNotNil(filters)
        XCTAssertEqual(TemplateRenderer.cLiteral("a\"b\\c\nd", kotlin: false), "\"a\\\"b\\\\c\\nd\"")
        XCTAssertEqual(TemplateRenderer.cLiteral("bell\u{07}$x", kotlin: false), "\"bell\\007$x\"")
        XCTAssertEqual(TemplateRenderer.cLiteral("bell\u{07}$x", kotlin: true), "\"bell\\u0007\\$x\"")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-tpl-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = folder.appendingPathComponent("t.stencil").path
        try "{% for p in products %}{{ p.id|kotlinString }} {{ p.id|swiftString }} {{ p.identifier|constantCase }}\n{% endfor %}"
            .write(toFile: template, atomically: true, encoding: .utf8)
        let occurrence = ProductOccurrence(id: "com.a.price$1\"x\\y", location: .init(path: "p"), role: .productList)
        let catalog = Catalog(name: "t", files: [], bundleID: nil, products: CatalogLoader.merge([occurrence]), loadDiagnostics: [])
        XCTAssertEqual(try TemplateRenderer().render(templateAt: template, catalog: catalog, sources: []),
                       "\"com.a.price\\$1\\\"x\\\\y\" \"com.a.price$1\\\"x\\\\y\" Y\n")
        try "{% for p in products %}{{ p.id }".write(toFile: template, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TemplateRenderer().render(templateAt: template, catalog: catalog, sources: [])) { error in
            XCTAssertTrue("\(error)".hasPrefix("template '\(template)':"), "\(error)")
        }
    }
}
