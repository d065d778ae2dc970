import Diagnostics
import PriceFormatting

/// A lint rule over Objective-C: the kinds of token it reads, its check of each such token in the
/// one pass over the file (`ObjCLinter.run`), and what it reports once the pass is done. The pass
/// keeps the shared facts the rules query (`ObjCFile`).
protocol ObjCLintRule: Rule {
    static var objcTokens: Set<ObjCTokenizer.Kind> { get }
    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList)
    static func finish(in file: inout ObjCFile, into found: inout FindingList)
}

extension ObjCLintRule {
    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {}
    static func finish(in file: inout ObjCFile, into found: inout FindingList) {}
}

/// What the one Objective-C pass knows of its file, for every rule: the tokens and where each
/// sits (a translator's comment, localized copy, logged), the arguments of format calls, the
/// product-ID flow, whether the file sells products or ships; and the few things a rule gathers
/// during the pass for its `finish`.
struct ObjCFile {
    typealias Token = ObjCTokenizer.Token

    let linter: ObjCLinter
    let tokens: [Token]
    let roles: ObjCLinter.Roles
    /// The arguments of format calls (`stringWithFormat:`), when the file makes one.
    let facts: ObjCLinter.ArgumentFacts?
    let flow: ObjCProductIDFlow
    let neverShippedFile: Bool
    let sellsProducts: Bool
    /// Receiver chains (`self.product.price`): where each name's chain starts.
    let chainStart: [Int32]
    var memo = ObjCLinter.PrecisionMemo()
    /// Which names say product: made when a conversion is first met (most files have none).
    var saysProduct: TokenCount?
    /// Where `receipt-data` is written: made when a secret-shaped string is first met.
    var receiptData: TokenCount?
    /// Catalog IDs written where constants are defined (`hardcoded-product-id`'s `finish`).
    var definitions: [Int] = []
    /// Price constants, by name and value token (`hardcoded-price`'s `finish`).
    var priceConstants: [(name: Int, value: Int)] = []

    init(_ linter: ObjCLinter) {
        self.linter = linter
        let tokens = linter.tokenizer.tokens
        self.tokens = tokens
        roles = ObjCLinter.roles(tokens, linter.structure)
        var chainStart = tokens.indices.map { Int32($0) }
        for k in tokens.indices where k >= 2 && tokens[k - 1].text == "." && tokens[k - 2].kind == .identifier {
            chainStart[k] = chainStart[k - 2]
        }
        self.chainStart = chainStart
        let hasFormatCalls = tokens.indices.dropFirst(2).contains {
            tokens[$0].kind == .string && tokens[$0 - 1].text == ":" && ObjCLinter.formatSelectors.contains(tokens[$0 - 2].text)
        }
        facts = hasFormatCalls ? ObjCLinter.ArgumentFacts(tokens) : nil
        neverShippedFile = LintScope.isNeverShippedFile(linter.path, includeTests: linter.includeTests)
        sellsProducts = linter.tokenizer.importsStoreKit || tokens.contains { $0.kind == .identifier && ["SKProduct", "priceLocale"].contains($0.text) }
        flow = ObjCProductIDFlow(tokens: tokens, catalog: !linter.context.productConstants.isEmpty)
    }

    var context: LintContext { linter.context }

    /// Whether the token is in code that ships: not a preview's, mock's or test's file, not `#if DEBUG`.
    func ships(_ index: Int) -> Bool { !neverShippedFile && !tokens[index].debugOnly }

    /// A string a rule may read: in shipped code, and not a translator's comment.
    func isShownString(_ index: Int) -> Bool { ships(index) && !roles.comment.contains(index) }
}
