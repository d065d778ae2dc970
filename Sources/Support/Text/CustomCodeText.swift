/// The word of a custom offer code, as App Store Connect takes it ("a merchant-defined
/// alphanumeric promotional code"), and the redemptions one may allow, as iap accepts them: the
/// catalog and a plan file are held to the same.
public enum CustomCodeText {
    public static let redemptions = 1...1_000_000

    /// Why `code` cannot be a custom code; nil when it can.
    public static func problem(_ code: String) -> String? {
        if code.isEmpty { return "is empty" }
        if code.utf8.count > 64 { return "is longer than 64 characters" }
        let alphanumeric = code.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
        return alphanumeric ? nil : "is not only letters and digits (A–Z, a–z, 0–9)"
    }
}
