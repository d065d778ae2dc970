import CodeGeneration
import Diagnostics
import Foundation
import PropertyList

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
    /// The unified diff from the file on disk to the generated text, when stale.
    public let diff: String?

    /// The command that writes the file (`gen`, `storekit`), named in the status line.
    public let command: String

    public init(output: String, generated: String, command: String = "gen") {
        self.output = output
        self.command = command
        switch FileContents.text(output) {
        case .success(let existing):
            if existing == generated {
                state = .upToDate
                diff = nil
            } else {
                state = .stale
                diff = UnifiedDiff.make(old: existing, new: generated, oldName: output, newName: output + " (generated)")
            }
        case .failure(let failure) where failure.reason == FileContents.notText:
            // Bytes that are not UTF-8 are not what iap writes.
            state = .stale
            diff = nil
        case .failure(let failure) where FileContents.isMissing(failure):
            state = .missing
            diff = nil
        case .failure(let failure):
            state = .unreadable(failure.phrase)
            diff = nil
        }
    }

    /// The line `gen --check` prints on stderr.
    public var statusLine: String {
        switch state {
        case .upToDate: "\(output) is up to date"
        case .stale: "\(output) is stale: run iap \(command) without --check to update it"
        case .missing: "\(output) is missing: run iap \(command) without --check to create it"
        case .unreadable(let reason): "\(output) cannot be read (\(reason)): make it a readable file, or run iap \(command) without --check to replace it"
        }
    }

    public var findings: [Diagnostic] {
        switch state {
        case .upToDate: []
        case .stale, .missing, .unreadable:
            [ToolRules.staleGeneratedFile.finding(statusLine, at: SourceLocation(path: output),
                                                  fix: SuggestedFix("run iap \(command) without --check and commit the file"), subject: output)]
        }
    }
}
