import Foundation

/// Renders diagnostics as a JSON array, keys sorted and diagnostics in stable order, so output
/// is byte-identical between runs.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ diagnostics: [Diagnostic]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(diagnostics.sortedForOutput()) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
