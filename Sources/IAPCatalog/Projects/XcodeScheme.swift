import Foundation
import PropertyList
import Support

/// What a shared Xcode scheme (`App.xcodeproj/xcshareddata/xcschemes/App.xcscheme`) says about
/// running the app: the StoreKit configuration its Run action uses, and the target it launches.
/// Two apps of one project (a free and a pro app, an iOS and a macOS app) each run with their own
/// `.storekit` file, and their schemes are where the project says which is whose.
///
/// Schemes are XML that Xcode writes; they are read by a small scanner of tags and attributes,
/// linear in the file's size, with no entity expansion beyond XML's five and character references,
/// no DTD and no network: a scheme that is not XML as Xcode writes it is reported, never trusted.
struct XcodeScheme: Equatable, Sendable {
    /// The target a scheme's Run action launches, as its `BuildableReference` names it.
    struct Target: Equatable, Sendable {
        /// The target's object ID in `project.pbxproj`.
        var blueprintIdentifier: String?
        /// The target's name.
        var blueprintName: String?
        /// `container:App.xcodeproj`, the project that holds the target (Xcode keeps it stale after a rename).
        var container: String?
    }

    /// `StoreKitConfigurationFileReference`'s `identifier`, as written: a path relative to the
    /// workspace the scheme was saved from (see `storeKitCandidates`).
    var storeKitConfiguration: String?
    /// The target the Run action launches: its runnable's, else its macro expansion's.
    var launched: Target?

    /// Schemes larger than this are not read: Xcode's are a few kilobytes.
    static let maxBytes = 1 << 20

    /// Why a scheme says nothing.
    enum Failure: Error, Equatable {
        case unreadable(String)
        case malformed(String)

        /// The reason, as `--verbose` says it after the scheme's path.
        var reason: String {
            switch self {
            case .unreadable(let why): "a shared scheme that cannot be read (\(why)): the StoreKit configuration it runs with is not known"
            case .malformed(let why): "a shared scheme that does not parse (\(why)): the StoreKit configuration it runs with is not known"
            }
        }
    }

    /// The scheme at `path`, read with a size limit.
    static func read(_ path: String) -> Result<XcodeScheme, Failure> {
        switch FileContents.read(path, limit: maxBytes) {
        case .success(let data): return parse([UInt8](data))
        case .failure(let failure): return .failure(.unreadable(failure.phrase))
        }
    }

    /// The scheme in `bytes`: its Run action's StoreKit configuration and launched target.
    static func parse(_ bytes: [UInt8]) -> Result<XcodeScheme, Failure> {
        var scheme = XcodeScheme()
        // The target, and how sure it is: a runnable (2) over a macro expansion (1).
        var launchedRank = 0
        var open: [String] = []
        var sawRoot = false
        var scanner = TagScanner(bytes: bytes)
        while true {
            let tag: TagScanner.Tag?
            do { tag = try scanner.next() } catch { return .failure(.malformed(error.message)) }
            guard let tag else { break }
            switch tag {
            case .start(let name, let attributes, let selfClosing):
                if open.isEmpty {
                    guard !sawRoot, name == "Scheme" else { return .failure(.malformed("the root element is <\(name)>, not <Scheme>")) }
                    sawRoot = true
                }
                let parent = open.last
                let inLaunchAction = open.count >= 2 && open[open.count - 2] == "LaunchAction"
                if name == "StoreKitConfigurationFileReference", parent == "LaunchAction", scheme.storeKitConfiguration == nil {
                    scheme.storeKitConfiguration = attributes["identifier"].flatMap { $0.isEmpty ? nil : $0 }
                }
                if name == "BuildableReference", inLaunchAction {
                    let rank = parent == "BuildableProductRunnable" || parent == "RemoteRunnable" ? 2 : parent == "MacroExpansion" ? 1 : 0
                    if rank > launchedRank {
                        launchedRank = rank
                        scheme.launched = Target(blueprintIdentifier: attributes["BlueprintIdentifier"], blueprintName: attributes["BlueprintName"],
                                                 container: attributes["ReferencedContainer"])
                    }
                }
                if !selfClosing { open.append(name) }
            case .end(let name):
                guard open.last == name else {
                    return .failure(.malformed("</\(name)> closes \(open.last.map { "<\($0)>" } ?? "nothing")"))
                }
                open.removeLast()
            }
        }
        guard sawRoot else { return .failure(.malformed("no <Scheme> element")) }
        guard open.isEmpty else { return .failure(.malformed("<\(open.last!)> is not closed")) }
        return .success(scheme)
    }

