import Diagnostics

/// The language of a lint example.
public enum SourceLanguage: String, Sendable { case swift, objc }

/// Lint examples: one source file, `Example.swift` or `Example.m`.
extension RuleExample {
    public init(_ code: String, _ language: SourceLanguage = .swift) {
        self.init([ExampleFile(language == .swift ? "Example.swift" : "Example.m", code)])
    }

    /// The example's source text.
    public var code: String { files.first?.text ?? "" }
    public var language: SourceLanguage { files.first?.name.hasSuffix(".m") == true ? .objc : .swift }
}
