import Foundation

/// Where code sits, as far as the lint rules care: code that never ships (SwiftUI previews,
/// `#if DEBUG`, mocks and fixtures), code that logs rather than shows, generated files.
enum LintScope {
    /// Words that name SwiftUI previews: code that never reaches a customer, wherever it is.
    static let neverShippedWords: Set<String> = ["preview", "previews"]
    /// Words that name test support (mocks, fixtures, stubs): a file or folder so named is test
    /// code, linted only with --include-tests. A type so named in app code is app code: it ships,
    /// and is linted.
    static let testSupportWords: Set<String> = ["mock", "mocks", "mocked", "fixture", "fixtures", "stub", "stubs", "stubbed", "dummy",
                                                "fake", "fakes", "sample", "samples"]
    /// Words that name logging and analytics: values sent there are never shown.
    static let loggingWords: Set<String> = ["log", "logs", "logger", "logging", "analytics", "track", "tracking", "tracker",
                                            "telemetry", "event", "events", "metric", "metrics", "breadcrumb"]
    /// Functions whose arguments are logged, not shown.
    static let loggingCalls: Set<String> = ["print", "debugPrint", "dump", "NSLog", "os_log", "log", "debug", "info", "notice",
                                            "warning", "error", "fault", "trace", "critical", "verbose", "logEvent", "track",
                                            "trackEvent", "DDLogInfo", "DDLogDebug", "DDLogWarn", "DDLogError", "DDLogVerbose",
                                            "assert", "assertionFailure", "precondition", "preconditionFailure", "fatalError"]
    /// Calls whose closures compare or order: a price converted there is never shown or kept.
    static let orderingCalls: Set<String> = ["sorted", "sort", "min", "max", "filter", "first", "firstIndex", "last", "lastIndex",
                                             "contains", "allSatisfy", "partition", "lexicographicallyPrecedes", "drop", "prefix"]
    /// Words that name a ratio of two prices (a discount shown as a percentage).
    static let ratioWords: Set<String> = ["percent", "percentage", "discount", "saving", "savings", "ratio", "fraction", "factor"]
    static let comparisonOperators: Set<String> = ["<", ">", "<=", ">=", "==", "!=", "===", "!=="]

