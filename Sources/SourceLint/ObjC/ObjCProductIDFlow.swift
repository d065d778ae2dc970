/// Product-ID strings in Objective-C by data flow, as `SwiftLintVisitor+ProductIDFlow` does for
/// Swift: a string is used as a product ID only where its value reaches a sink — a selector part
/// that takes product identifiers (`initWithProductIdentifiers:`, `paymentWithProductIdentifier:`,
/// an app's own `…WithProductIdentifier:`), `isEqualToString:`/`isEqual:` against a product's
/// identifier, `containsObject:` of one, or an assignment to `….productIdentifier` — directly,
/// through a variable or `#define`, `@[…]`, `[NSSet setWithObjects:…]` and the other collection
/// constructors, `allKeys` of a dictionary literal, or `?:`. A string that is the argument of
/// any other message on the way (`URLForResource:@"IAP_ProductIDs"`), a dictionary literal's key
/// or value, or another statement's text is never one.
///
/// Linear in the tokens: brackets are matched once, each message is read once per pass (and
/// kept when values lead into it), where each expression ends is worked out once for all, and
/// following values has a fixed budget per sink that every step spends — each value looked at,
/// each token stepped over, each declaration of a name considered — so no sink costs more than
/// the budget, however large the literal or however many the assignments its value leads to.
struct ObjCProductIDFlow {
    typealias Token = ObjCTokenizer.Token

    let tokens: [Token]
    /// For `(`, `[` and `{`: the index of the token that closes it (`-1` when none does).
    let closer: [Int]
    /// For each token: the `{` that most closely encloses it (`-1` at file level).
    let enclosingBrace: [Int]
    /// Name → where its value is written: (first token, end, enclosing brace, through `self.`/`_`).
    private var declarations: [String: [(start: Int, end: Int, brace: Int, member: Bool)]] = [:]
    /// The same, sorted for lookup: per name, the local declarations by the brace that holds
    /// them, and the file's and the object's own in order.
    var locals: [String: [Int: [Range<Int>]]] = [:]
    var shared: [String: [Range<Int>]] = [:]
    /// The messages values were followed into, read once each for all sinks (nil: not a message).
    var reached: [Int: Message?] = [:]
    /// Where an expression starting at each token ends (`expressionEnd`), for a start outside
    /// and inside a `#define`.
    private var ends: [[Int32]] = []
    /// The string tokens whose values reach a product-ID sink.
    private(set) var productIDStrings = Set<Int>()
    /// The string tokens whose values reach only sinks of unverified kind (`ProductIDCall`): an
    /// app's own or an unknown SDK's selector that says product ID, named for the message.
    private(set) var unverifiedProductIDStrings: [Int: String] = [:]
    /// Strings that name things (resources, keys, notifications, error domains) or sit in a
    /// dictionary literal: never product IDs.
    private(set) var namingStrings = Set<Int>()

    static let maxNameHops = 6
    static let maxValueDepth = 24
    /// Steps one sink may spend following values.
    static let budgetPerSink = 1024
    /// Enclosing blocks looked through for a local declaration of a name.
    static let maxBlockLevels = 256

    /// Selector parts whose string argument names a resource, key, notification or domain.
    static let namingSelectors: Set<String> = ["ofType", "withExtension", "imageNamed", "systemImageNamed", "named", "name",
                                               "postNotificationName", "notificationName", "errorWithDomain", "domain",
                                               "initWithSuiteName", "suiteName", "bundleWithIdentifier", "inDirectory", "subdirectory"]
    static let collectionConstructors: Set<String> = ["setWithObjects", "setWithObject", "setWithArray", "setWithSet", "arrayWithObjects",
                                                      "arrayWithObject", "arrayWithArray", "initWithObjects", "initWithArray", "initWithSet",
                                                      "orderedSetWithArray", "orderedSetWithObjects", "orderedSetWithObject"]
    static let collectionExtenders: Set<String> = ["setByAddingObject", "setByAddingObjectsFromArray", "setByAddingObjectsFromSet",
                                                   "arrayByAddingObject", "arrayByAddingObjectsFromArray", "addObject", "addObjectsFromArray"]
    static let keepingSelectors: Set<String> = ["copy", "mutableCopy", "allObjects", "array", "set", "sortedArrayUsingSelector"]

