import Diagnostics
import PropertyList

/// Finds App Store shared secrets and private keys committed in catalog files.
enum SecretScanner {
    /// A shared secret is 32 hexadecimal characters under a key that names it.
    static func scan(_ node: PlistNode, path: String, key: String? = nil, into diagnostics: inout [Diagnostic]) {
        switch node.value {
        case .string(let s):
            scan(s, at: node.position, path: path, key: key, into: &diagnostics)
        case .array(let items):
            for item in items { scan(item, path: path, into: &diagnostics) }
        case .dictionary(let dict):
            for entry in dict.entries { scan(entry.value, path: path, key: entry.key, into: &diagnostics) }
        default:
            break
        }
    }

    /// A root array of strings: no key names a secret there, but a private key can be listed.
    static func scan(_ list: PlistStringList, path: String, into diagnostics: inout [Diagnostic]) {
        for (s, position) in zip(list.strings, list.positions) {
            scan(s, at: position, path: path, key: nil, into: &diagnostics)
        }
    }

    private static func scan(_ s: String, at position: PlistPosition, path: String, key: String?,
                             into diagnostics: inout [Diagnostic]) {
        var location: SourceLocation { SourceLocation(path: path, line: Int(position.line), column: Int(position.column)) }
        if let key, isSecretKey(key), s.utf8.count >= 16, !s.hasPrefix("$(") {
            diagnostics.append(CommittedSecretRule.description.finding("\(Quote.bounded(key)) holds an App Store shared secret committed with the catalog: anyone with the repository can validate receipts as your app", at: location, fix: SuggestedFix("remove it, rotate the secret in App Store Connect, and load it from the environment or a keychain at build time")))
        } else if s.utf8.count > 40, s.utf8.first(where: { $0 > 0x20 }) == 0x2D,
                  s.contains("-----BEGIN") && s.contains("PRIVATE KEY") {
            diagnostics.append(privateKey(at: location, key: key))
        }
    }

    static func isSecretKey(_ key: String) -> Bool {
        // Cheap pre-check: every secret key name ends in "secret" or "key" (any case).
        let tail = key.utf8.suffix(6).map { $0 | 0x20 }
        guard tail.elementsEqual("secret".utf8) || tail.suffix(3).elementsEqual("key".utf8) else { return false }
        let k = key.lowercased().filter { $0.isLetter }
        return k.contains("sharedsecret") || k == "secret" || k.hasSuffix("secret") || k == "privatekey"
    }

    static func privateKey(at location: SourceLocation, key: String?) -> Diagnostic {
        CommittedSecretRule.description.finding("\(key.map { "\(Quote.bounded($0)) holds" } ?? "found") a private key committed with the catalog (subscription-offer signing key)", at: location, fix: SuggestedFix("remove the key from the file, revoke it in App Store Connect and keep signing keys out of the repository"))
    }
}
