import Diagnostics
import Foundation
import IAPCatalog

/// `--retired FILE`: one ID per line (blank lines and `#` comments ignored), or any product-list plist.
public enum RetiredList {
    public static func load(_ path: String) throws(ToolFailure) -> [String: SourceLocation] {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .cannotRun("\(path): retired-ID file not found or not readable")
        }
        var result: [String: SourceLocation] = [:]
        if path.hasSuffix(".plist") {
            let catalog = CatalogLoader().loadCatalog(name: path, paths: [path], explicit: [path])
            if let problem = catalog.loadDiagnostics.first(where: { $0.severity == .error }) {
                throw .cannotRun("\(problem.location): \(problem.message)")
            }
            for product in catalog.products { result[product.id] = product.location }
            return result
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .cannotRun("\(path): retired-ID file is not UTF-8 text")
        }
        for (index, line) in text.components(separatedBy: .newlines).enumerated() {
            let id = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !id.isEmpty && result[id] == nil { result[id] = SourceLocation(path: path, line: index + 1, column: 1) }
        }
        return result
    }
}
