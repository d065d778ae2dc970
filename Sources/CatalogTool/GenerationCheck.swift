import CodeGeneration
import Diagnostics
import Foundation
import PropertyList
import Support

/// `gen --check`: whether the file on disk is what generation would write, as a finding
/// (`stale-generated-file`) and as the diff a reviewer reads.
public struct GenerationCheck: Sendable {
    public enum State: Sendable, Equatable {
        case upToDate, stale, missing
        /// Something is there that cannot be read (the reason): a FIFO, a folder, no permission.
        case unreadable(String)
    }

    public let output: String
    public let state: State
    /// The text on disk, when it is stale and UTF-8 text: what `diff` compares.
    private let existing: String?
    private let generated: String

    /// The command that writes the file (`gen`, `storekit`), named in the status line.
    public let command: String

    /// The command line that updates the file, fitting the set-up that ran the check: `iap gen
    /// Store -o App/ProductID.swift` for the CLI, the command plugin's `swift package … iap-gen
    /// --target App` in a SwiftPM build. Nil: "iap COMMAND without --check".
    public let update: String?

    /// What the messages ask to run.
    var remedy: String { update ?? "iap \(command) without --check" }

    /// `words` as one POSIX shell command line, each quoted where it needs to be: an `update`.
    public static func commandLine(_ words: [String]) -> String {
        words.map { Escape.shellWord($0, safe: "/._-+@=:,", quoteEmpty: true) }.joined(separator: " ")
    }

    /// The most an existing file is read for the comparison: 64 MiB, or twice what generation
    /// writes. A larger file cannot be what iap writes: stale, without reading it whole.
    static func readLimit(_ generated: String) -> Int { max(64 << 20, 2 * generated.utf8.count) }

    /// Compares bytes, once: equal or not. The diff, which only the text report of `gen --check`
    /// shows, is made when asked for (`diff`), never by `iap check`.
    public init(output: String, generated: String, command: String = "gen", update: String? = nil) {
        self.output = output
        self.command = command
        self.update = update
        self.generated = generated
        switch FileContents.read(output, limit: Self.readLimit(generated)) {
        case .success(let data):
            if data.elementsEqual(generated.utf8) {
                state = .upToDate
                existing = nil
            } else {
                state = .stale
                // Bytes that are not UTF-8 are not what iap writes: stale, with no diff.
                existing = String(validating: data, as: UTF8.self)
            }
        case .failure(let failure) where failure == FileContents.tooLarge(Self.readLimit(generated)):
            state = .stale
            existing = nil
        case .failure(let failure) where FileContents.isMissing(failure):
            state = .missing
            existing = nil
        case .failure(let failure):
            state = .unreadable(failure.phrase)
            existing = nil
        }
    }

    /// The unified diff from the file on disk to the generated text, when stale and the file is
    /// text: hunks with 3 lines of context, or, when the files differ in more lines than
    /// `UnifiedDiff.maxChangedLines`, the first differing line alone (`UnifiedDiff`).
    public var diff: String? {
        guard let existing else { return nil }
        let made = UnifiedDiff.diff(old: existing, new: generated, oldName: output, newName: output + " (generated)")
        guard !made.complete else { return made.text }
        return made.text + "# iap: the files differ in more than \(UnifiedDiff.maxChangedLines) lines: only the first difference is shown; "
            + "run \(remedy) to write the file\n"
    }

    /// The line `gen --check` prints on stderr.
    public var statusLine: String {
        switch state {
        case .upToDate: "\(output) is up to date"
        case .stale: "\(output) is stale: run \(remedy) to update it"
        case .missing: "\(output) is missing: run \(remedy) to create it"
        case .unreadable(let reason): "\(output) cannot be read (\(reason)): make it a readable file, or run \(remedy) to replace it"
        }
    }

    public var findings: [Diagnostic] {
        switch state {
        case .upToDate: []
        case .stale, .missing, .unreadable:
            [StaleGeneratedFileRule.description.finding(statusLine, at: SourceLocation(path: output),
                                                  fix: SuggestedFix("run \(remedy) and commit the file"), subject: output)]
        }
    }
}