    /// The paths `identifier` may name, most likely first. Xcode writes it relative to the
    /// workspace the scheme was saved from: the project's own `App.xcodeproj/project.xcworkspace`
    /// when the project was opened by itself (`../../Configuration.storekit` for a file beside the
    /// project), or an `.xcworkspace` the project was opened through (`../Runner/Configuration.storekit`
    /// beside `Runner.xcworkspace`). So the candidates are: from the project's own workspace, from
    /// each of `workspaces` in the project's folder or above it (nearest first), and from the
    /// project itself (a workspace beside it that is not committed). Paths are in the walk's form.
    static func storeKitCandidates(_ identifier: String, scheme: String, workspaces: [String]) -> [String] {
        if identifier.hasPrefix("/") { return [normalized(identifier)] }
        guard let project = projectPath(ofScheme: scheme) else { return [] }
        let folder = parent(project)
        var bases = [joined(project, "project.xcworkspace")]
        bases += workspaces.filter { FileDiscovery.Walk.isInside(normalized(folder), normalized(parent($0))) }
        bases.append(project)
        var seen = Set<String>()
        return bases.map { normalized(joined($0, identifier)) }.filter { seen.insert($0).inserted }
    }

    /// `App.xcodeproj` of `App.xcodeproj/xcshareddata/xcschemes/App.xcscheme`.
    static func projectPath(ofScheme scheme: String) -> String? {
        let project = parent(parent(parent(scheme)))
        return project.hasSuffix(".xcodeproj") ? project : nil
    }

    /// The folder of `path`, in the walk's form: `.` for a name with no folder. Not
    /// `NSString.deletingLastPathComponent`, which traps on `.` in Linux's Foundation.
    static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func joined(_ folder: String, _ relative: String) -> String {
        folder == "." ? relative : folder + "/" + relative
    }

    /// `path` with `.` and `..` taken away where they can be, without asking the file system: the
    /// form the walk gives paths in (`App/Configuration.storekit`, `../other/x.storekit`, `/abs/x`).
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." {
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            } else {
                parts.append(part)
            }
        }
        if parts.isEmpty { return absolute ? "/" : "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}

/// The tags of an XML document, one at a time, with their attributes: what a scheme needs and no
/// more. Comments, processing instructions, declarations and CDATA are passed over; text between
/// tags is ignored. Each byte is looked at a bounded number of times.
struct TagScanner {
    enum Tag: Equatable {
        case start(String, [String: String], selfClosing: Bool)
        case end(String)
    }

    struct Failure: Error {
        var message: String
    }

    let bytes: [UInt8]
    private(set) var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next tag, nil at the end of the document.
    mutating func next() throws(Failure) -> Tag? {
        while true {
            guard let open = find(UInt8(ascii: "<"), from: index) else {
                index = bytes.count
                return nil
            }
            index = open + 1
            if starts(with: "!--") {
                index = try skip(past: "-->", what: "a comment")
            } else if starts(with: "![CDATA[") {
                index = try skip(past: "]]>", what: "a CDATA section")
            } else if starts(with: "?") {
                index = try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "!") {
                index = try skip(past: ">", what: "a declaration")
            } else if starts(with: "/") {
                index += 1
                let name = readName()
                guard !name.isEmpty else { throw failure("an end tag without a name") }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw failure("the end tag </\(name)> is not closed") }
                index += 1
                return .end(name)
            } else {
                return try startTag()
            }
        }
    }

    private mutating func startTag() throws(Failure) -> Tag {
        let name = readName()
        guard !name.isEmpty else { throw failure("a '<' that begins no tag") }
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("the tag <\(name)> is not closed") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return .start(name, attributes, selfClosing: false)
            }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else { throw failure("a '/' inside the tag <\(name)>") }
                index += 2
                return .start(name, attributes, selfClosing: true)
            }
            let attribute = readName()
            guard !attribute.isEmpty else { throw failure("an unexpected character inside the tag <\(name)>") }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw failure("the attribute \(attribute) of <\(name)> has no value") }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure("the value of \(attribute) in <\(name)> is not quoted")
            }
            let quote = bytes[index]
            guard let close = find(quote, from: index + 1) else { throw failure("the value of \(attribute) in <\(name)> is not closed") }
            let value = Self.decoded(bytes[(index + 1)..<close])
            index = close + 1
            if attributes[attribute] == nil { attributes[attribute] = value }
        }
    }

    private func failure(_ what: String) -> Failure {
        Failure(message: "\(what), at byte \(index)")
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    /// The index just past `terminator`, searched from the current index.
    private mutating func skip(past terminator: StaticString, what: String) throws(Failure) -> Int {
        let count = terminator.utf8CodeUnitCount
        let first = terminator.utf8Start[0]
        var at = index
        while let candidate = find(first, from: at) {
            if candidate + count <= bytes.count, (0..<count).allSatisfy({ bytes[candidate + $0] == terminator.utf8Start[$0] }) {
                return candidate + count
            }
            at = candidate + 1
        }
        throw failure("\(what) is not closed")
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// An XML name (letters, digits, `_`, `-`, `.`, `:` and any non-ASCII byte).
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isName = byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            guard isName else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// An attribute value with XML's five entities and character references replaced; any other
    /// `&` is kept as written.
    static func decoded(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            // An entity is short: never look further than this for its `;`.
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            let replacement: String? = switch name {
            case "amp": "&"
            case "lt": "<"
            case "gt": ">"
            case "quot": "\""
            case "apos": "'"
            default: characterReference(name)
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// `#65` or `#x41` as the character it names.
    private static func characterReference(_ name: Substring) -> String? {
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