    /// Lowercased words of an identifier or file name: `MembershipTier+Mocks` → membership, tier, mocks.
    static func words(_ name: String) -> [String] {
        if let words = asciiWords(name) { return words }
        var words: [String] = []
        var current = ""
        var previous: Character?
        let chars = Array(name)
        for (i, c) in chars.enumerated() {
            guard c.isLetter || c.isNumber else {
                if !current.isEmpty { words.append(current.lowercased()); current = "" }
                previous = nil
                continue
            }
            if let p = previous {
                let lowerToUpper = p.isLowercase && c.isUppercase
                let acronymEnd = p.isUppercase && c.isUppercase && i + 1 < chars.count && chars[i + 1].isLowercase
                let letterDigit = p.isLetter != c.isLetter
                if lowerToUpper || acronymEnd || letterDigit { words.append(current.lowercased()); current = "" }
            }
            current.append(c)
            previous = c
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// `words` of an ASCII name, read as bytes (the same words: for ASCII, letters, digits, case
    /// and lowercasing are the bytes'); nil for any other name.
    private static func asciiWords(_ name: String) -> [String]? {
        var name = name
        return name.withUTF8 { bytes -> [String]? in
            func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
            func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
            func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            var words: [String] = []
            var start = -1
            func close(_ end: Int) {
                guard start >= 0, start < end else { return }
                words.append(String(unsafeUninitializedCapacity: end - start) { out in
                    for k in start..<end { out[k - start] = isUpper(bytes[k]) ? bytes[k] | 0x20 : bytes[k] }
                    return end - start
                })
            }
            var previous: UInt8 = 0
            for i in 0..<bytes.count {
                let c = bytes[i]
                guard c < 0x80 else { return nil }
                guard isUpper(c) || isLower(c) || isDigit(c) else {
                    close(i)
                    start = -1
                    previous = 0
                    continue
                }
                if previous != 0 {
                    let lowerToUpper = isLower(previous) && isUpper(c)
                    let acronymEnd = isUpper(previous) && isUpper(c) && i + 1 < bytes.count && isLower(bytes[i + 1])
                    let letterDigit = isDigit(previous) != isDigit(c)
                    if lowerToUpper || acronymEnd || letterDigit { close(i); start = i }
                } else {
                    start = i
                }
                previous = c
            }
            close(bytes.count)
            return words
        }
    }

    /// Whether a type, function or variable name says previews, mocks or fixtures.
    static func namesNeverShippedCode(_ name: String) -> Bool {
        !neverShippedWords.isDisjoint(with: words(name))
    }

    /// Words that name a stand-in for a real value: test support, and placeholders.
    static let standInWords: Set<String> = testSupportWords.union(["test", "placeholder", "placeholders"])

    /// Whether a type name says it stands in for a real value (`TestStoreProduct`, `MockProduct`,
    /// `PlaceholderPlan`).
    static func namesStandIn(_ name: String) -> Bool {
        !standInWords.isDisjoint(with: words(name))
    }

    /// Whether a name says logging or analytics (`analyticsName`, `logger`).
    static func namesLogging(_ name: String) -> Bool {
        !loggingWords.isDisjoint(with: words(name))
    }

    /// Whether a file is one that never ships, by its path: Xcode's `Preview Content` folder and
    /// files or folders named for previews; and, unless tests are linted too, files or folders
    /// named for mocks, fixtures or stubs (test support).
    static func isNeverShippedFile(_ path: String, includeTests: Bool = false) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        return parts.contains { part in
            // A name without a dot has no extension to take off (and Foundation's bridge costs).
            let base = part.utf8.contains(UInt8(ascii: ".")) ? (part as NSString).deletingPathExtension : part
            if base == "Preview Content" || namesNeverShippedCode(base) { return true }
            return !includeTests && !testSupportWords.isDisjoint(with: words(base))
        }
    }

    /// Whether a file is generated (R.swift, SwiftGen, protobuf, Core Data…): its header says so.
    /// How much of a file's start is read for a generator's mark.
    static let generatedHeaderBytes = 1200

    static func isGenerated(path: String, source: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name.contains(".generated.") || name.hasSuffix("+generated.swift") || name.hasSuffix(".pb.swift") { return true }
        let head = source.utf8.prefix(generatedHeaderBytes)
        guard head.containsASCII("enerated") || head.containsASCII("ENERATED") else { return false }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        return ["do not edit", "generated by", "generated using", "autogenerated", "auto-generated", "automatically generated", "this file was generated",
                "this is a generated file", "generated file", "code generated", "@generated"].contains { text.contains($0) }
    }

    /// Whether a variable, property or parameter name says it holds a price (`price`,
    /// `kProAnnualPrice`, `yearlyCost`, `priceValue`), not something about one (`priceLabel`,
    /// `priceLocale`, `priceTier`).
    static func namesPrice(_ name: String) -> Bool {
        let w = words(name)
        guard let last = w.last, w.contains("price") || w.contains("prices") || w.contains("cost") else { return false }
        return ["price", "prices", "cost", "costs", "value", "amount"].contains(last)
            && w.allSatisfy { !notAmountWords.contains($0) }
    }

    /// Whether a price name says whose price it is: a product, a plan or a tier the app sells
    /// (`proPrice`, `kMonthlySubscriptionPrice`, `lifetimeCost`), not `typicalUnitPrice` or
    /// `itemPrice`. Outside files that sell products, only such names are an in-app price.
    static func namesProductPrice(_ name: String) -> Bool {
        words(name).contains { productWords.contains($0) }
    }

    static let productWords: Set<String> = ["pro", "premium", "plus", "vip", "gold", "subscription", "subscriptions", "sub", "subs",
                                            "monthly", "yearly", "annual", "annually", "weekly", "quarterly", "month", "year", "week",
                                            "lifetime", "product", "products", "iap", "purchase", "inapp", "unlock", "plan", "tier",
                                            "membership", "member", "trial", "intro", "introductory", "offer", "upgrade",
                                            "tip", "tips", "donation", "coins", "gems", "pack", "bundle", "full", "store", "paywall"]

    static let notAmountWords: Set<String> = ["locale", "label", "view", "font", "size", "height", "width", "color", "colour", "tier",
                                              "id", "identifier", "string", "text", "format", "style", "formatter", "index", "count",
                                              "key", "title", "button", "cell", "image", "icon", "offset", "padding", "margin", "spacing",
                                              "alignment", "frame", "constraint", "layer", "percent", "percentage", "ratio"]
}