    /// `catalog`: whether there is a catalog to check IDs against; without one nothing is worked out.
    init(tokens: [Token], catalog: Bool) {
        self.tokens = tokens
        guard catalog else {
            closer = []
            enclosingBrace = []
            return
        }
        var closer = [Int](repeating: -1, count: tokens.count)
        var enclosing = [Int](repeating: -1, count: tokens.count)
        var stack: [Int] = []
        var braces: [Int] = []
        for (i, token) in tokens.enumerated() {
            enclosing[i] = braces.last ?? -1
            guard token.kind == .punctuation else { continue }
            switch token.text {
            case "(", "[", "{":
                stack.append(i)
                if token.text == "{" { braces.append(i) }
            case ")", "]", "}":
                // Pop to the matching opener, looking a few levels down; a stray closer closes nothing.
                let opener = token.text == ")" ? "(" : token.text == "]" ? "[" : "{"
                let floor = max(0, stack.count - 8)
                if let match = stack[floor...].lastIndex(where: { tokens[$0].text == opener }) {
                    while let brace = braces.last, brace >= stack[match] { braces.removeLast() }
                    closer[stack[match]] = i
                    stack.removeSubrange(match...)
                }
            default:
                break
            }
        }
        self.closer = closer
        enclosingBrace = enclosing
        ends = [false, true].map { inDefine in Self.expressionEnds(tokens, closer: closer, inDefine: inDefine) }
        gatherDeclarations()
        for (name, list) in declarations {
            for declaration in list {
                if !declaration.member && declaration.brace >= 0 {
                    locals[name, default: [:]][declaration.brace, default: []].append(declaration.start..<declaration.end)
                } else {
                    shared[name, default: []].append(declaration.start..<declaration.end)
                }
            }
        }
        markNamingStrings()
        gatherSinks()
    }

    /// For every start, where `expressionEnd` stops, worked out from the end of the file back:
    /// an expression ends at a `;`, `,` or bracket at its own depth, steps over a group to after
    /// its closer, and ends where the `#define` it started in (or out of) ends.
    private static func expressionEnds(_ tokens: [Token], closer: [Int], inDefine: Bool) -> [Int32] {
        var ends = [Int32](repeating: Int32(tokens.count), count: tokens.count + 1)
        for k in stride(from: tokens.count - 1, through: 0, by: -1) {
            let text = tokens[k].text
            if tokens[k].kind == .punctuation {
                if (text == "(" || text == "[" || text == "{"), closer[k] > k { ends[k] = ends[closer[k] + 1]; continue }
                if text == ";" || text == "," || text == ")" || text == "]" || text == "}" || text == "(" || text == "[" || text == "{" {
                    ends[k] = Int32(k)
                    continue
                }
            }
            ends[k] = tokens[k].inDefine != inDefine ? Int32(k) : ends[k + 1]
        }
        return ends
    }

    // MARK: Declarations

