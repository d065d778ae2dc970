import Foundation
import XCTest
@testable import CodeGeneration
import ProductNaming

final class IdentifierTests: XCTestCase {
    /// Input → the identifier it becomes.
    static let cases: [(String, String)] = [
        ("Extra Lives", "extraLives"), ("extra-lives", "extraLives"), ("extra_lives", "extraLives"), ("extra.lives", "extraLives"),
        ("EXTRA_LIVES", "extraLives"), ("ExtraLives", "extraLives"), ("extraLives", "extraLives"), ("  extra   lives  ", "extraLives"),
        ("100 coins", "_100Coins"), ("100coins", "_100coins"), ("coins100", "coins100"), ("coins_100", "coins100"),
        ("coins-100", "coins100"), ("coins.100", "coins100"), ("1", "_1"), ("1month", "_1month"), ("P1M", "p1m"),
        ("VW", "vw"), ("BMW", "bmw"), ("IAP_NoLogo", "iapNoLogo"), ("unlock_maps", "unlockMaps"), ("Pro", "pro"),
        ("premium_forever", "premiumForever"), ("nonRenewing.standard", "nonRenewingStandard"), ("Item 0", "item0"),
        ("ARSubscriptionMonthly", "arSubscriptionMonthly"), ("URLSession pack", "urlSessionPack"), ("IAPNoAds", "iapNoAds"),
        ("Coffee-Tip", "coffeeTip"), ("GEMS OFFER 99.99", "gemsOffer9999"), ("Bux x10", "buxX10"),
        ("⛽️", "unnamed"), ("🚗 car", "car"), ("car 🚗", "car"), ("", "unnamed"), ("   ", "unnamed"), ("---", "unnamed"),
        ("café", "café"), ("Crème Brûlée", "crèmeBrûlée"), ("日本語", "日本語"), ("金币 100", "金币100"), ("Привет мир", "приветМир"),
        ("Ünïcödé", "ünïcödé"), ("a/b\\c\"d", "aBCD"), ("tab\there", "tabHere"), ("new\nline", "newLine"), ("a\u{200B}b", "aB"),
        // Keywords, contextual and recent ones included, escaped with backticks.
        ("class", "`class`"), ("default", "`default`"), ("self", "`self`"), ("Self", "`self`"), ("Type", "type"),
        ("some", "`some`"), ("any", "`any`"), ("async", "`async`"), ("await", "`await`"), ("actor", "`actor`"),
        ("package", "`package`"), ("consume", "`consume`"), ("borrowing", "`borrowing`"), ("consuming", "`consuming`"),
        ("nonisolated", "`nonisolated`"), ("macro", "`macro`"), ("each", "`each`"), ("sending", "`sending`"),
        ("init", "`init`"), ("func", "`func`"), ("true", "`true`"), ("nil", "`nil`"), ("in", "`in`"), ("is", "`is`"),
        ("for", "`for`"), ("while", "`while`"), ("return", "`return`"), ("subscript", "`subscript`"), ("get", "`get`"),
        ("set", "`set`"), ("weak", "`weak`"), ("copy", "`copy`"), ("discard", "`discard`"),
    ]

    func testTable() {
        XCTAssertGreaterThanOrEqual(Self.cases.count, 60)
        for (input, expected) in Self.cases {
            XCTAssertEqual(SwiftIdentifier.make(from: input), expected, input.debugDescription)
        }
        // UpperCamelCase for type names, with keywords that are types escaped too.
        XCTAssertEqual(SwiftIdentifier.make(from: "RazeFaces Club", upper: true), "RazeFacesClub")
        XCTAssertEqual(SwiftIdentifier.make(from: "self", upper: true), "`Self`")
        XCTAssertEqual(SwiftIdentifier.make(from: "type", upper: true), "`Type`")
        XCTAssertEqual(SwiftIdentifier.make(from: "any", upper: true), "`Any`")
        XCTAssertEqual(SwiftIdentifier.make(from: "vip", upper: true), "Vip")
    }
}
