import Diagnostics

/// `unparsed-source`. Found by `SwiftLinter.run` (and `SwiftStructureScan`) and `ObjCLinter.run` where
/// their reading stops being reliable.
public enum UnparsedSourceRule: Rule {
    public static let description = RuleDescription(
        id: "unparsed-source", name: "Source that does not parse", severity: .warning,
        rationale: "A file with an unterminated string or comment, or other text the parser cannot read, is linted only as far as the parser recovers: findings after that point may be missed. The compiler says what is wrong; iap says where its reading stopped being reliable.",
        triggering: [.init("let id = ↓\"com.example.app.coins")],
        nonTriggering: [.init("let id = \"com.example.app.coins\"")])
}
