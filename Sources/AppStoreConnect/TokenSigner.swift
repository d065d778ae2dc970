import Crypto
import Foundation
import Support

/// Signs the JSON Web Tokens App Store Connect asks for: ES256 over the key, audience
/// `appstoreconnect-v1`, a lifetime under Apple's 20-minute limit, renewed before it runs out.
public struct TokenSigner: Sendable {
    public static let audience = "appstoreconnect-v1"
    /// Apple refuses tokens that live longer than 20 minutes; 15 leaves room for clock skew.
    public static let lifetime: TimeInterval = 15 * 60
    /// A token with less than this left is renewed before a request.
    public static let renewalMargin: TimeInterval = 60

    let key: APIKey
    private(set) var current: (token: String, expires: Date)?

    public init(key: APIKey) {
        self.key = key
    }

    /// A token valid at `now` for at least `renewalMargin`, signed again when needed.
    public mutating func token(now: Date = Date()) -> String {
        if let current, current.expires.timeIntervalSince(now) > Self.renewalMargin { return current.token }
        let issued = Int(now.timeIntervalSince1970)
        let expires = issued + Int(Self.lifetime)
        let token = Self.sign(key: key, issuedAt: issued, expiresAt: expires)
        current = (token, Date(timeIntervalSince1970: TimeInterval(expires)))
        return token
    }

    /// `header.payload.signature`, each base64url without padding; the signature is the raw
    /// 64-byte r‖s JWS asks for (not DER).
    static func sign(key: APIKey, issuedAt: Int, expiresAt: Int) -> String {
        let header = #"{"alg":"ES256","kid":\#(Escape.json(key.keyID)),"typ":"JWT"}"#
        let payload = #"{"iss":\#(Escape.json(key.issuerID)),"iat":\#(issuedAt),"exp":\#(expiresAt),"aud":"\#(audience)"}"#
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(payload.utf8))
        // Signing with a valid P-256 key cannot fail short of a broken crypto library.
        let signature = try! key.privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + base64URL(signature.rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
