import Diagnostics
import SwiftSyntax

/// `hardcoded-shared-secret`: the lint counterpart of the catalog's `committed-secret` (a secret in
/// a plist). Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
public enum HardcodedSharedSecretRule: Rule {
    public static let description = RuleDescription(
        id: "hardcoded-shared-secret", name: "Hardcoded shared secret", severity: .error,
        rationale: "An App Store shared secret written in code ships in every copy of the app and sits in the repository: anyone who reads either can validate receipts as your app. Rotate it in App Store Connect, validate receipts on a server (or use StoreKit 2's signed transactions) and keep the secret out of the code. Reported only where it is unmistakable: 32 lowercase hexadecimal characters that are the `password` of a dictionary that also holds `receipt-data` (verifyReceipt's request), or that a name or label saying shared secret holds; the value is never shown. Other 32-character hex strings (hashes, UUIDs without dashes, colours) are not secrets to this rule, nor is code that never ships (previews, tests, mocks).",
        triggering: [.init(#"let body = ["receipt-data": receipt, "password": ↓"0123456789abcdef0123456789abcdef"]"#),
                     .init(#"let appSpecificSharedSecret = ↓"9f8e7d6c5b4a39281706f5e4d3c2b1a0""#),
                     .init(#"let validator = AppleReceiptValidator(service: .production, sharedSecret: ↓"9f8e7d6c5b4a39281706f5e4d3c2b1a0")"#),
                     .init(#"NSDictionary *body = @{@"receipt-data": receipt, @"password": ↓@"0123456789abcdef0123456789abcdef"};"#, .objc),
                     .init(#"static NSString *const kSharedSecret = ↓@"9f8e7d6c5b4a39281706f5e4d3c2b1a0";"#, .objc),
                     .init(#"#define ITC_SHARED_SECRET ↓@"9f8e7d6c5b4a39281706f5e4d3c2b1a0""#, .objc)],
        nonTriggering: [.init(#"let body = ["receipt-data": receipt, "password": Secrets.sharedSecret]"#),
                        .init(#"let login = ["user": name, "password": "0123456789abcdef0123456789abcdef"]"#),
                        .init(#"let checksum = "d41d8cd98f00b204e9800998ecf8427e""#),
                        .init(#"let sharedSecret = ProcessInfo.processInfo.environment["SHARED_SECRET"] ?? """#),
                        .init(#"let sharedSecret = "YOUR_SHARED_SECRET""#),
                        .init(#"NSString *md5 = @"d41d8cd98f00b204e9800998ecf8427e";"#, .objc),
                        .init(#"NSDictionary *body = @{@"receipt-data": receipt, @"password": kSecret};"#, .objc)])

    /// 32 lowercase hexadecimal characters: the form of an App Store shared secret.
    static func isSecretShaped(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `sharedSecret`, `appSpecificSharedSecret`, `kSharedSecret`, `ITC_SHARED_SECRET`,
    /// `iTunesSecret`, `receiptSecret`: a name that says App Store shared secret.
    static func namesSharedSecret(_ name: String) -> Bool {
        let letters = String(name.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) })
        guard letters.contains("secret") else { return false }
        if letters.contains("sharedsecret") || letters.contains("itunes") || letters.contains("appstore") { return true }
        let words = Set(LintScope.words(name))
        return words.contains("secret") && !words.isDisjoint(with: ["itc", "iap", "receipt", "receipts", "subscription"])
    }

    static func message(holder: String) -> String {
        "\(holder) an App Store shared secret written in code (32 hexadecimal characters, not shown): anyone with the app or the repository can validate receipts as your app; rotate it in App Store Connect and keep it out of the code (validate receipts on a server)"
    }
}

extension SwiftLintVisitor {
    /// A shared secret as verifyReceipt's `password` next to `receipt-data`, or held by a name or
    /// an argument label that says shared secret.
    func checkSharedSecret(_ node: StringLiteralExprSyntax, text: String) {
        guard HardcodedSharedSecretRule.isSecretShaped(text), let parent = node.parent, let holder = sharedSecretHolder(node, parent) else { return }
        guard !neverShips(node) else { return }
        add(HardcodedSharedSecretRule.description, HardcodedSharedSecretRule.message(holder: holder), at: node)
    }

    private func sharedSecretHolder(_ node: StringLiteralExprSyntax, _ parent: Syntax) -> String? {
        if let element = parent.as(DictionaryElementSyntax.self), element.value.id == node.id,
           element.key.as(StringLiteralExprSyntax.self).flatMap { plainText($0) } == "password",
           let elements = element.parent?.as(DictionaryElementListSyntax.self),
           elements.contains(where: { $0.key.as(StringLiteralExprSyntax.self).flatMap { plainText($0) } == "receipt-data" }) {
            return "the 'password' of this receipt-validation request is"
        }
        if let label = parent.as(LabeledExprSyntax.self)?.label?.text, HardcodedSharedSecretRule.namesSharedSecret(label) {
            return "\(Quote.bounded(label + ":")) is given"
        }
        if let binding = parent.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, HardcodedSharedSecretRule.namesSharedSecret(name) {
            return "\(Quote.bounded(name)) holds"
        }
        if let sequence = parent.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3, sequence.elements.last?.id == node.id,
           sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true, let target = sequence.elements.first,
           let name = Self.components(target).last, HardcodedSharedSecretRule.namesSharedSecret(name) {
            return "\(Quote.bounded(name)) holds"
        }
        return nil
    }
}

extension ObjCLinter {
    /// The finding for a shared secret at `index` (see the Swift check): `@"password": @"…"` (or
    /// `@"…", @"password"` in `dictionaryWithObjectsAndKeys:`) in a statement that also holds
    /// `@"receipt-data"`, or a string a name, `#define` or selector part that says shared secret holds.
    /// `receiptData`: which tokens are `@"receipt-data"`, counted once for the file when first asked.
    func sharedSecretFinding(_ tokens: [Token], _ index: Int, receiptData: inout TokenCount?) -> Finding? {
        let token = tokens[index]
        guard HardcodedSharedSecretRule.isSecretShaped(token.text) else { return nil }
        var holder: String?
        let keyed = (index >= 2 && tokens[index - 1].text == ":" && tokens[index - 2].kind == .string && tokens[index - 2].text == "password")
            || (index + 2 < tokens.count && tokens[index + 1].text == "," && tokens[index + 2].kind == .string && tokens[index + 2].text == "password")
        if keyed {
            if receiptData == nil { receiptData = TokenCount(tokens) { tokens[$0].kind == .string && tokens[$0].text == "receipt-data" } }
            let statement = statementStart(index)..<min(structure.stop(from: index) + 1, tokens.count)
            if receiptData!.any(in: statement) { holder = "the 'password' of this receipt-validation request is" }
        } else if index >= 2, tokens[index - 2].kind == .identifier, tokens[index - 1].text == "=" || tokens[index - 1].text == ":",
                  HardcodedSharedSecretRule.namesSharedSecret(tokens[index - 2].text) {
            holder = tokens[index - 1].text == ":" ? "\(Quote.bounded(tokens[index - 2].text + ":")) is given" : "\(Quote.bounded(tokens[index - 2].text)) holds"
        } else if token.inDefine, index >= 1, tokens[index - 1].kind == .identifier, tokens[index - 1].line == token.line,
                  HardcodedSharedSecretRule.namesSharedSecret(tokens[index - 1].text) {
            holder = "\(Quote.bounded(tokens[index - 1].text)) holds"
        }
        guard let holder else { return nil }
        return Finding(rule: HardcodedSharedSecretRule.description, message: HardcodedSharedSecretRule.message(holder: holder),
                       line: token.line, column: token.column)
    }
}

extension HardcodedSharedSecretRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.literal]

    static func check(_ literal: SwiftLiteral, in walk: SwiftLintVisitor) {
        if !literal.interpolated { walk.checkSharedSecret(literal.node, text: literal.text) }
    }
}

extension HardcodedSharedSecretRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.string]

    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        guard file.isShownString(index) else { return }
        let linter = file.linter
        if let secret = linter.sharedSecretFinding(file.tokens, index, receiptData: &file.receiptData) { found.append(secret) }
    }
}
