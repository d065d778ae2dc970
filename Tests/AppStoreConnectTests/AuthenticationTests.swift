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

    /// Issuer and key IDs of the shapes App Store Connect gives (Apple's own examples).
    let ids = ["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34"]

    func testAKeyThatIsNotPEMIsRefusedWithoutQuotingIt() {
        let secret = "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgSECRET"
        XCTAssertThrowsError(try APIKey.load(from: ids.merging(["IAP_ASC_PRIVATE_KEY": secret]) { $1 })) { error in
            XCTAssertFalse("\(error)".contains("SECRET"))
            XCTAssertEqual("\(error)", "the App Store Connect API key cannot be used: the private key in IAP_ASC_PRIVATE_KEY is not a P-256 key "
                           + "in PEM form (the .p8 file App Store Connect gives begins '-----BEGIN PRIVATE KEY-----')")
        }
    }

    func testAKeyFileOthersCanReadIsUsedWithAWarningThatNamesItsVariable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(privateKey.pemRepresentation.utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        var variables = APIKey.Variables()
        variables.privateKeyPath = "IAP_ASC_SHOP_KEY_FILE"
        let environment = ids.merging(["IAP_ASC_SHOP_KEY_FILE": path]) { $1 }
        let loaded = try APIKey.load(from: environment, variables: variables)
        XCTAssertEqual(loaded.warnings, ["the App Store Connect API key file that IAP_ASC_SHOP_KEY_FILE names can be read by other users "
                                         + "(mode 644): `chmod 600 \"$IAP_ASC_SHOP_KEY_FILE\"`, or keep the key in a CI secret"])
        XCTAssertEqual("\(loaded.key)", "an App Store Connect API key")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        XCTAssertEqual(try APIKey.load(from: environment, variables: variables).warnings, [])
    }

    /// The hint runs as printed: the shell expands the variable the warning names to the file.
    func testTheChmodHintWorksWhenPasted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap key \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Auth Key's.p8").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(privateKey.pemRepresentation.utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        let environment = ids.merging(["IAP_ASC_PRIVATE_KEY_PATH": path]) { $1 }
        let warning = try XCTUnwrap(APIKey.load(from: environment).warnings.first)
        let command = try XCTUnwrap(warning.firstMatch(of: /`([^`]+)`/)).1
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", String(command)]
        shell.environment = ["IAP_ASC_PRIVATE_KEY_PATH": path]
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try APIKey.load(from: environment).warnings, [])
    }

    /// Errors about the key name the variable, never its value: a path, an ID or a key in the
    /// environment is not output.
    func testErrorsNameTheVariableNeverItsValue() {
        let pem = privateKey.pemRepresentation
        for (environment, message) in [
            (["IAP_ASC_ISSUER_ID": "ghp_MARKER0123456789", "IAP_ASC_KEY_ID": "2X9R4HXF34", "IAP_ASC_PRIVATE_KEY": pem],
             "the App Store Connect API key cannot be used: IAP_ASC_ISSUER_ID does not hold an issuer ID: App Store Connect's is a UUID, "
             + "8-4-4-4-12 hexadecimal digits like 57246542-96fe-1a63-e053-0824d011072a, shown above the keys in Users and Access › Integrations"),
            (["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "MARKER key/1", "IAP_ASC_PRIVATE_KEY": pem],
             "the App Store Connect API key cannot be used: IAP_ASC_KEY_ID does not hold a key ID: App Store Connect's are letters and "
             + "digits like 2X9R4HXF34, shown beside each key in Users and Access › Integrations"),
            (ids.merging(["IAP_ASC_PRIVATE_KEY_PATH": "/tmp/MARKERPATH-\(UUID().uuidString)/AuthKey.p8"]) { $1 },
             "cannot read the App Store Connect API key file that IAP_ASC_PRIVATE_KEY_PATH names: no such file or directory"),
            (ids.merging(["IAP_ASC_PRIVATE_KEY_PATH": "/"]) { $1 },
             "cannot read the App Store Connect API key file that IAP_ASC_PRIVATE_KEY_PATH names: a folder, not a file"),
            (ids.merging(["IAP_ASC_PRIVATE_KEY_PATH": "/dev/zero"]) { $1 },
             "cannot read the App Store Connect API key file that IAP_ASC_PRIVATE_KEY_PATH names: a device, not a regular file"),
        ] {
            XCTAssertThrowsError(try APIKey.load(from: environment)) { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertFalse("\(error)".contains("MARKER"))
            }
        }
    }

    func testTheIDsShapes() {
        for issuer in ["57246542-96fe-1a63-e053-0824d011072a", "57246542-96FE-1A63-E053-0824D011072A"] {
            XCTAssertTrue(APIKey.isIssuerID(issuer), issuer)
        }
        for issuer in ["", "issuer-1", "57246542-96fe-1a63-e053-0824d011072", "57246542-96fe-1a63-e053-0824d011072az",
                       "5724654296fe1a63e0530824d011072a", "57246542-96fe-1a63-e053-0824d01107zz", "{57246542-96fe-1a63-e053-0824d011072a}"] {
            XCTAssertFalse(APIKey.isIssuerID(issuer), issuer)
        }
        for key in ["2X9R4HXF34", "K", String(repeating: "A", count: 64)] { XCTAssertTrue(APIKey.isKeyID(key), key) }
        for key in ["", "2X9R4HXF3 ", "ghp_ABC", "KEY-1", String(repeating: "A", count: 65), "Ä"] { XCTAssertFalse(APIKey.isKeyID(key), key) }
    }

    func testIAPYMLMayNameOnlyIAPsOwnVariables() {
        for name in ["IAP_ASC_PRIVATE_KEY", "IAP_ASC_SHOP_2", "IAP_ASC_x"] { XCTAssertTrue(APIKey.Variables.isAllowedName(name), name) }
        for name in ["GITHUB_TOKEN", "IAP_ASC_", "iap_asc_KEY", "IAP_ASC_KEY-1", "IAP_ASC_KEY $HOME", "HOME", "",
                     "IAP_ASC_" + String(repeating: "A", count: 93)] {
            XCTAssertFalse(APIKey.Variables.isAllowedName(name), name)
        }
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
