import Diagnostics
import Foundation
import IAPCatalog
import PropertyList
import Support

/// `--retired FILE`: one ID per line (blank lines and `#` comments ignored), or any product-list plist.
public enum RetiredList {
    public static func load(_ path: String) throws(ToolFailure) -> [String: SourceLocation] {
        func refusal(_ failure: FileContents.Failure) -> ToolFailure {
            if FileContents.isMissing(failure) { return .cannotRun("\(path): retired-ID file not found") }
            if failure.reason == FileContents.notText { return .cannotRun("\(path): retired-ID file is not UTF-8 text") }
            return .cannotRun("\(path): cannot read: \(failure.phrase)")
        }
        var result: [String: SourceLocation] = [:]
        if path.hasSuffix(".plist") {
            switch FileContents.open(path) {
            case .success(let fd): close(fd)
            case .failure(let failure): throw refusal(failure)
            }
            let catalog = CatalogLoader().loadCatalog(name: path, paths: [path], explicit: [path])
            if let problem = catalog.loadDiagnostics.first(where: { $0.severity == .error }) {
                throw .cannotRun("\(problem.location): \(problem.message)")
            }
            for product in catalog.products { result[product.id] = product.location }
            return result
        }
        let text: String
        switch FileContents.text(path) {
        case .success(let read): text = read
        case .failure(let failure): throw refusal(failure)
        }
        for (index, line) in text.components(separatedBy: .newlines).enumerated() {
            let id = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !id.isEmpty && result[id] == nil { result[id] = SourceLocation(path: path, line: index + 1, column: 1) }
        }
        return result
    }
}
