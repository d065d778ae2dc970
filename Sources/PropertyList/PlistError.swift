import Foundation
import Support

/// Why a property list could not be read, with the position when there is one.
public struct PlistError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The bytes are not well-formed XML (libxml2's own message).
        case malformedXML
        /// Well-formed XML that is not a valid plist (unknown element, key without value, …).
        case invalidStructure
        /// A value whose text is not valid for its type (integer out of range, bad date, …).
        case invalidValue
        /// A repeated key in one dict.
        case duplicateKey
        /// Entities, DTD loading, nesting too deep: refused for safety.
        case refused
        /// Not an XML plist at all: binary, OpenStep/JSON, empty.
        case unsupportedFormat
        /// The file could not be opened or read.
        case io
    }

    public var kind: Kind
    public var message: String
    /// 1-based; 0 when the error concerns the whole input.
    public var line: Int
    public var column: Int

    public init(_ kind: Kind, _ message: String, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line:col: message`, or the message alone without a position.
    public var description: String {
        if line <= 0 { return message }
        if column <= 0 { return "\(line): \(message)" }
        return "\(line):\(column): \(message)"
    }
}

extension PlistError {
    /// The reason of an `.io` error as iap says it after "cannot read: ": "cannot open file:
    /// Permission denied" → "permission denied".
    public var osReason: String {
        let reason = message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? message
        return FileContents.Failure(reason: reason).phrase
    }
}
