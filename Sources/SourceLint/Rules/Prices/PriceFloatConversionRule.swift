import Diagnostics
import Foundation
import PriceFormatting
import SwiftSyntax

/// `price-float-conversion`. Run by the one walk of each file, which hands it the nodes and tokens it declares
/// (`SwiftLintRule`, `ObjCLintRule`, at the end of this file); its decisions are below.
public enum PriceFloatConversionRule: Rule {
    public static let description = RuleDescription(
        id: "price-float-conversion", name: "Price through Float or Double", severity: .warning,
        rationale: "A Float or Double cannot hold 0.1 or most cents exactly, and an integer holds none; a price shown, summed or stored through one is off by a cent sooner or later (or by 99 at once). Keep prices Decimal and format them with the product's priceLocale. A price is followed through the locals that hold it, whatever their names. Comparing, ordering, logging and ratios are fine.",
        triggering: [.init(#"let p = ↓product.price.floatValue"#), .init(#"let whole = ↓NSDecimalNumber(decimal: product.price).intValue"#),
                     .init(#"let whole = ↓Int(truncating: product.price as NSNumber)"#),
                     .init(#"label.text = [NSString stringWithFormat:@"%ld", (long)↓product.price.integerValue];"#, .objc), .init(#"let p = ↓skProduct.price.doubleValue"#), .init(#"let p = ↓Float(truncating: product.price)"#),
                     .init(#"let p = ↓Double(truncating: price)"#), .init(#"let p = ↓(price as NSDecimalNumber).doubleValue"#),
                     .init("total += ↓product.price.doubleValue"), .init("let sum = products.reduce(0) { $0 + ↓$1.price.doubleValue }"),
                     .init("import StoreKit\nenum Offer {\n    case localizedPrice(↓price: Double)\n}"), .init("import StoreKit\nstruct Plan {\n    let ↓price: Double\n}"),
                     .init(#"label.text = [NSString stringWithFormat:@"%.2f", ↓product.price.floatValue];"#, .objc),
                     .init("#import <StoreKit/StoreKit.h>\n@interface Plan : NSObject\n@property (nonatomic) double ↓price;\n@end", .objc),
                     .init("#import <StoreKit/StoreKit.h>\n@implementation Plan\n{\n    double ↓_defaultPrice;\n}\n@end", .objc),
                     .init("let amount = product.price\nlet whole = ↓NSDecimalNumber(decimal: amount).intValue"),
                     .init("NSDecimalNumber *amount = product.price;\nlabel.text = [NSString stringWithFormat:@\"%d\", [↓amount intValue]];", .objc)],
        nonTriggering: [.init(#"let p = product.price"#), .init(#"let w = view.frame.width.floatValue"#), .init(#"let d = Double(count)"#),
                        .init("let amount = order.total\nlet whole = amount.intValue"),
                        .init("if product.price.doubleValue > 0 { show() }"),
                        .init("let cheapest = products.sorted { $0.price.doubleValue < $1.price.doubleValue }"),
                        .init(#"print("price", product.price.doubleValue)"#),
                        .init("let saving = 1 - yearly.price.doubleValue / (monthly.price.doubleValue * 12)"),
                        .init(#"Analytics.logEvent("purchase", parameters: ["value": product.price.doubleValue])"#),
                        .init("import StoreKit\nstruct Plan {\n    var priceValue: Double { 0 }\n}"),
                        .init("struct Customization {\n    var price: Float\n}"), .init("stats.gold -= Float(price)"),
                        .init(#"NSLog(@"%f", product.price.floatValue);"#, .objc),
                        .init("if (product.price.floatValue > 0) { [self show]; }", .objc),
                        .init("#import <StoreKit/StoreKit.h>\n- (void)show {\n    double monthlyPrice;\n}", .objc),
                        .init("- (NSString *)discount {\n    double regular = monthly.price.doubleValue;\n    double yearlyPrice = yearly.price.doubleValue;\n    if (regular > 0) {\n        int percent = (int)((1 - yearlyPrice / (regular * 12)) * 100);\n        return [NSString stringWithFormat:@\"-%d%%\", percent];\n    }\n    return nil;\n}", .objc),
                        .init("func discount() -> Int {\n    let regular = monthly.price.doubleValue\n    let yearly = annual.price.doubleValue\n    return Int((1 - yearly / (regular * 12)) * 100)\n}")])
}

extension SwiftLintVisitor {
    /// NSNumber's integer values: on a price, they truncate it.
    static let integerMembers: Set<String> = ["intValue", "integerValue", "int32Value", "int64Value", "uintValue", "unsignedIntegerValue"]

    /// `product.price.doubleValue`, `(price as NSDecimalNumber).floatValue`.
    func checkConversionMember(_ node: MemberAccessExprSyntax) {
        let member = node.declName.baseName.text
        // `.doubleValue` is NSNumber's: on a price, that is money (NSDecimalNumber), not a game's gold.
        let truncates = Self.integerMembers.contains(member)
        guard member == "floatValue" || member == "doubleValue" || truncates, let base = node.base,
              mentionsPrice(base) || heldPrice(base) != nil, keepsPrecision(node), valueKeepsPrecision(node) else { return }
        add(PriceFloatConversionRule.description, truncates
            ? "'.\(member)' on a price drops its cents (4.99 becomes 4); keep it Decimal and format it with the product's priceLocale"
            : "'.\(member)' on a price loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
    }

    /// `Float(…price…)`, `Double(truncating: price)`, `CGFloat(price)`.
    func checkConversionCall(_ node: FunctionCallExprSyntax) {
        // `Double(truncating:)` takes an NSNumber: money. A plain `Float(price)` may be a game's
        // gold, so it counts only where products are sold.
        guard let callee = Self.calleeName(node), ["Float", "Double", "CGFloat", "Int", "Int32", "Int64", "UInt"].contains(callee),
              node.arguments.contains(where: { argument in
                  let truncating = argument.label?.text == "truncating"
                  if mentionsPrice(argument.expression), truncating || sellsOrNamesProduct(argument.expression) { return true }
                  // A local that holds a price, whatever its name (`let amount = product.price`).
                  guard let held = heldPrice(argument.expression) else { return false }
                  return truncating || facts.sellsProducts || held
              }),
              keepsPrecision(node), valueKeepsPrecision(node) else { return }
        add(PriceFloatConversionRule.description, callee.hasPrefix("Int") || callee == "UInt"
            ? "converting a price to \(callee) drops its cents (4.99 becomes 4); keep it Decimal and format it with the product's priceLocale"
            : "converting a price to \(callee) loses cents; keep it Decimal and format it with the product's priceLocale", at: node)
    }

    /// Whether an expression is a price: it names one, or a local that holds one.
    func namesMoney(_ expression: some SyntaxProtocol) -> Bool {
        mentionsPrice(expression) || Self.mentions(expression, facts.priceNames)
    }

    /// A price of a product: the file sells products (it imports StoreKit, which Swift needs for
    /// any StoreKit type), or the expression names a product. A game's `price` in gold is not money.
    func sellsOrNamesProduct(_ expression: some SyntaxProtocol) -> Bool {
        facts.sellsProducts || expression.tokens(viewMode: .sourceAccurate).contains { $0.text.lowercased().contains("product") }
    }

    /// Whether a price converted here is shown, summed, stored or returned, where lost cents
    /// matter; not when it is compared, ordered, divided by another price (a ratio), or logged.
    func keepsPrecision(_ node: some SyntaxProtocol) -> Bool {
        if neverShips(node) { return false }
        var current = Syntax(node).parent
        while let syntax = current {
            if let sequence = syntax.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                for (k, element) in elements.enumerated() {
                    guard let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text else { continue }
                    if LintScope.comparisonOperators.contains(op) { return false }
                    if op == "/", k > 0, k + 1 < elements.count, namesMoney(elements[k - 1]), namesMoney(elements[k + 1]) {
                        return false
                    }
                }
            }
            if let call = syntax.as(FunctionCallExprSyntax.self) {
                if isLoggingCall(call) { return false }
                if let name = Self.calleeName(call), LintScope.orderingCalls.contains(name) { return false }
            }
            if let name = Self.declaredName(syntax) {
                if LintScope.namesLogging(name) { return false }
                // `let discountPercent = …`: a ratio, whatever its operators.
                if syntax.is(PatternBindingSyntax.self), !LintScope.ratioWords.isDisjoint(with: LintScope.words(name)) { return false }
            }
            // A statement ends the expression, unless it is a closure's (`sorted { … }`, `reduce`).
            if syntax.is(CodeBlockItemSyntax.self), syntax.parent?.parent?.is(ClosureExprSyntax.self) != true { return true }
            if syntax.is(MemberBlockItemSyntax.self) { return true }
            current = syntax.parent
        }
        return true
    }

    /// A price converted into a local (`let monthly = product.price.doubleValue`) matters only if
    /// some later use of that local keeps it: one that is only compared or divided by another
    /// price loses nothing anyone sees.
    func valueKeepsPrecision(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        var binding: PatternBindingSyntax?
        while let syntax = current, !syntax.is(CodeBlockItemSyntax.self) {
            if let b = syntax.as(PatternBindingSyntax.self) { binding = b; break }
            current = syntax.parent
        }
        guard let binding, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let item = binding.parent?.parent?.parent?.as(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return true }
        var uses: [DeclReferenceExprSyntax] = []
        var after = false
        for other in list {
            if other.id == item.id { after = true; continue }
            guard after else { continue }
            for token in other.tokens(viewMode: .sourceAccurate) where token.text == name {
                if let reference = token.parent?.as(DeclReferenceExprSyntax.self) { uses.append(reference) }
            }
        }
        return uses.isEmpty || uses.contains { keepsPrecision($0) }
    }

    /// `case localizedPrice(price: Double)`, `let price: Double` in a model type: a price kept
    /// where it cannot hold its cents.
    func checkStoredPrice(name: String, type: TypeSyntax?, in node: some SyntaxProtocol) {
        guard let type, facts.sellsProducts, LintScope.namesPrice(name) else { return }
        let bare = type.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "?! "))
        guard ["Double", "Float", "CGFloat", "Float32", "Float64"].contains(bare) else { return }
        if let binding = node.as(PatternBindingSyntax.self) {
            // Stored properties of a type; computed ones convert, and that is reported where they do.
            guard binding.accessorBlock == nil,
                  binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.is(MemberBlockItemSyntax.self) == true else { return }
        }
        guard !neverShips(node) else { return }
        add(PriceFloatConversionRule.description, "\(Quote.bounded(name)) keeps a price as \(bare), which cannot hold most cents exactly; keep the Decimal (or the product) instead", at: node)
    }
}

extension ObjCLinter {
    /// What `keepsPrecision` and `valueKeepsPrecision` found, kept for the rest of the file: each
    /// statement is read once, and each name's uses once.
    struct PrecisionMemo {
        /// Which tokens name a price (`namesPrice`): made when a conversion is first checked.
        var pricey: TokenCount?
        var statements: [Int: Bool] = [:]
        /// Every name's uses (not after a `.`), found in one pass when first asked for.
        var positions: [String: [Int]]?
        /// Per name asked about: its uses, and how many of the first k keep precision.
        var uses: [String: (positions: [Int], keeping: [Int32])] = [:]
        var blocks: [Int: Bool] = [:]
    }

    /// Whether a price converted at `index` keeps mattering: not compared, divided by another
    /// price (a ratio), or logged. The statement is the tokens between the `;`, `{` or `}` before
    /// `index` and the one after it, read once however many conversions it holds.
    func keepsPrecision(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        if let known = memo.statements[start] { return known }
        let end = min(structure.stop(from: index), tokens.count - 1)
        if memo.pricey == nil {
            memo.pricey = TokenCount(tokens) { i in
                tokens[i].kind == .identifier && (NameWords.contains(tokens[i].text, "price") || priceNames.contains(tokens[i].text))
            }
        }
        let keeps = statementKeepsPrecision(tokens, start, end, memo.pricey!)
        memo.statements[start] = keeps
        return keeps
    }

    private func statementKeepsPrecision(_ tokens: [Token], _ start: Int, _ end: Int, _ pricey: TokenCount) -> Bool {
        guard start <= end else { return true }
        let statement = start...end
        if statement.contains(where: { tokens[$0].kind == .identifier && (LintScope.loggingCalls.contains(tokens[$0].text) || tokens[$0].text.hasPrefix("DDLog")) }) {
            return false
        }
        for k in statement where tokens[k].kind == .punctuation {
            let text = tokens[k].text
            let next = k + 1 <= end ? tokens[k + 1].text : ""
            if text == "/", pricey.any(in: operand(tokens, before: k, from: start)),
               pricey.any(in: operand(tokens, after: k, through: end)) { return false }
            if (text == "=" || text == "!") && next == "=" { return false }
            if (text == "<" || text == ">") && !isGeneric(tokens, k, start, end) { return false }
        }
        // `double discountPercent = …`: a ratio, whatever its operators.
        if let equals = statement.first(where: { tokens[$0].text == "=" }), equals > start, tokens[equals - 1].kind == .identifier,
           !LintScope.ratioWords.isDisjoint(with: LintScope.words(tokens[equals - 1].text)) { return false }
        return true
    }

    /// `<` of `NSArray<NSString *>`, not a comparison.
    private func isGeneric(_ tokens: [Token], _ k: Int, _ start: Int, _ end: Int) -> Bool {
        tokens[k].text == "<" && k + 1 <= end && tokens[k + 1].text.first?.isUppercase == true && k > start
            && tokens[k - 1].text.first?.isUppercase == true
    }

    /// `TYPE NAME = … price … ;` declarations: an identifier that says price before the end of
    /// the statement (`;`, `{` or `}`).
    static func priceNames(_ tokens: [Token], _ structure: ObjCStructure) -> Set<String> {
        var nextPriceWord = [Int](repeating: tokens.count, count: tokens.count + 1)
        for j in stride(from: tokens.count - 1, through: 0, by: -1) {
            nextPriceWord[j] = tokens[j].kind == .identifier && NameWords.contains(tokens[j].text, "price") ? j : nextPriceWord[j + 1]
        }
        var names = Set<String>()
        for i in tokens.indices.dropFirst() where tokens[i].text == "=" && tokens[i - 1].kind == .identifier {
            // An assignment, not the `==` of a comparison.
            guard i + 1 < tokens.count, tokens[i + 1].text != "=" else { continue }
            if nextPriceWord[i + 1] < structure.stop(from: i + 1) { names.insert(tokens[i - 1].text) }
        }
        return names
    }

    /// The operand before `k`, not before `from`: a bracketed group, or a chain of names
    /// (`self.monthly.price`); a group is stepped over by its matching bracket.
    func operand(_ tokens: [Token], before k: Int, from: Int) -> Range<Int> {
        var i = k - 1
        while i >= from {
            let text = tokens[i].text
            if tokens[i].kind == .punctuation, text == ")" || text == "]" {
                i = structure.brackets.opener(ofCloser: i) - 1
                continue
            }
            if tokens[i].kind == .punctuation, text == "(" || text == "[" { break }
            if tokens[i].kind == .punctuation, text != "." { break }
            i -= 1
        }
        return max(i + 1, from)..<k
    }

    /// The operand after `k`, not past `through`: a chain of names, and at most one group.
    func operand(_ tokens: [Token], after k: Int, through: Int) -> Range<Int> {
        var i = k + 1
        while i <= through {
            let text = tokens[i].text
            if tokens[i].kind == .punctuation, text == "(" || text == "[" {
                i = structure.brackets.closer(ofOpener: i) + 1
                break
            }
            if tokens[i].kind == .punctuation, text == ")" || text == "]" { break }
            if tokens[i].kind == .punctuation, text != "." { break }
            i += 1
        }
        return (k + 1)..<min(i, through + 1)
    }

    /// A price converted into a local (`double monthly = product.price.doubleValue;`) matters
    /// only if a later use in the same body keeps it (see `keepsPrecision`).
    func valueKeepsPrecision(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        guard start + 2 < tokens.count, tokens[start].kind == .identifier, tokens[start + 1].kind == .identifier,
              tokens[start + 2].text == "=" else { return true }
        let name = tokens[start + 1].text
        // The uses after `index` in its body: up to the `}` that closes the block holding it.
        let bodyEnd = structure.braces.closer(enclosing: min(index + 1, tokens.count))
        if memo.uses[name] == nil {
            if memo.positions == nil {
                var all: [String: [Int]] = [:]
                for i in tokens.indices where tokens[i].kind == .identifier && (i == 0 || tokens[i - 1].text != ".") {
                    all[tokens[i].text, default: []].append(i)
                }
                memo.positions = all
            }
            let positions = memo.positions![name] ?? []
            var keeping = [Int32](repeating: 0, count: positions.count + 1)
            for (n, use) in positions.enumerated() { keeping[n + 1] = keeping[n] + (keepsPrecision(tokens, use, &memo) ? 1 : 0) }
            memo.uses[name] = (positions, keeping)
        }
        let (positions, keeping) = memo.uses[name]!
        let first = Self.lowerBound(positions, index + 1), last = Self.lowerBound(positions, bodyEnd)
        return first == last || keeping[last] > keeping[first]
    }

    /// The first index of `sorted` whose value is at least `value`.
    static func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// `@property … double price;`, or an instance variable in an `@interface`/`@implementation`
    /// block; not a local in a method.
    func isStoredDeclaration(_ tokens: [Token], _ index: Int, _ memo: inout PrecisionMemo) -> Bool {
        let start = statementStart(index)
        for i in stride(from: index - 1, through: start, by: -1) where tokens[i].text == "property" && i >= 1 && tokens[i - 1].text == "@" {
            return true
        }
        // The brace that opens the block holding the declaration.
        let i = structure.braces.opener(enclosingThrough: start - 1)
        guard start >= 1, i >= 0 else { return false }
        if let known = memo.blocks[i] { return known }
        let line = tokens[i].line
        var stored = false
        var j = i - 1
        while j >= 0, tokens[j].line >= line - 1 {
            if ["implementation", "interface"].contains(tokens[j].text), j >= 1, tokens[j - 1].text == "@" { stored = true; break }
            if ["-", "+", ")", ";"].contains(tokens[j].text) && tokens[j].line == line { break }
            j -= 1
        }
        memo.blocks[i] = stored
        return stored
    }
}

extension PriceFloatConversionRule: SwiftLintRule {
    static let swiftNodes: Set<SwiftNode.Kind> = [.variable, .enumCaseParameter, .call, .member]
    /// The conversions `checkConversionCall` reports.
    static let conversions: Set<String> = ["Float", "Double", "CGFloat", "Int", "Int32", "Int64", "UInt"]

    /// Names that say price (a stored price), conversions by name, and NSNumber's value members.
    static func wants(_ node: SwiftNode, in walk: SwiftLintVisitor) -> Bool {
        switch node {
        case .variable(let declaration):
            walk.bindsPriceName(declaration)
        case .enumCaseParameter(let parameter):
            (parameter.secondName?.text ?? parameter.firstName?.text).map(LintScope.namesPrice) ?? false
        case .call(let call):
            SwiftLintVisitor.calleeName(call).map(conversions.contains) ?? false
        case .member(let member):
            walk.facts.mayNameValue && {
                let name = member.declName.baseName.text
                return name == "floatValue" || name == "doubleValue" || SwiftLintVisitor.integerMembers.contains(name)
            }()
        case .literal, .sequence:
            false
        }
    }

    static func check(_ node: SwiftNode, in walk: SwiftLintVisitor) {
        switch node {
        case .variable(let declaration):
            for binding in declaration.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                walk.checkStoredPrice(name: name, type: binding.typeAnnotation?.type, in: binding)
            }
        case .enumCaseParameter(let parameter):
            guard let name = parameter.secondName?.text ?? parameter.firstName?.text else { return }
            walk.checkStoredPrice(name: name, type: parameter.type, in: parameter)
        case .call(let call):
            walk.checkConversionCall(call)
        case .member(let member):
            walk.checkConversionMember(member)
        case .literal, .sequence:
            break
        }
    }
}

extension PriceFloatConversionRule: ObjCLintRule {
    static let objcTokens: Set<ObjCTokenizer.Kind> = [.identifier]

    static func check(token index: Int, in file: inout ObjCFile, into found: inout FindingList) {
        let tokens = file.tokens, token = tokens[index], linter = file.linter
        if token.text == "floatValue" || token.text == "doubleValue" || SwiftLintVisitor.integerMembers.contains(token.text) {
            // price.floatValue or [price floatValue]: report at the start of the receiver chain.
            var j = index - 1
            if j >= 0, tokens[j].text == "." { j -= 1 }
            guard file.ships(index), j >= 0, tokens[j].kind == .identifier else { return }
            // A local that holds a price whatever its name (`NSDecimalNumber *amount = product.price;`).
            let held = j == 0 || tokens[j - 1].text != "." ? linter.heldPrice(tokens, name: j) : nil
            guard held != nil || tokens[j].text.lowercased().hasSuffix("price") else { return }
            j = Int(file.chainStart[j])
            if file.saysProduct == nil, !file.sellsProducts { file.saysProduct = TokenCount(tokens) { NameWords.contains(tokens[$0].text, "product") } }
            guard file.sellsProducts || held == true || file.saysProduct!.any(in: j..<(index + 1)),
                  linter.keepsPrecision(tokens, index, &file.memo), linter.valueKeepsPrecision(tokens, index, &file.memo) else { return }
            let loss = SwiftLintVisitor.integerMembers.contains(token.text) ? "drops its cents (4.99 becomes 4)" : "loses cents"
            found.append(Finding(rule: description, message: "\(Quote.bounded(token.text)) on a price \(loss); format the NSDecimalNumber with the product's priceLocale",
                                 line: tokens[j].line, column: tokens[j].column))
        } else if ["double", "float", "CGFloat", "Float64", "Float32"].contains(token.text) {
            // `@property double price;` or an instance variable: a price kept where it cannot hold its cents.
            guard file.ships(index), file.sellsProducts, index + 2 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].text == ";",
                  LintScope.namesPrice(tokens[index + 1].text), linter.isStoredDeclaration(tokens, index, &file.memo) else { return }
            let name = tokens[index + 1]
            found.append(Finding(rule: description, message: "\(Quote.bounded(name.text)) keeps a price as \(token.text), which cannot hold most cents exactly; keep the NSDecimalNumber (or the product) instead",
                                 line: name.line, column: name.column))
        }
    }
}
