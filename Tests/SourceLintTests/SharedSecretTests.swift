import Diagnostics
import XCTest
@testable import SourceLint

/// Issue 33, item 6c: an App Store shared secret committed in code, the lint counterpart of the
/// catalog's `committed-secret`. Reported where it is unmistakable, never shown; other 32-digit
/// hex strings stay quiet.
final class SharedSecretTests: XCTestCase {
    static let secret = "0123456789abcdef0123456789abcdef"

    func lint(_ source: String, path: String) -> [Diagnostic] {
        SourceLinter(context: LintContext()).lint(source: source, path: path)
    }

    func located(_ source: String, path: String) -> [String] {
        lint(source, path: path).map { "\($0.location.line):\($0.location.column) \($0.ruleID) \($0.severity)" }
    }

    func testASecretAsVerifyReceiptsPasswordOrUnderASharedSecretNameInSwift() {
        let s = Self.secret
        let swift = """
            let body: [String: Any] = ["receipt-data": receipt, "password": "\(s)", "exclude-old-transactions": true]
            let other = ["password": "\(s)", "receipt-data": data]
            static let appSpecificSharedSecret = "\(s)"
            let validator = AppleReceiptValidator(service: .production, sharedSecret: "\(s)")
            self.itunesSecret = "\(s)"
            let kIAPSecret = "\(s)"
            """
        XCTAssertEqual(located(swift, path: "App/Receipts.swift"),
                       ["1:65 hardcoded-shared-secret error", "2:26 hardcoded-shared-secret error", "3:38 hardcoded-shared-secret error",
                        "4:75 hardcoded-shared-secret error", "5:21 hardcoded-shared-secret error", "6:18 hardcoded-shared-secret error"])
    }

    func testASecretAsVerifyReceiptsPasswordOrUnderASharedSecretNameInObjectiveC() {
        let s = Self.secret
        let objc = """
            NSDictionary *body = @{@"receipt-data": receipt, @"password": @"\(s)"};
            NSDictionary *old = [NSDictionary dictionaryWithObjectsAndKeys:receipt, @"receipt-data", @"\(s)", @"password", nil];
            static NSString *const kSharedSecret = @"\(s)";
            #define ITUNES_SHARED_SECRET @"\(s)"
            RMAppReceiptValidator *v = [[RMAppReceiptValidator alloc] initWithSharedSecret:@"\(s)"];
            """
        XCTAssertEqual(located(objc, path: "App/Receipts.m"),
                       ["1:63 hardcoded-shared-secret error", "2:90 hardcoded-shared-secret error", "3:40 hardcoded-shared-secret error",
                        "4:30 hardcoded-shared-secret error", "5:80 hardcoded-shared-secret error"])
    }

    func testTheSecretIsNeverShown() {
        let s = Self.secret
        let findings = lint("let sharedSecret = \"\(s)\"\n", path: "App/R.swift") + lint("NSString *sharedSecret = @\"\(s)\";\n", path: "App/R.m")
        XCTAssertEqual(findings.count, 2)
        for finding in findings {
            XCTAssertFalse(finding.message.contains("0123"), finding.message)
            XCTAssertFalse(finding.message.contains("cdef"), finding.message)
        }
        XCTAssertEqual(findings.first?.message, "'sharedSecret' holds an App Store shared secret written in code (32 hexadecimal characters, not shown): anyone with the app or the repository can validate receipts as your app; rotate it in App Store Connect and keep it out of the code (validate receipts on a server)")
    }

    func testOtherHexStringsAndOtherShapesAreNotSecrets() {
        let s = Self.secret
        let swift = """
            let md5 = "d41d8cd98f00b204e9800998ecf8427e"
            let uuid = "\(s)"
            let colours = ["\(s)", "ffffffff000000001111111122222222"]
            let login = ["user": name, "password": "\(s)"]
            let body = ["receipt-data": receipt, "password": sharedSecret]
            let sharedSecret = "0123456789ABCDEF0123456789ABCDEF"
            let appSecret = "\(s)0"
            let clientSecret = "\(s)"
            let sharedSecretPlaceholder = "<your shared secret>"
            """
        XCTAssertEqual(located(swift, path: "App/Hashes.swift"), [])
        let objc = """
            NSString *md5 = @"d41d8cd98f00b204e9800998ecf8427e";
            NSDictionary *login = @{@"user": name, @"password": @"\(s)"};
            NSDictionary *body = @{@"receipt-data": receipt, @"password": kSharedSecret};
            NSString *clientSecret = @"\(s)";
            """
        XCTAssertEqual(located(objc, path: "App/Hashes.m"), [])
    }

    func testCodeThatNeverShipsAndSuppressionsAreRespected() {
        let s = Self.secret
        XCTAssertEqual(located("#if DEBUG\nlet sharedSecret = \"\(s)\"\n#endif\n", path: "App/R.swift"), [])
        XCTAssertEqual(located("let sharedSecret = \"\(s)\" // iap:disable:this hardcoded-shared-secret\n", path: "App/R.swift"), [])
        XCTAssertEqual(located("let sharedSecret = \"\(s)\"\n", path: "App/Mocks/ReceiptMocks.swift"), [])
    }
}
