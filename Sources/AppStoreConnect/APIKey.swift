import Crypto
import Foundation
import Support

/// An App Store Connect API key: the issuer, the key's ID and its P-256 private key (the `.p8`
/// file App Store Connect lets you download once).
///
/// The private key never leaves this value: `description` names neither it nor the IDs, and no
/// error made here quotes the key's text.
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

    /// Names no ID: the key's IDs come from the environment, and no message carries a value from there.
    public var description: String { "an App Store Connect API key" }

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

        /// The prefix every variable `iap.yml` may name starts with: iap's own variables only, so
        /// a pull request cannot have the key read from `GITHUB_TOKEN` or any other secret.
        public static let prefix = "IAP_ASC_"

        /// Whether `name` is of the shape `iap.yml` may name: `IAP_ASC_`, then letters, digits
        /// and `_` (100 characters at most).
        public static func isAllowedName(_ name: String) -> Bool {
            guard name.hasPrefix(prefix), name.utf8.count > prefix.utf8.count, name.utf8.count <= 100 else { return false }
            return name.utf8.allSatisfy { $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
    }

    /// A key read from the environment, and what a user should know about how it is kept.
    public struct Loaded: Sendable {
        public var key: APIKey
        /// Warnings about the key file (readable by other users).
        public var warnings: [String]
    }

    /// Reads the key from `environment`: the issuer and key IDs, and either the PEM text or the
    /// path of the `.p8` file (the text wins when both are set). Every message names a variable,
    /// never its value: the IDs are checked against the shapes App Store Connect gives them, so a
    /// variable holding anything else is not sent to the server in a token.
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
        let issuer = value(variables.issuerID)!.trimmingCharacters(in: .whitespacesAndNewlines)
        guard isIssuerID(issuer) else {
            throw .invalid("\(variables.issuerID) does not hold an issuer ID: App Store Connect's is a UUID, 8-4-4-4-12 hexadecimal "
                           + "digits like 57246542-96fe-1a63-e053-0824d011072a, shown above the keys in Users and Access › Integrations")
        }
        let keyID = value(variables.keyID)!.trimmingCharacters(in: .whitespacesAndNewlines)
        guard isKeyID(keyID) else {
            throw .invalid("\(variables.keyID) does not hold a key ID: App Store Connect's are letters and digits like 2X9R4HXF34, "
                           + "shown beside each key in Users and Access › Integrations")
        }
        var warnings: [String] = []
        let pem: String
        let source: String
        if let text = value(variables.privateKey) {
            pem = text
            source = "the private key in \(variables.privateKey)"
        } else {
            pem = try readKeyFile(value(variables.privateKeyPath)!, variable: variables.privateKeyPath, warnings: &warnings)
            source = "the key file that \(variables.privateKeyPath) names"
        }
        do {
            let key = try APIKey(issuerID: issuer, keyID: keyID, pem: pem)
            return Loaded(key: key, warnings: warnings)
        } catch {
            throw .invalid("\(source) is not a P-256 key in PEM form (the .p8 file App Store Connect gives begins "
                           + "'-----BEGIN PRIVATE KEY-----')")
        }
    }

    /// Whether `text` has the shape of an issuer ID: a UUID, `8-4-4-4-12` hexadecimal digits in
    /// either case (Apple's example, `57246542-96fe-1a63-e053-0824d011072a`, is not of RFC 4122's
    /// versions, so only the shape is checked).
    static func isIssuerID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.utf8.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) } }
    }

    /// Whether `text` has the shape of a key ID: ASCII letters and digits, 64 at most. Apple
    /// documents only an example (`2X9R4HXF34`: ten uppercase letters and digits), not a rule, so
    /// a key ID of another length or case is not refused here; App Store Connect judges it.
    static func isKeyID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The `.p8` file's text; a warning when users other than its owner may read it. The path
    /// comes from `variable` and is never said: messages name the variable.
    static func readKeyFile(_ path: String, variable: String, warnings: inout [String]) throws(APIKeyError) -> String {
        // One read of a regular file, refused when larger than a key file can be (devices, FIFOs and
        // folders are refused by `FileContents`); the permission bits only for the warning.
        let limit = 16 * 1024
        let data: Data
        switch FileContents.read(path, limit: limit) {
        case .success(let bytes): data = bytes
        case .failure(let failure) where failure == FileContents.tooLarge(limit):
            throw .invalid("the key file that \(variable) names is larger than a .p8 key file (16 KB at most)")
        case .failure(let failure): throw .unreadable(variable: variable, reason: failure.phrase)
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            warnings.append("the App Store Connect API key file that \(variable) names can be read by other users "
                            + "(mode \(String(status.st_mode & 0o777, radix: 8))): `chmod 600 \"$\(variable)\"`, or keep the key in a CI secret")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalid("the key file that \(variable) names is not a PEM text file (the .p8 file App Store Connect gives)")
        }
        return text
    }

}

/// Why no key could be had. Messages never hold key material, nor any value of the environment:
/// they name the variables.
public enum APIKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String)
    /// The key file the variable names cannot be read, and the OS's reason.
    case unreadable(variable: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let why): "no App Store Connect API key: \(why)"
        case .invalid(let why): "the App Store Connect API key cannot be used: \(why)"
        case .unreadable(let variable, let why): "cannot read the App Store Connect API key file that \(variable) names: \(why)"
        }
    }
}
