/// Text with a `↓` marking where a finding is expected (the form of every rule's triggering
/// examples): the text without the marker, and the marker's line and column (1-based, columns in
/// characters), or none. Only the first marker counts; later ones are removed too.
public struct MarkedText: Equatable, Sendable {
    public static let marker = "↓"

    public var text: String
    /// Where the marker was: nil when the text has none.
    public var line: Int?
    public var column: Int?

    /// `prefix` goes before the marker's line (a multibyte prefix checks that columns count
    /// characters), after the marker is found.
    public init(_ marked: String, prefix: String = "") {
        var lines = marked.components(separatedBy: "\n")
        for (index, text) in lines.enumerated() {
            guard text.contains(Self.marker) else { continue }
            if line == nil, let range = text.range(of: Self.marker) {
                line = index + 1
                column = prefix.count + text.distance(from: text.startIndex, to: range.lowerBound) + 1
                lines[index] = prefix + text.replacingOccurrences(of: Self.marker, with: "")
            } else {
                lines[index] = text.replacingOccurrences(of: Self.marker, with: "")
            }
        }
        text = lines.joined(separator: "\n")
    }
}
