import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

final class AuthenticationTests: XCTestCase {
    let privateKey = P256.Signing.PrivateKey()

    func key() throws -> APIKey {
        try APIKey(issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34", pem: privateKey.pemRepresentation)
    }

    func decoded(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try XCTUnwrap(Data(base64Encoded: text))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testTheTokenIsAnES256JWTForAppStoreConnectThatTheKeyVerifies() throws {
        let token = TokenSigner.sign(key: try key(), issuedAt: 1_700_000_000, expiresAt: 1_700_000_900)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 3)
        let header = try decoded(parts[0])
        XCTAssertEqual(header["alg"] as? String, "ES256")
        XCTAssertEqual(header["kid"] as? String, "2X9R4HXF34")
        XCTAssertEqual(header["typ"] as? String, "JWT")
        let payload = try decoded(parts[1])
        XCTAssertEqual(payload["iss"] as? String, "57246542-96fe-1a63-e053-0824d011072a")
        XCTAssertEqual(payload["aud"] as? String, "appstoreconnect-v1")
        XCTAssertEqual(payload["iat"] as? Int, 1_700_000_000)
        XCTAssertEqual(payload["exp"] as? Int, 1_700_000_900)
        // No padding, URL-safe alphabet, and a raw 64-byte r‖s signature over "header.payload".
        XCTAssertFalse(token.contains("=") || token.contains("+") || token.contains("/"))
        var signatureText = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while signatureText.count % 4 != 0 { signatureText += "=" }
        let signature = try XCTUnwrap(Data(base64Encoded: signatureText))
        XCTAssertEqual(signature.count, 64)
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        XCTAssertTrue(privateKey.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))
        XCTAssertFalse(P256.Signing.PrivateKey().publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))
    }

    func testATokenLivesFifteenMinutesAndIsRenewedInItsLastMinute() throws {
        var signer = TokenSigner(key: try key())
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let first = signer.token(now: start)
        let payload = try decoded(first.split(separator: ".")[1])
        XCTAssertEqual((payload["exp"] as? Int).map { $0 - (payload["iat"] as? Int ?? 0) }, 900)
        XCTAssertEqual(signer.token(now: start.addingTimeInterval(839)), first)
        let renewed = signer.token(now: start.addingTimeInterval(841))
        XCTAssertNotEqual(renewed, first)
        XCTAssertEqual(try decoded(renewed.split(separator: ".")[1])["iat"] as? Int, 1_700_000_841)
    }

    func testAMissingKeyNamesEveryVariableToSet() {
        XCTAssertThrowsError(try APIKey.load(from: ["IAP_ASC_KEY_ID": "ABC"])) { error in
            XCTAssertEqual("\(error)", "no App Store Connect API key: set IAP_ASC_ISSUER_ID, IAP_ASC_PRIVATE_KEY or IAP_ASC_PRIVATE_KEY_PATH: "
                           + "an App Store Connect API key (Users and Access › Integrations › App Store Connect API) with the App Manager, Developer or Finance role")
        }
    }

    func testAKeyThatIsNotPEMIsRefusedWithoutQuotingIt() {
        let secret = "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgSECRET"
        XCTAssertThrowsError(try APIKey.load(from: ["IAP_ASC_ISSUER_ID": "i", "IAP_ASC_KEY_ID": "K", "IAP_ASC_PRIVATE_KEY": secret])) { error in
            XCTAssertFalse("\(error)".contains("SECRET"))
            XCTAssertEqual("\(error)", "the App Store Connect API key cannot be used: the private key is not a P-256 key in PEM form "
                           + "(the .p8 file App Store Connect gives begins '-----BEGIN PRIVATE KEY-----')")
        }
    }

    func testAKeyFileOthersCanReadIsUsedWithAWarning() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(privateKey.pemRepresentation.utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        let environment = ["IAP_ASC_ISSUER_ID": "i", "IAP_ASC_KEY_ID": "K", "IAP_ASC_PRIVATE_KEY_PATH": path]
        let loaded = try APIKey.load(from: environment)
        XCTAssertEqual(loaded.warnings, ["\(path) can be read by other users (mode 644): `chmod 600 \(path)`, or keep the key in a CI secret"])
        XCTAssertEqual("\(loaded.key)", "App Store Connect API key K")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        XCTAssertEqual(try APIKey.load(from: environment).warnings, [])
    }

    func testTokensGoOnlyToHTTPSOrThisMachine() throws {
        for ok in ["https://api.appstoreconnect.apple.com", "http://127.0.0.1:8080", "http://localhost:1"] {
            XCTAssertNoThrow(try ASCClient(key: try key(), baseURL: URL(string: ok)!, transport: StubTransport([:])), ok)
        }
        for refused in ["http://api.appstoreconnect.apple.com", "http://10.0.0.1", "ftp://127.0.0.1", "file:///tmp"] {
            XCTAssertThrowsError(try ASCClient(key: try key(), baseURL: URL(string: refused)!, transport: StubTransport([:])), refused)
        }
    }
}
