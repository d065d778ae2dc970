import Crypto
import Foundation
import Support

/// An App Store Connect API key: the issuer, the key's ID and its P-256 private key (the `.p8`
/// file App Store Connect lets you download once).
///
/// The private key never leaves this value: `description` names the key ID only, and no error
/// made here quotes the key's text.
public struct APIKey: Sendable, CustomStringConvertible {
    public let issuerID: String
    public let keyID: String
    /// The private scalar (32 bytes), from which each signature's key is made: Crypto's key type
    /// is not `Sendable`.
    private let rawPrivateKey: Data

    var privateKey: P256.Signing.PrivateKey {
        // Made from bytes this type checked at `init`.
        try! P256.Signing.PrivateKey(rawRepresentation: rawPrivateKey)
    }

    public init(issuerID: String, keyID: String, pem: String) throws(APIKeyError) {
        let issuer = issuerID.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = keyID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !issuer.isEmpty else { throw .missing("the issuer ID is empty") }
        guard !key.isEmpty else { throw .missing("the key ID is empty") }
        guard key.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F }), issuer.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F }) else {
            throw .invalid("the issuer ID and key ID are printable ASCII without spaces (App Store Connect shows both on the Keys page)")
        }
        self.issuerID = issuer
        self.keyID = key
        do {
            rawPrivateKey = try P256.Signing.PrivateKey(pemRepresentation: pem.trimmingCharacters(in: .whitespacesAndNewlines)).rawRepresentation
        } catch {
            throw .invalid("the private key is not a P-256 key in PEM form (the .p8 file App Store Connect gives begins "
                           + "'-----BEGIN PRIVATE KEY-----')")
        }
    }

    public var description: String { "App Store Connect API key \(keyID)" }

    /// The names of the environment variables a key is read from, by default.
    public struct Variables: Sendable, Equatable {
        public var issuerID = "IAP_ASC_ISSUER_ID"
        public var keyID = "IAP_ASC_KEY_ID"
        /// The key's PEM text itself (a CI secret).
        public var privateKey = "IAP_ASC_PRIVATE_KEY"
        /// Or the path of the `.p8` file.
        public var privateKeyPath = "IAP_ASC_PRIVATE_KEY_PATH"

        public init() {}

        public var all: [String] { [issuerID, keyID, privateKey, privateKeyPath] }
    }

    /// A key read from the environment, and what a user should know about how it is kept.
    public struct Loaded: Sendable {
        public var key: APIKey
        /// Warnings about the key file (readable by other users).
        public var warnings: [String]
    }

    /// Reads the key from `environment`: the issuer and key IDs, and either the PEM text or the
    /// path of the `.p8` file (the text wins when both are set).
    public static func load(from environment: [String: String], variables: Variables = Variables()) throws(APIKeyError) -> Loaded {
        func value(_ name: String) -> String? {
            guard let v = environment[name], !v.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return v
        }
        let missing = [variables.issuerID, variables.keyID].filter { value($0) == nil }
            + (value(variables.privateKey) == nil && value(variables.privateKeyPath) == nil
               ? ["\(variables.privateKey) or \(variables.privateKeyPath)"] : [])
        guard missing.isEmpty else {
            throw .missing("set \(missing.joined(separator: ", ")): an App Store Connect API key (Users and Access › "
                           + "Integrations › App Store Connect API) with the App Manager, Developer or Finance role")
        }
        var warnings: [String] = []
        let pem: String
        if let text = value(variables.privateKey) {
            pem = text
        } else {
            let path = value(variables.privateKeyPath)!
            pem = try readKeyFile(path, warnings: &warnings)
        }
        let key = try APIKey(issuerID: value(variables.issuerID)!, keyID: value(variables.keyID)!, pem: pem)
        return Loaded(key: key, warnings: warnings)
    }

    /// The `.p8` file's text; a warning when users other than its owner may read it.
    static func readKeyFile(_ path: String, warnings: inout [String]) throws(APIKeyError) -> String {
        // One read of a regular file, refused when larger than a key file can be (devices, FIFOs and
        // folders are refused by `FileContents`); the permission bits only for the warning.
        let limit = 16 * 1024
        let data: Data
        switch FileContents.read(path, limit: limit) {
        case .success(let bytes): data = bytes
        case .failure(let failure) where failure == FileContents.tooLarge(limit):
            throw .invalid("\(path) is larger than a .p8 key file (16 KB at most)")
        case .failure(let failure): throw .unreadable(path, failure.reason)
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            warnings.append("\(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))): "
                            + "`chmod 600 \(path)`, or keep the key in a CI secret")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalid("\(path) is not a PEM text file (the .p8 file App Store Connect gives)")
        }
        return text
    }

}

/// Why no key could be had. Messages never hold key material.
public enum APIKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String)
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .missing(let why): "no App Store Connect API key: \(why)"
        case .invalid(let why): "the App Store Connect API key cannot be used: \(why)"
        case .unreadable(let path, let why): "cannot read the App Store Connect API key file \(path): \(why)"
        }
    }
}