    private mutating func gatherDeclarations() {
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            // `#define NAME value`: the rest of the line.
            if token.inDefine, token.kind == .identifier, i == 0 || !(tokens[i - 1].inDefine && tokens[i - 1].line == token.line) {
                var end = i + 1
                while end < tokens.count, tokens[end].inDefine, tokens[end].line == token.line { end += 1 }
                if end > i + 1 { declarations[token.text, default: []].append((i + 1, end, -1, false)) }
                i = end
                continue
            }
            // `NAME = value;` (not `==`, `!=`, `<=`, `>=`).
            if token.text == "=", token.kind == .punctuation, i >= 1, tokens[i - 1].kind == .identifier,
               i + 1 < tokens.count, tokens[i + 1].text != "=" {
                let end = expressionEnd(from: i + 1)
                var name = tokens[i - 1].text
                let member = (i >= 3 && tokens[i - 2].text == "." && tokens[i - 3].text == "self") || name.hasPrefix("_")
                if name.hasPrefix("_") { name.removeFirst() }
                declarations[name, default: []].append((i + 1, end, enclosingBrace[i], member))
            }
            i += 1
        }
        // `[ids addObject:@"…"]`: what is added to a collection is among its values.
        for i in tokens.indices where tokens[i].text == "[" && tokens[i].kind == .punctuation {
            guard let send = message(at: i), send.receiver.count == 1 || (send.receiver.count == 3 && tokens[send.receiver.lowerBound].text == "self"),
                  let first = send.parts.first, Self.collectionExtenders.contains(first.name), first.name.hasPrefix("add") else { continue }
            var name = tokens[send.receiver.upperBound - 1].text
            let member = send.receiver.count == 3 || name.hasPrefix("_")
            if name.hasPrefix("_") { name.removeFirst() }
            for argument in first.arguments {
                declarations[name, default: []].append((argument.lowerBound, argument.upperBound, enclosingBrace[i], member))
            }
        }
    }

    /// Where an expression that starts at `start` ends: the `;` or `,` at its own depth, or the
    /// closer of the bracket it sits in.
    private func expressionEnd(from start: Int) -> Int {
        guard start < tokens.count else { return tokens.count }
        return Int(ends[tokens[start].inDefine ? 1 : 0][start])
    }

    // MARK: Messages

    struct Part {
        var name: String
        /// The argument's token range (several for a variadic `setWithObjects:a, b, nil`).
        var arguments: [Range<Int>]
    }

    struct Message {
        var receiver: Range<Int>
        var parts: [Part]
    }

    /// The message send `[receiver part:arg …]` opened at `open`, or nil when it is not one
    /// (an array subscript, a lambda, a malformed text).
    func message(at open: Int) -> Message? {
        let close = closer[open]
        guard close > open + 1 else { return nil }
        // The receiver: a nested message, a literal, or a name with `.property` chains.
        var k = open + 1
        if tokens[k].text == "[" || (tokens[k].text == "@" && k + 1 < close && tokens[k + 1].text == "[") {
            if tokens[k].text == "@" { k += 1 }
            guard closer[k] > k, closer[k] < close else { return nil }
            k = closer[k] + 1
        } else if tokens[k].kind == .identifier || tokens[k].kind == .string {
            k += 1
            while k + 1 < close, tokens[k].text == ".", tokens[k + 1].kind == .identifier { k += 2 }
            if k < close, tokens[k].text == "(", closer[k] > k, closer[k] < close { k = closer[k] + 1 }
        } else {
            return nil
        }
        let receiver = (open + 1)..<k
        guard k < close, tokens[k].kind == .identifier else { return nil }
        // A unary selector: `[set allObjects]`.
        if k + 1 == close { return Message(receiver: receiver, parts: [Part(name: tokens[k].text, arguments: [])]) }
        var parts: [Part] = []
        while k < close {
            guard tokens[k].kind == .identifier, k + 1 < close, tokens[k + 1].text == ":" else { return parts.isEmpty ? nil : Message(receiver: receiver, parts: parts) }
            var part = Part(name: tokens[k].text, arguments: [])
            var start = k + 2
            var j = start
            while j < close {
                if tokens[j].kind == .punctuation, ["(", "[", "{"].contains(tokens[j].text), closer[j] > j { j = closer[j] + 1; continue }
                if tokens[j].text == "," {
                    part.arguments.append(start..<j)
                    start = j + 1
                } else if tokens[j].kind == .identifier, j + 1 < close, tokens[j + 1].text == ":", j > start,
                          tokens[j - 1].text != "?" {
                    break
                }
                j += 1
            }
            if start < j { part.arguments.append(start..<j) }
            parts.append(part)
            k = j
        }
        return Message(receiver: receiver, parts: parts)
    }

    // MARK: Sinks

    private mutating func gatherSinks() {
        var sinks: [Range<Int>] = []
        var unverified: [(Range<Int>, String)] = []
        for i in tokens.indices where tokens[i].kind == .punctuation {
            if tokens[i].text == "[", let send = message(at: i) {
                var kind: ProductIDCall.Kind?
                for part in send.parts {
                    let lower = part.name.lowercased()
                    if ["productidentifier", "productidentifiers", "productid", "productids"].contains(where: { lower.hasSuffix($0) }) {
                        // Whose product IDs: by the class the message is sent to (`ProductIDCall`).
                        if kind == nil { kind = ProductIDCall.kind(root: receiverRoot(send.receiver), initializer: true) }
                        switch kind! {
                        case .appStore: sinks += part.arguments
                        case .unverified: unverified += part.arguments.map { ($0, "`\(part.name):`") }
                        case .otherStore: break
                        }
                    }
                    guard let argument = part.arguments.first else { continue }
                    if part.name == "isEqualToString" || part.name == "isEqual" {
                        if mentionsProductID(send.receiver) { sinks.append(argument) }
                        if mentionsProductID(argument) { sinks.append(send.receiver) }
                    } else if part.name == "containsObject", mentionsProductID(argument) {
                        sinks.append(send.receiver)
                    }
                }
            } else if tokens[i].text == "=", i >= 2, i + 1 < tokens.count, tokens[i + 1].text != "=", tokens[i - 2].text == ".",
                      ["productIdentifier", "productID", "productId"].contains(tokens[i - 1].text) {
                // `payment.productIdentifier = @"…";`
                sinks.append((i + 1)..<expressionEnd(from: i + 1))
            }
        }
        for sink in sinks {
            var budget = Self.budgetPerSink
            let found = valueStrings(sink, depth: 0, hops: 0, budget: &budget)
            productIDStrings.formUnion(found)
        }
        for (sink, call) in unverified {
            var budget = Self.budgetPerSink
            for string in valueStrings(sink, depth: 0, hops: 0, budget: &budget) where !productIDStrings.contains(string) {
                if unverifiedProductIDStrings[string] == nil { unverifiedProductIDStrings[string] = call }
            }
        }
    }

    /// The class or object a message is sent to: `SKProductsRequest` in `[[SKProductsRequest
    /// alloc] init…]`, `Paddle` in `[[Paddle sharedInstance] …]`, `self` in `[self.store …]`.
    private func receiverRoot(_ range: Range<Int>) -> String? {
        var k = range.lowerBound
        while k < range.upperBound, tokens[k].text == "[" { k += 1 }
        return k < range.upperBound && tokens[k].kind == .identifier ? tokens[k].text : nil
    }

    /// A product's identifier itself: `transaction.payment.productIdentifier`, `[payment
    /// productIdentifier]`, a local `productID`. Not a value made from one
    /// (`[[p.productIdentifier componentsSeparatedByString:@"."] lastObject]`).
    private func mentionsProductID(_ range: Range<Int>) -> Bool {
        guard let last = range.last else { return false }
        func namesID(_ name: String) -> Bool {
            let lower = name.lowercased()
            return lower.hasSuffix("productidentifier") || lower.hasSuffix("productid")
        }
        // `[receiver productIdentifier]`.
        if tokens[range.lowerBound].text == "[", closer[range.lowerBound] == last, let send = message(at: range.lowerBound),
           send.parts.count == 1, send.parts[0].arguments.isEmpty {
            return namesID(send.parts[0].name)
        }
        // `a.b.productIdentifier`: names and dots only, ending in the ID.
        for k in range where !(tokens[k].kind == .identifier || tokens[k].text == ".") { return false }
        return tokens[last].kind == .identifier && namesID(tokens[last].text)
    }

    // MARK: Naming positions

    private mutating func markNamingStrings() {
        for i in tokens.indices where tokens[i].kind == .string {
            // `forKey:@"…"`, `URLForResource:@"…"`, `ofType:@"…"`.
            if i >= 2, tokens[i - 1].text == ":", tokens[i - 2].kind == .identifier {
                let selector = tokens[i - 2].text
                let lower = selector.lowercased()
                if Self.namingSelectors.contains(selector) || lower.hasSuffix("forkey") || lower.hasSuffix("forkeypath")
                    || lower.hasSuffix("resource") || lower.hasSuffix("named") {
                    namingStrings.insert(i)
                }
            }
        }
        // Keys and values of dictionary literals: `@{@"user_id": @"…"}`.
        for i in tokens.indices where tokens[i].text == "@" && i + 1 < tokens.count && tokens[i + 1].text == "{" && closer[i + 1] > i + 1 {
            // Each literal once for the file: no budget to spend.
            var unlimited = Int.max
            for element in elements((i + 2)..<closer[i + 1], budget: &unlimited) {
                guard let colon = topLevel(":", in: element, budget: &unlimited) else { continue }
                for part in [element.lowerBound..<colon, (colon + 1)..<element.upperBound] where part.count == 1 && tokens[part.lowerBound].kind == .string {
                    namingStrings.insert(part.lowerBound)
                }
            }
        }
    }
}
