import Diagnostics
import Foundation
import PropertyList

/// What an `Info.plist` is: whose bundle it describes and the bundle ID it gives. Only an app's
/// own `Info.plist` lends its bundle ID to the app's catalog; the `Info.plist` of an extension, a
/// watch app, an App Clip, a test bundle, a help book, a framework or vendored code lends nothing.
struct BundleInfo: Sendable {
    enum Role: Sendable, Equatable {
        case app
        case other(String)
    }

    var path: String
    /// `CFBundleIdentifier`, literal or a build variable (`$(PRODUCT_BUNDLE_IDENTIFIER)`).
    var bundleID: Located<String>?
    var role: Role
    /// `CFBundleDisplayName` and `CFBundleName`, where they are written out (not build variables).
    var names: [String] = []
    /// Whether the file had C preprocessor lines (`INFOPLIST_PREPROCESS`) that were evaluated.
    var preprocessed = false

    /// Folders whose contents are someone else's code.
    static let vendoredFolders: Set<String> = ["vendor", "vendors", "thirdparty", "third_party", "third-party", "3rdparty",
                                               "external", "externals", "submodules", "dependencies"]

    /// Whether a file name is that of an `Info.plist` (`Info.plist`, `App-Info.plist`).
    static func isInfoPlistName(_ name: String) -> Bool {
        name.lowercased().hasSuffix("info.plist")
    }

    /// Whether a plist's root is a bundle's `Info.plist` by its keys.
    static func isBundleInfo(_ root: PlistNode) -> Bool {
        guard let dict = root.value.dictionaryValue else { return false }
        return dict.keys.contains { $0.hasPrefix("CFBundle") || $0 == "NSExtension" || $0 == "EXAppExtensionAttributes" }
    }

    init(path: String, root: PlistNode, preprocessed: Bool = false) {
        self.path = path
        self.preprocessed = preprocessed
        let dict = root.value.dictionaryValue ?? PlistDictionary()
        if let value = dict["CFBundleIdentifier"], let id = value.value.stringValue, !id.isEmpty {
            bundleID = Located(id, at: SourceLocation(path: path, line: Int(value.position.line), column: Int(value.position.column)))
        }
        role = Self.role(path: path, dict: dict)
        names = ["CFBundleDisplayName", "CFBundleName"].compactMap { dict[$0]?.value.stringValue }.filter { !$0.contains("$") && !$0.isEmpty }
    }

    private static func role(path: String, dict: PlistDictionary) -> Role {
        if dict.entry("NSExtension") != nil || dict.entry("EXAppExtensionAttributes") != nil { return .other("an app extension's") }
        if dict.entry(anyOf: ["WKWatchKitApp", "WKCompanionAppBundleIdentifier", "WKApplication"]) != nil { return .other("a watch app's") }
        if dict.entry("NSAppClip") != nil { return .other("an App Clip's") }
        if dict.entry(anyOf: ["HPDBookTitle", "HPDBookAccessPath"]) != nil { return .other("a help book's") }
        switch dict["CFBundlePackageType"]?.value.stringValue {
        case "FMWK": return .other("a framework's")
        case "XPC!": return .other("an XPC service's")
        case "BNDL": return .other("a loadable bundle's (tests, plug-in or help)")
        default: break
        }
        let folders = path.split(separator: "/").dropLast().map(String.init)
        if folders.contains(where: { $0.hasSuffix("Tests") || $0.hasSuffix("Test") || $0.hasSuffix("UITests") }) {
            return .other("a test target's")
        }
        if folders.contains(where: { $0.hasSuffix(".help") || $0.hasSuffix(".bundle") }) { return .other("a resource bundle's") }
        if folders.contains(where: { vendoredFolders.contains($0.lowercased()) }) { return .other("vendored code's") }
        return .app
    }
}

/// Evaluates the C preprocessor lines Xcode runs on an `Info.plist` when `INFOPLIST_PREPROCESS`
/// is on (`#ifdef`, `#if`, `#else`, `#define`, …), with no macro defined but those the file
/// defines: the build Xcode makes by default. Directive lines and lines of untaken branches become
/// empty lines, so every line keeps its number.
enum InfoPlistPreprocessor {
    /// The text with directives evaluated, or nil when it has none.
    static func preprocess(_ bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.contains(where: { directive($0) != nil }) else { return nil }
        var defined = Set<String>()
        // Each open conditional: (this branch is taken, some branch was taken, the enclosing one is active).
        var stack: [(taken: Bool, any: Bool, outer: Bool)] = []
        var active: Bool { stack.last.map { $0.taken && $0.outer } ?? true }
        var out: [Substring] = []
        for line in lines {
            guard let (word, argument) = directive(line) else {
                out.append(active ? line : "")
                continue
            }
            switch word {
            case "if", "ifdef", "ifndef":
                let outer = active
                let value: Bool = switch word {
                case "ifdef": defined.contains(argument)
                case "ifndef": !defined.contains(argument)
                default: evaluate(argument, defined: defined)
                }
                stack.append((value, value, outer))
            case "elif":
                if var top = stack.popLast() {
                    let value = !top.any && evaluate(argument, defined: defined)
                    top.taken = value
                    top.any = top.any || value
                    stack.append(top)
                }
            case "else":
                if var top = stack.popLast() {
                    top.taken = !top.any
                    top.any = true
                    stack.append(top)
                }
            case "endif": _ = stack.popLast()
            case "define": if active, let name = argument.split(separator: " ").first { defined.insert(String(name)) }
            case "undef": if active { defined.remove(argument) }
            default: break
            }
            out.append("")
        }
        return Array(out.joined(separator: "\n").utf8)
    }

    /// `#word argument` when the line is a preprocessor directive.
    private static func directive(_ line: Substring) -> (String, String)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.first == "#" else { return nil }
        let body = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
        let word = body.prefix { $0.isLetter }
        guard ["if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include", "error", "warning", "pragma"]
            .contains(String(word)) else { return nil }
        var argument = body.dropFirst(word.count)
        if let comment = argument.range(of: "//") { argument = argument[..<comment.lowerBound] }
        return (String(word), argument.trimmingCharacters(in: .whitespaces))
    }

    /// `#if` conditions: `defined(X)`, `!`, `&&`, `||`, integers and macro names (undefined is 0).
    private static func evaluate(_ expression: String, defined: Set<String>) -> Bool {
        let alternatives = expression.components(separatedBy: "||")
        return alternatives.contains { alternative in
            alternative.components(separatedBy: "&&").allSatisfy { term in
                var t = term.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "()")))
                var negate = false
                while t.hasPrefix("!") { negate.toggle(); t = String(t.dropFirst()).trimmingCharacters(in: .whitespaces) }
                let value: Bool
                if t.hasPrefix("defined") {
                    let name = t.dropFirst("defined".count).trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "()")))
                    value = defined.contains(name)
                } else if let number = Int(t) {
                    value = number != 0
                } else {
                    value = false
                }
                return value != negate
            }
        }
    }
}
